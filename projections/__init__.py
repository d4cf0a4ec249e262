"""Read models built from the event log (work issue #4 brings them)."""
