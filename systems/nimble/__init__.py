"""systems.nimble."""
