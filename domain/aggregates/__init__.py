"""The six aggregates of a campaign (and the idempotency record, the server key's fingerprint);
invariants live here."""

from __future__ import annotations

from domain.aggregates.campaign import ROLES, Campaign, Member
from domain.aggregates.character import SIDES, Character
from domain.aggregates.idempotency import IdempotencyRecord
from domain.aggregates.issue import Issue
from domain.aggregates.mission import MISSION_OUTCOMES, Mission
from domain.aggregates.roll import Roll, RollChain
from domain.aggregates.roll_request import RollRequest, SceneRollRequests
from domain.aggregates.scene import Scene
from domain.aggregates.server_key import ServerKey
from domain.aggregates.signing_keys import SigningKeys
from domain.aggregates.story import Story
from domain.aggregates.webhook import Webhook

__all__ = [
    "MISSION_OUTCOMES",
    "ROLES",
    "SIDES",
    "Campaign",
    "Character",
    "IdempotencyRecord",
    "Issue",
    "Member",
    "Mission",
    "Roll",
    "RollChain",
    "RollRequest",
    "Scene",
    "SceneRollRequests",
    "ServerKey",
    "SigningKeys",
    "Story",
    "Webhook",
]
