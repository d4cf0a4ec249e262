"""systems.wcbh."""
