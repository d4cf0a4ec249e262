"""Health and the ruleset catalogue (public: front ends read them before they have a token)."""

from __future__ import annotations

from functools import cache

from eventsourcing.postgres import PostgresAggregateRecorder
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from api.deps import AppDep
from api.errors import ERROR_RESPONSES
from api.routing import OneHopRoute
from api.schemas import Health, RuleReference, RulesetPublic, RulesetSummary
from domain.errors import NotFound
from domain.rules_reference import reference_markdown, rules_reference
from domain.rulesets import RULESETS, get_ruleset

router = APIRouter(route_class=OneHopRoute, responses=ERROR_RESPONSES)


@router.get("/health", response_model=Health, tags=["meta"], operation_id="health")
def health(app: AppDep) -> Health:
    """Ok when the event store answers."""
    return Health(
        status="ok",
        # by class, not module name: our PostgreSQL recorder lives in domain.pg_schema
        backend="postgres" if isinstance(app.recorder, PostgresAggregateRecorder) else "sqlite",
        position=app.recorder.max_notification_id() or 0,
    )


@router.get(
    "/v1/rulesets",
    response_model=list[RulesetSummary],
    tags=["rulesets"],
    operation_id="list_rulesets",
)
def list_rulesets() -> list[RulesetSummary]:
    return [RulesetSummary(id=r.id, name=r.name) for r in RULESETS.values()]  # type: ignore[arg-type]


@router.get(
    "/v1/rulesets/{ruleset_id}",
    response_model=RulesetPublic,
    tags=["rulesets"],
    operation_id="get_ruleset",
)
def describe_ruleset(ruleset_id: str) -> RulesetPublic:
    """Sheet schema, an example sheet, derived stats and resources of one ruleset."""
    _known(ruleset_id)
    return _described(ruleset_id)


@router.get(
    "/v1/rulesets/{ruleset_id}/rules",
    response_model=list[RuleReference],
    tags=["rulesets"],
    operation_id="get_ruleset_rules",
    responses={200: {"content": {"text/markdown": {"schema": {"type": "string"}}}}},
)
def ruleset_rules(ruleset_id: str, request: Request) -> list[RuleReference] | Response:
    """The ruleset's rules reference: every rule id a refusal or a roll may cite, what it says and
    what the service enforces for it. `Accept: text/markdown` gives the document itself."""
    _known(ruleset_id)
    if "text/markdown" in request.headers.get("accept", ""):
        return PlainTextResponse(reference_markdown(ruleset_id), media_type="text/markdown")
    return [
        RuleReference.model_validate(entry, from_attributes=True)
        for entry in rules_reference(ruleset_id)
    ]


def _known(ruleset_id: str) -> None:
    if ruleset_id not in RULESETS:
        raise NotFound(
            f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}", field="ruleset_id"
        )


@cache
def _described(ruleset_id: str) -> RulesetPublic:
    # A ruleset's description is fixed for the life of the process, and building it (the JSON
    # schemas of its sheet, settings and every check's request) took 80 ms: every front end asks
    # for it when it opens a sheet.
    return RulesetPublic.model_validate(get_ruleset(ruleset_id).describe())
