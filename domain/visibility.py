"""Visibility: GM-only characters and secret GM rolls, the commands that set them and the one
rule every read path applies (docs/front-ends.md, "Visibility")."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.aggregates import Campaign, Character, Roll
from domain.commands import Actor, CommandContext, Component, Outcome, command
from domain.requests import CharacterVisibility

# What everyone sees of a withheld roll: its place in the chain, its links and its commitment,
# so that the chain still checks (docs/fair-dice.md, "Secret rolls"). Nothing else of the record.
CHAIN_FIELDS = (
    "format",
    "campaign_id",
    "scene_id",
    "roll_id",
    "nonce",
    "commitment",
    "sequence",
    "prev_hash",
    "hash",
)
# Entries that keep the chain and the dice epochs countable: they name a roll, never its contents.
CHAIN_ENTRIES = frozenset(
    {
        "RollChain.Started",
        "RollChain.Linked",
        "Scene.RollMade",
        "Campaign.RollWithheld",
        "Campaign.RollRevealed",
        "Roll.Revealed",
    }
)
ENVELOPE = ("position", "type", "originator_id", "originator_version", "timestamp", "actor")
# The type of an entry that stands for an event the reader may not see (docs/events.md).
WITHHELD_ENTRY = "Withheld"
WITHHELD_TEXT = "A secret roll of the GM (withheld until the GM reveals it)"


@dataclass(frozen=True)
class Visibility:
    """What one reader may not see of its campaign now: the hidden characters and the withheld
    rolls (none for the GM). Take it *after* reading the views: the campaign is read from the
    store, so it knows at least every hide and secret roll the views had applied."""

    hidden: frozenset[str] = frozenset()
    withheld: frozenset[str] = frozenset()

    @classmethod
    def of(cls, campaign: Campaign, actor: Actor) -> Visibility:
        return cls() if actor.is_gm else cls.public(campaign)

    @classmethod
    def public(cls, campaign: Campaign) -> Visibility:
        """What anyone but the GM sees: a player, an observer, and any reader without a token
        (a public page, a pushed delivery) is no more than an observer."""
        return cls(
            frozenset(str(i) for i in campaign.hidden_character_ids),
            frozenset(str(i) for i in campaign.withheld_roll_ids),
        )

    @property
    def whole(self) -> bool:
        """Nothing is kept from this reader: every read answers as it always did."""
        return not (self.hidden or self.withheld)

    def hides(self, value: Any) -> bool:
        """Does the value name a hidden character anywhere (ids, also inside texts)?"""
        return _mentions(value, self.hidden)

    def withholds(self, record: Mapping[str, Any]) -> bool:
        """Is this roll record kept from the reader: a secret roll, a follow-up of one, or a roll
        that names a hidden character (its roller, its target)?"""
        ids = {str(record.get("roll_id")), str(record.get("follow_up_of"))}
        return bool(ids & self.withheld) or self.hides(record)

    def entry(self, entry: Mapping[str, Any]) -> dict[str, Any] | None:
        """A log entry as the reader sees it: whole; a withheld roll's chain fields; a `Withheld`
        entry in place of an event of a visible aggregate that names what is kept (so the
        reader still sees each aggregate's versions follow each other, and an export verifies);
        or nothing, for the events of a hidden character itself."""
        if self.whole or entry["type"] in CHAIN_ENTRIES:
            return dict(entry)
        payload = entry["payload"]
        # A withheld entry is built from the envelope alone: a field added beside the payload
        # later cannot carry what is kept. Its readable text is none (null, as every reader of
        # the entry gets it: the events API, the stream and a webhook's body alike).
        envelope = {**{k: entry[k] for k in ENVELOPE if k in entry}, "text": None}
        if entry["type"] == "Roll.Recorded" and self.withholds(payload["record"]):
            shown = {"campaign_id": payload.get("campaign_id"), "withheld": True}
            return {**envelope, "payload": {**shown, "record": withheld_record(payload["record"])}}
        if entry["originator_id"] in self.hidden:
            return None
        if _mentions(entry, self.hidden | self.withheld):
            return {**envelope, "type": WITHHELD_ENTRY, "actor": None, "payload": {}}
        return dict(entry)

    def entries(self, entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return [seen for e in entries if (seen := self.entry(e)) is not None]

    def steps(self, steps: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Replay steps as the reader sees them (each step lists the ids it is `about`)."""
        seen = []
        for step in steps:
            about = set(step.get("about", ()))
            if self.whole or not about & (self.hidden | self.withheld):
                seen.append(dict(step))
            elif step["type"] == "Roll.Recorded":
                seen.append({**step, "text": WITHHELD_TEXT, "changes": {}})
        return seen


def withheld_record(record: Mapping[str, Any]) -> dict[str, Any]:
    return {**{k: record[k] for k in CHAIN_FIELDS if k in record}, "withheld": True}


def _mentions(value: Any, ids: frozenset[str]) -> bool:
    if not ids or value is None:
        return False
    if isinstance(value, str):
        return any(i in value for i in ids)
    if isinstance(value, UUID):
        return str(value) in ids
    if isinstance(value, Mapping):
        return any(_mentions(k, ids) or _mentions(v, ids) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_mentions(v, ids) for v in value)
    return False


class VisibilityCommands(Component):
    """The GM's visibility commands: a component the application holds as `app.visibility`."""

    @command
    def set_character_visibility(
        self, ctx: CommandContext, character_id: UUID, body: CharacterVisibility
    ) -> Outcome:
        """The GM hides a character from players and observers, or shows it again."""
        app = self.app
        actor = app._gm(ctx)
        character = app.get(actor, Character, character_id)
        campaign = app.campaign_of(actor)
        if body.hidden:
            campaign.hide_character(character.id)
        else:
            campaign.show_character(character.id)
        return app._commit(ctx, campaign)

    @command
    def reveal_roll(self, ctx: CommandContext, roll_id: UUID) -> Outcome:
        """The GM reveals a secret roll (and its follow-ups): everyone sees it whole from now on."""
        app = self.app
        actor, roll = app._addressed(ctx, Roll, roll_id, gm=True)
        campaign = app.campaign_of(actor)
        campaign.reveal_roll(roll.id)
        roll.reveal()
        return app._commit(ctx, roll, campaign)
