"""A roll as the public may see it on its proof page (GET /proof/{roll_id}): who decides that it may
(`proof_is_public`, the one place), and what the page is made from (`public_proof`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Repository
from eventsourcing.domain import Aggregate

from domain.aggregates import Campaign, Character, Roll, Scene
from domain.errors import NotFound
from domain.rulesets import get_ruleset
from domain.visibility import Visibility

# One answer for an unknown id, an id of something else and a roll whose page is not public, so
# that nobody can probe which ids are rolls.
NO_PAGE = "no public proof page has this id"


@dataclass(frozen=True)
class PublicProof:
    roll: Roll
    campaign: Campaign
    scene: Scene  # its seed epochs: the commitments, and the seeds once revealed
    who: str  # the character's name, else the rolling member's
    what: str  # what was rolled, as the ruleset reads its check


def proof_is_public(campaign: Campaign, roll: Roll) -> bool:
    """May anyone, without a token, see this roll and its proof? Every public read of a roll
    asks here: the campaign must have opened its proof pages, and the roll must be one a player
    may see (not a secret GM roll before its reveal, nor one naming a hidden character)."""
    return campaign.proof_pages_public and not Visibility.public(campaign).withholds(roll.record)


def public_proof(repository: Repository, roll_id: str) -> PublicProof:
    """The roll behind a proof page; NotFound (always the same) unless its page is public."""
    roll = _roll(repository, roll_id)
    campaign: Campaign = repository.get(roll.campaign_id)
    if not proof_is_public(campaign, roll):
        raise NotFound(NO_PAGE, field="roll_id")
    scene: Scene = repository.get(roll.scene_id)
    who = who_rolled(repository, campaign, roll.record)
    return PublicProof(roll, campaign, scene, who, what_was_rolled(campaign, roll.record))


def _roll(repository: Repository, roll_id: str) -> Roll:
    try:
        roll: Aggregate = repository.get(UUID(roll_id))
    except (ValueError, AggregateNotFoundError):
        raise NotFound(NO_PAGE, field="roll_id") from None
    if not isinstance(roll, Roll):
        raise NotFound(NO_PAGE, field="roll_id")
    return roll


def who_rolled(repository: Repository, campaign: Campaign, record: dict[str, Any]) -> str:
    """Who a roll's reader is told rolled: the character, else the member who rolled."""
    if record.get("character_id") is not None:
        character: Character = repository.get(UUID(record["character_id"]))
        return character.name
    member = campaign.members.get(UUID(record["rolled_by"]))
    return member.name if member is not None else "a former member"


def what_was_rolled(campaign: Campaign, record: dict[str, Any]) -> str:
    """What was rolled, as the campaign's ruleset reads its check (a follow-up: by its name)."""
    if record.get("follow_up"):
        return f"{record['follow_up'].replace('_', ' ')} (a follow-up of {record['check']})"
    check = get_ruleset(campaign.ruleset).checks.get(record["check"])
    return check.reads(record["request"]) if check is not None else record["check"]
