"""The roll and follow-up bodies typed per check: for each ruleset, a union discriminated by the
check's name whose members carry that check's own request model, so a front end can build a form
per check from the OpenAPI document alone. Validation is unchanged: the routes still take
`RollCreate` and the check parses its `request` (the same bodies are accepted and refused)."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from domain.rulesets import RULESETS
from domain.rulesets.base import Check, FollowUp, Ruleset

Schemas = dict[str, Any]
REF = "#/components/schemas/"
# body schema -> the field naming the kind, the ruleset's table of kinds, the member's suffix
TYPED_BODIES = {
    "RollCreate": ("check", "checks", "Roll"),
    "FollowUpCreate": ("follow_up", "follow_ups", "FollowUp"),
}


def pascal(name: str) -> str:
    """`nwod-micro` -> `NwodMicro`, `hero_attack` -> `HeroAttack`: unique component names."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", name) if part)


def type_check_bodies(schemas: Schemas) -> dict[tuple[str, str], Schemas]:
    """Replace each plain roll body (`request`: any object) with the union of its rulesets' unions;
    the $ref of each check's request model, by (ruleset id, check), for the bodies that take one."""
    refs: dict[tuple[str, str], Schemas] = {}
    for body, (key, table, suffix) in TYPED_BODIES.items():
        plain = schemas[body]
        unions = [
            _ruleset_union(schemas, ruleset, plain, (key, table, suffix, body), refs)
            for ruleset in RULESETS.values()
            if getattr(ruleset, table)
        ]
        schemas[body] = {
            "title": body,
            "description": f"The body follows the campaign's ruleset: one of {', '.join(unions)}, "
            f"each a union on `{key}` whose members type the `request` of that {key.replace('_', '-')}. "
            "The same shapes are in `request_schema` of GET /v1/rulesets/{ruleset_id}.",
            "anyOf": [{"$ref": REF + name} for name in unions],
        }
    return refs


def type_requests(
    schemas: Schemas,
    fields: dict[tuple[str, str], tuple[str, str]],
    refs: dict[tuple[str, str], Schemas],
) -> None:
    """Type the `request` fields of other bodies that take one check's request (a system's own
    commands that roll that check), `(schema, field) -> (ruleset id, check)`."""
    for (model, field), check in fields.items():
        described = schemas[model]["properties"][field].get("description")
        schemas[model]["properties"][field] = {**refs[check], "description": described}


def _ruleset_union(
    schemas: Schemas,
    ruleset: Ruleset,
    plain: Schemas,
    kind: tuple[str, str, str, str],
    found: dict[tuple[str, str], Schemas],
) -> str:
    key, table, suffix, body = kind
    prefix = pascal(ruleset.id)
    kinds: dict[str, Check | FollowUp] = getattr(ruleset, table)
    refs = _request_schemas(schemas, prefix, [k.Request for k in kinds.values()])
    mapping = {}
    for name, check in kinds.items():
        member = f"{prefix}{pascal(name)}{suffix}"
        properties = {
            **plain["properties"],
            key: {"type": "string", "const": name, "title": pascal(key)},
            "request": refs[check.Request],
        }
        rules = f" ({', '.join(check.rules)})" if check.rules else ""
        _add(
            schemas,
            member,
            {
                "type": "object",
                "title": member,
                "description": f"{ruleset.name}, {name}: {check.description}{rules}",
                "properties": properties,
                "required": plain.get("required", [key]),
                "additionalProperties": False,
            },
        )
        mapping[name] = REF + member
        found[(ruleset.id, name)] = refs[check.Request]
    union = f"{prefix}{suffix}Body"
    _add(
        schemas,
        union,
        {
            "title": union,
            "description": f"A {body} of a {ruleset.name} campaign, by `{key}`.",
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": key, "mapping": mapping},
        },
    )
    return union


def _request_schemas(
    schemas: Schemas, prefix: str, models: list[type[BaseModel]]
) -> dict[type[BaseModel], Schemas]:
    """Add the ruleset's request models (and what they refer to) under its prefix; each model's $ref."""
    unique = list(dict.fromkeys(models))
    refs, top = models_json_schema(
        [(model, "validation") for model in unique], ref_template=f"{REF}{prefix}{{model}}"
    )
    for name, schema in top.get("$defs", {}).items():
        # generated clients name a model by its title: the prefixed name keeps it unique
        _add(schemas, prefix + name, {**schema, "title": prefix + name})
    return {model: refs[(model, "validation")] for model in unique}


def _add(schemas: Schemas, name: str, schema: Schemas) -> None:
    # Two different schemas of one name would make generated clients drop operations.
    assert schemas.get(name, schema) == schema, f"two OpenAPI schemas named {name}"
    schemas[name] = schema
