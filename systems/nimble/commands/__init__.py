"""systems.nimble.commands."""
