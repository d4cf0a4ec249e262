"""systems.classd."""
