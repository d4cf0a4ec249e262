"""Signatures: the published signing keys (no token) and a campaign's signed chain head (docs/receipts.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import ActorDep, AppDep
from api.errors import ERROR_RESPONSES
from api.read_routes import ReadRoutes
from api.routing import OneHopRoute

router = APIRouter(route_class=OneHopRoute, tags=["signatures"], responses=ERROR_RESPONSES)
reads = ReadRoutes(router)


class SigningKeyPublic(BaseModel):
    key_id: str = Field(description="First 16 hex digits of SHA-256 of the raw public key")
    algorithm: Literal["ed25519"]
    public_key: str = Field(description="The raw 32-byte Ed25519 public key, hex")
    active: bool = Field(description="The key that signs now; the others verify what they signed")
    created: datetime


class SigningKeysPublic(BaseModel):
    keys: list[SigningKeyPublic] = Field(
        description="Oldest first; pass this to `chronicle verify --keys`"
    )


class ChainHeadPublic(BaseModel):
    campaign_id: UUID
    length: int = Field(description="Rolls in the campaign's chain")
    hash: str = Field(description="The hash of the last roll record (64 zeros for none)")
    position: int = Field(description="Every roll written at or before this log position is inside")
    key_id: str
    signature: str = Field(description="Ed25519, hex, over the encoding of docs/receipts.md")
    signed_at: str = Field(description="UTC, YYYY-MM-DDTHH:MM:SSZ (signed)")


@router.get("/v1/signing-keys", response_model=SigningKeysPublic, operation_id="signing_keys")
def signing_keys(app: AppDep) -> SigningKeysPublic:
    """The keys receipts, heads and exports are signed with, for verifiers (no token needed)."""
    return SigningKeysPublic.model_validate({"keys": app.signing.published()})


@reads.get(
    "/v1/campaigns/{campaign_id}/head",
    model=ChainHeadPublic,
    operation_id="campaign_head",
)
def campaign_head(campaign_id: UUID, app: AppDep, actor: ActorDep) -> ChainHeadPublic:
    """The campaign's roll chain now, signed: announce it (post it to the forum) and any later
    export can be checked against it (`chronicle verify --expect-head`)."""
    return ChainHeadPublic.model_validate(app.signed_head(actor, campaign_id))
