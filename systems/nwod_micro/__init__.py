"""systems.nwod_micro."""
