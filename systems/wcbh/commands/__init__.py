"""systems.wcbh.commands."""
