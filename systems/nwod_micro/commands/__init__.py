"""systems.nwod_micro.commands."""
