"""The OpenAPI document is what clients are generated from, so it changes only on purpose.

`openapi.json` beside this file is the whole document the app serves at /openapi.json, pretty-printed
with sorted keys. Any difference fails, with a summary of the operations (method, path, operationId)
and schemas that changed, so a restructure that moves routers or schemas cannot rename a component
or an operation unnoticed. After a deliberate change to the API, write the snapshot again from the
repository root and commit it with the change:

    .venv/bin/python -m tests.unit.test_openapi_snapshot --write

The document comes from `create_app()` without its lifespan (no store is opened): FastAPI builds it
from the routes and their models alone, once a test process (`tests.api.support.openapi_document`).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import typing
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.routing import APIRoute
from pydantic import BaseModel

from api.main import create_app
from tests.api.support import openapi_document

SNAPSHOT = Path(__file__).with_name("openapi.json")
REGENERATE = ".venv/bin/python -m tests.unit.test_openapi_snapshot --write"
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DIFF_LINES = 120  # of the line diff shown under the summary; the summary lists everything


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def operations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every operation of the document by "METHOD path"."""
    return {
        f"{method.upper()} {path}": operation
        for path, item in doc.get("paths", {}).items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


def _compared(kind: str, old: dict[str, Any], new: dict[str, Any], label: Any) -> Iterator[str]:
    for key in sorted(old.keys() - new.keys()):
        yield f"  removed {kind} {label(key, old[key])}"
    for key in sorted(new.keys() - old.keys()):
        yield f"  added {kind} {label(key, new[key])}"
    for key in sorted(k for k in old.keys() & new.keys() if old[k] != new[k]):
        before, after = label(key, old[key]), label(key, new[key])
        yield f"  changed {kind} {before}" + (f" -> {after}" if after != before else "")


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two documents: operations, schemas, then anything else at the top."""

    def operation(key: str, op: dict[str, Any]) -> str:
        return f"{key} (operationId {op.get('operationId')})"

    def plain(key: str, _: Any) -> str:
        return key

    old_schemas = old.get("components", {}).get("schemas", {})
    new_schemas = new.get("components", {}).get("schemas", {})
    rest = {"old": dict(old), "new": dict(new)}
    for doc in rest.values():
        doc.pop("paths", None)
        doc["components"] = {k: v for k, v in doc.get("components", {}).items() if k != "schemas"}
    return [
        *_compared("operation", operations(old), operations(new), operation),
        *_compared("schema", old_schemas, new_schemas, plain),
        *_compared("top-level entry", rest["old"], rest["new"], plain),
    ]


def test_the_openapi_document_is_the_committed_snapshot() -> None:
    committed = SNAPSHOT.read_text()
    today = render(openapi_document())
    if committed == today:
        return
    summary = changes(json.loads(committed), json.loads(today)) or ["  (formatting only)"]
    diff = list(
        difflib.unified_diff(
            committed.splitlines(), today.splitlines(), "openapi.json", "today", lineterm=""
        )
    )
    shown = diff[:DIFF_LINES] + (
        [f"... {len(diff) - DIFF_LINES} more lines"] if diff[DIFF_LINES:] else []
    )
    raise AssertionError(
        "The OpenAPI document differs from tests/unit/openapi.json:\n"
        + "\n".join(summary)
        + "\nGenerated clients see every such change. If it is meant, run "
        f"`{REGENERATE}` and commit the file with the change.\n\n" + "\n".join(shown)
    )


def test_every_operation_has_its_own_operation_id() -> None:
    by_id: dict[str, list[str]] = defaultdict(list)
    for key, operation in operations(openapi_document()).items():
        by_id[str(operation.get("operationId"))].append(key)
    clashes = {op_id: keys for op_id, keys in by_id.items() if len(keys) > 1 or op_id == "None"}
    assert not clashes, "operationIds missing or shared (a client keeps one function per id):\n" + (
        "\n".join(f"  {op_id}: {', '.join(keys)}" for op_id, keys in sorted(clashes.items()))
    )


def models_of(annotation: Any, seen: set[type[BaseModel]]) -> None:
    """Add every pydantic model an annotation reaches (its fields' models too) to `seen`."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation not in seen:
            seen.add(annotation)
            for field in annotation.model_fields.values():
                models_of(field.annotation, seen)
        return
    for argument in typing.get_args(annotation):
        models_of(argument, seen)


def route_models() -> set[type[BaseModel]]:
    """The models of every route's body, parameters and responses, and the models they hold."""
    seen: set[type[BaseModel]] = set()
    for route in create_app().routes:
        if not isinstance(route, APIRoute):
            continue
        models_of(route.response_model, seen)
        for response in route.responses.values():
            models_of(response.get("model"), seen)
        dependant = route.dependant
        for param in [*dependant.body_params, *dependant.query_params, *dependant.header_params]:
            models_of(param.field_info.annotation, seen)
    return seen


def test_no_two_models_of_the_api_share_a_name() -> None:
    # Two classes of one name make FastAPI name both components by module path (api__routers__…),
    # and generators drop what refers to them: each model's __name__ must be its component's name.
    by_name: dict[str, set[str]] = defaultdict(set)
    for model in route_models():
        by_name[model.__name__].add(f"{model.__module__}.{model.__qualname__}")
    clashes = {name: places for name, places in by_name.items() if len(places) > 1}
    assert not clashes, (
        "Models share a name; rename one of each (docs/decisions.md):\n"
        + "\n".join(
            f"  {name}: {', '.join(sorted(places))}" for name, places in sorted(clashes.items())
        )
    )
    schemas = openapi_document()["components"]["schemas"]
    assert {m.__name__ for m in route_models()} <= schemas.keys()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write the OpenAPI snapshot tests/unit/openapi.json."
    )
    parser.add_argument("--write", action="store_true", help="write tests/unit/openapi.json")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 2
    old = json.loads(SNAPSHOT.read_text()) if SNAPSHOT.exists() else {}
    new = openapi_document()
    SNAPSHOT.write_text(render(new))
    print("\n".join(changes(old, new)) or "openapi.json was up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
