"""A command reads its campaign once (domain/service.py `campaign_of`): what authenticating the
token read is what a command that only reads the campaign uses; one that changes it gets a copy."""

from __future__ import annotations

from domain.application import CampaignCreate, CommandContext, TokenMinted
from tests.app.table import SeededChronicle


def test_the_campaign_authentication_read_is_the_one_a_reading_command_uses() -> None:
    app = SeededChronicle()
    created = app.create_campaign(
        CommandContext(None), CampaignCreate(name="Night City", ruleset="wcbh")
    )
    actor = app.authenticate(created.result_as(TokenMinted).token)
    assert actor.campaign_read is not None
    assert app.campaign_of(actor, to_change=False) is actor.campaign_read
    copy = app.campaign_of(actor)
    assert copy is not actor.campaign_read
    assert copy.version == actor.campaign_read.version
    assert actor == type(actor)(actor.campaign_id, actor.member_id, actor.role)  # not compared
