"""The status that follows a Class D character's Health (CD-11 ruling, CD-12), pure."""

from __future__ import annotations

from systems.classd.rules import RULESET


def test_a_defeated_character_with_health_above_0_is_active_again_cd_11() -> None:
    assert RULESET.status_after("defeated", {"health": 1, "will": 0}) == ("active", "CD-11")


def test_an_active_character_at_0_health_is_defeated_cd_11() -> None:
    assert RULESET.status_after("active", {"health": 0, "will": 3}) == ("defeated", "CD-11")


def test_a_captured_villain_stays_captured_whatever_its_health_cd_12() -> None:
    assert RULESET.status_after("captured", {"health": 5, "will": 0}) is None
    assert RULESET.status_after("captured", {"health": 0, "will": 0}) is None


def test_will_alone_never_changes_the_status_cd_12() -> None:
    assert RULESET.status_after("active", {"health": 4, "will": 0}) is None
