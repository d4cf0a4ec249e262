"""systems.classd.commands."""
