"""Every error `code` the code base can answer, found by reading its source (no import, no guess).

A code reaches a client in one of these ways, and each is a pattern of the syntax tree:
- a keyword `code="..."` on a call (a domain error, `error_response`, a helper's argument);
- a keyword `code="prefix_" + name` (a family, such as `not_enough_<resource>`): its prefix;
- a class attribute `code = "..."` (the domain error classes' defaults);
- a parameter `code: str = "..."` (a helper's default code);
- a positional argument in the place of a function's `code` parameter
  (`error_response(status, "code", ...)`, `refused(exc, "knockback_refused")`);
- a value of a `*_CODES` mapping, or the default of a lookup in one (api/errors.py's codes of
  the statuses Starlette raises).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "domain", "systems", "projections")


def _sources() -> list[tuple[Path, ast.Module]]:
    paths = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]
    return [(path, ast.parse(path.read_text(), str(path))) for path in paths]


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _code_places(trees: list[ast.Module]) -> dict[str, int]:
    """Function name -> the position of its `code` parameter, for the functions that have one."""
    places = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                if "code" in names:
                    places[node.name] = names.index("code") - (names[:1] in (["self"], ["cls"]))
    return places


def _codes_in(tree: ast.Module, places: dict[str, int]) -> Iterator[tuple[str, bool]]:
    """(code, is_prefix) for each place `tree` names a code."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield from _call_codes(node, places)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.Assign) and [_name(t) for t in item.targets] == ["code"]:
                    yield from _value(item.value)
        elif isinstance(node, ast.arguments):
            yield from _defaults(node)
        elif isinstance(node, ast.Assign) and _is_codes_mapping(node):
            for value in node.value.values:  # type: ignore[attr-defined]
                yield from _value(value)


def _call_codes(call: ast.Call, places: dict[str, int]) -> Iterator[tuple[str, bool]]:
    for keyword in call.keywords:
        if keyword.arg == "code":
            yield from _value(keyword.value)
    if _is_codes_get(call.func) and len(call.args) == 2:
        yield from _value(call.args[1])  # the default of a lookup in a *_CODES mapping
    place = places.get(_name(call.func) or "")
    if place is not None and len(call.args) > place:
        yield from _value(call.args[place])


def _is_codes_mapping(node: ast.Assign) -> bool:
    named = any((_name(t) or "").endswith("_CODES") for t in node.targets)
    return named and isinstance(node.value, ast.Dict)


def _is_codes_get(func: ast.AST) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "get"
        and (_name(func.value) or "").endswith("_CODES")
    )


def _defaults(arguments: ast.arguments) -> Iterator[tuple[str, bool]]:
    positional = arguments.posonlyargs + arguments.args
    pairs = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults))
    pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d]
    for argument, default in pairs:
        if argument.arg == "code":
            yield from _value(default)


def _value(node: ast.AST) -> Iterator[tuple[str, bool]]:
    if (text := _text(node)) is not None:
        yield text, False
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and _text(node.left):
        yield _text(node.left) or "", True


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def raised_codes() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The codes and the code prefixes the source names, each with the files that name it."""
    codes, prefixes = _scan()
    return {c: list(w) for c, w in codes.items()}, {p: list(w) for p, w in prefixes.items()}


# Parsing and walking the whole source takes about 3 s, and each test of test_error_codes.py asks:
# one scan a process (the source does not change under a test run); callers get their own copies.
@functools.cache
def _scan() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    codes: dict[str, list[str]] = {}
    prefixes: dict[str, list[str]] = {}
    sources = _sources()
    places = _code_places([tree for _, tree in sources])
    for path, tree in sources:
        where = str(path.relative_to(ROOT))
        for code, is_prefix in _codes_in(tree, places):
            found = prefixes if is_prefix else codes
            found.setdefault(code, []).append(where)
    return codes, prefixes
