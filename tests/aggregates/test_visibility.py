"""Aggregates: what the campaign withholds from players, given events → command → new events."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.aggregates import Campaign
from domain.errors import Conflict
from tests.aggregates.support import given, new_events


def a_campaign() -> Campaign:
    return given(Campaign.create(uuid4(), "Night City", "wcbh", {}, uuid4(), "Ann", "h0"))


def test_a_campaign_from_before_visibility_hides_and_withholds_nothing() -> None:
    campaign = a_campaign()
    assert (campaign.hidden_character_ids, campaign.withheld_roll_ids) == ([], [])


def test_hiding_a_character_records_it_and_lists_it_once() -> None:
    campaign, villain = a_campaign(), uuid4()
    campaign.hide_character(villain)
    assert new_events(campaign) == [("CharacterHidden", {"character_id": villain})]
    campaign = given(campaign)
    campaign.hide_character(villain)  # again: recorded, still listed once
    assert given(campaign).hidden_character_ids == [villain]


def test_showing_a_hidden_character_takes_it_off_the_list() -> None:
    campaign, villain, other = a_campaign(), uuid4(), uuid4()
    campaign.hide_character(villain)
    campaign.hide_character(other)
    campaign = given(campaign)
    campaign.show_character(villain)
    assert campaign.hidden_character_ids == [other]
    assert new_events(campaign) == [("CharacterShown", {"character_id": villain})]


def test_a_secret_roll_is_withheld() -> None:
    campaign, roll = a_campaign(), uuid4()
    campaign.withhold_roll(roll)
    assert new_events(campaign) == [("RollWithheld", {"roll_id": roll})]


def test_a_withheld_roll_is_revealed_once() -> None:
    campaign, roll = a_campaign(), uuid4()
    campaign.withhold_roll(roll)
    campaign = given(campaign)
    assert campaign.withheld_roll_ids == [roll]
    campaign.reveal_roll(roll)
    assert campaign.withheld_roll_ids == []
    assert new_events(campaign) == [("RollRevealed", {"roll_id": roll})]
    with pytest.raises(Conflict) as refused:
        campaign.reveal_roll(roll)
    assert (refused.value.code, refused.value.field) == ("not_withheld", "roll_id")
    assert new_events(campaign) == []
