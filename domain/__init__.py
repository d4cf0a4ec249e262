"""Chronicle's domain: pure rules and dice, aggregates and the eventsourcing application."""
