"""Every route that may answer 202 with a roll request says so in OpenAPI, and no other route does.

A player's situational modifiers meet the campaign's `player_modifiers` in one place,
`RollCommands._modifiers`; under `gm_approval` it raises `ApprovalNeeded`, the command runner records
a roll request instead, and `Commands.run` answers 202 with it, whatever the verb. So a verb may
answer 202 exactly when it reaches `_modifiers` with the roller's declared modifiers. This test
follows the verbs' own calls (`self.…(…)`, read from their source) to find them; a call to a helper
that takes `declared` counts only when it passes some (the helper's default, None, asks nothing),
and a verb that starts by requiring the GM never asks (the GM's modifiers never wait).
Then each route that runs such a verb must declare api.deps.ASKS_GM's 202.
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.routing import APIRoute

from api.deps import ASKS_GM
from api.main import create_app
from domain.components import Turn
from tests.app.table import SeededChronicle

ASKS = "_modifiers"  # the one method that raises ApprovalNeeded
# Who holds commands: the application, each game system's component and its parts. A method's
# calls are followed on the object that makes them (`self.name`), or on another holder it reaches
# (`self.app.name`, `self.system.name`, `self.play.name`).
APP = SeededChronicle()
HOLDERS = APP.command_holders()


def _method(holder: Any, name: str) -> Callable[..., Any] | None:
    found = getattr(type(holder), name, None)
    if not callable(found):
        return None
    return getattr(found, "__wrapped__", found)  # the verb itself, not @command's retry wrapper


def _verb(name: str) -> tuple[Any, Callable[..., Any]] | None:
    """The command `name` and its holder (command names are unique across the holders)."""
    for holder in HOLDERS:
        found = getattr(type(holder), name, None)
        if hasattr(found, "__wrapped__"):
            return holder, found.__wrapped__  # type: ignore[union-attr]
    return None


@functools.cache  # each method's source is parsed once, however many verbs reach it
def _tree(fn: Callable[..., Any]) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    assert isinstance(tree.body[0], ast.FunctionDef)
    return tree.body[0]


Called = tuple[Any, Callable[..., Any]]  # (the holder, or None for a module's function; it)


def _callee(holder: Any, fn: Callable[..., Any], node: ast.AST) -> Called | None:
    """What a node of `fn` calls, if it is a holder's method (`self.name(...)`,
    `self.<holder>.name(...)`, `<anything>.app.name(...)`) or a function of `fn`'s module."""
    callee = node.func if isinstance(node, ast.Call) else None
    if isinstance(callee, ast.Name):
        found = fn.__globals__.get(callee.id)
        if inspect.isfunction(found) and found.__module__ == fn.__module__:
            return None, found
        return None
    if not isinstance(callee, ast.Attribute):
        return None
    if callee.attr == "roll" and isinstance(callee.value, ast.Name) and callee.value.id == "turn":
        return None, Turn.roll  # a command's Turn rolls through the application
    target: Any = None
    on = callee.value
    if isinstance(on, ast.Attribute) and on.attr == "app":
        target = APP
    else:
        target = _reached(holder, on)
        target = target if any(target is h for h in HOLDERS) else None
    method = None if target is None else _method(target, callee.attr)
    return None if method is None else (target, method)


def _reached(holder: Any, node: ast.expr) -> Any:
    """What `self`, `self.system` or `self.system.health` is, from the holder `self` is."""
    if isinstance(node, ast.Name):
        return holder if node.id == "self" else None
    if isinstance(node, ast.Attribute):
        on = _reached(holder, node.value)
        return None if on is None else getattr(on, node.attr, None)
    return None


def _calls(holder: Any, fn: Callable[..., Any]) -> Iterator[tuple[Called, ast.Call]]:
    for node in ast.walk(_tree(fn)):
        found = _callee(holder, fn, node)
        if found is not None:
            yield found, node  # type: ignore[misc]


def _passes_declared(call: ast.Call, called: Called) -> bool:
    """Whether a call hands its callee declared modifiers (True for one without that parameter)."""
    holder, fn = called
    params = list(inspect.signature(fn).parameters)  # a method's params[0] is self
    if params[1:2] == ["ask"]:  # `_roll_check(CheckRoll(..., declared=...))`
        built = call.args[0] if call.args else None
        if isinstance(built, ast.Call) and getattr(built.func, "id", None) == "CheckRoll":
            return any(
                k.arg == "declared"
                and not (isinstance(k.value, ast.Constant) and k.value.value is None)
                for k in built.keywords
            )
        return True  # a CheckRoll built elsewhere: may hold declared modifiers
    if "declared" not in params:
        return True
    for keyword in call.keywords:
        if keyword.arg == "declared":
            return not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        if keyword.arg is None:
            return True  # **kwargs: may hold it
    return len(call.args) >= params.index("declared") + (holder is None)


def _gm_only(holder: Any, fn: Callable[..., Any]) -> bool:
    """Whether `fn` starts by requiring the GM (`actor = self._gm(ctx)`, `self.app._gm`, or a
    turn started for the GM, `self.turn(ctx, ..., gm=True)`, in its own body, not in a branch):
    the GM's modifiers never wait, so such a verb never asks."""
    for st in _tree(fn).body:
        if not isinstance(st, ast.Assign):
            continue
        found = _callee(holder, fn, st.value)
        if found is not None and found[1].__name__ == "_gm":
            return True
        if isinstance(st.value, ast.Call) and any(
            k.arg == "gm" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in st.value.keywords
        ):
            return True
    return False


def may_ask_gm(called: Called, visiting: frozenset[Any] = frozenset()) -> bool:
    """Whether a method (or function) may reach `_modifiers` with declared modifiers."""
    holder, fn = called
    if fn.__name__ == ASKS:
        return True
    if fn in visiting or _gm_only(holder, fn):
        return False
    inner = visiting | {fn}
    return any(
        may_ask_gm(callee, inner) and _passes_declared(call, callee)
        for callee, call in _calls(holder, fn)
    )


def verb_may_ask_gm(name: str) -> bool:
    found = _verb(name)
    return found is not None and may_ask_gm(found)


def _routes() -> list[APIRoute]:
    return [route for route in create_app().routes if isinstance(route, APIRoute)]


def _label(route: APIRoute) -> str:
    return f"{'/'.join(sorted(route.methods or ()))} {route.path} ({route.operation_id})"


def _verbs_run(route: APIRoute) -> Iterator[str]:
    """The commands a route runs: the verb a command route declares (api/command_routes.py), or
    the attributes a hand-written route names (`app.roll`, `fight.classd_attack`) that are some
    holder's commands, not the fields of its body (`body.dodge`)."""
    declared = getattr(route.endpoint, "verb", None)
    if declared is not None:
        yield declared.__name__
        return
    tree = ast.parse(textwrap.dedent(inspect.getsource(route.endpoint)))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        if isinstance(node.value, ast.Name) and node.value.id == "body":
            continue
        if _verb(node.attr) is not None:
            yield node.attr


def _asks_gm(route: APIRoute) -> bool:
    return any(verb_may_ask_gm(name) for name in _verbs_run(route))


def _declares(route: APIRoute) -> bool:
    return route.responses.get(202) == ASKS_GM[202]


def test_the_verbs_found_include_the_ones_known_to_ask_the_gm() -> None:
    # Guards the search itself: a rewrite that finds nothing would pass the tests below vacuously.
    asking = ("roll", "attack", "nwod_roll", "assisted_roll", "chase_check")  # the last on a part
    assert all(verb_may_ask_gm(verb) for verb in asking)
    # verbs that roll no player's dice, and GM-only verbs that do
    quiet = ("decline_roll_request", "approve_roll_request", "nwod_contest", "nimble_deal_damage")
    assert all(_verb(verb) is not None and not verb_may_ask_gm(verb) for verb in quiet)
    assert verb_may_ask_gm("classd_attack") and not verb_may_ask_gm("classd_villain_attack")
    # ...and the routes that run them are found through the commands they name
    by_id = {route.operation_id: route for route in _routes()}
    assert all(_asks_gm(by_id[op]) for op in ("roll", "attack", "nwod_roll", "assisted_roll"))


# Routes that answer the 202 though their OpenAPI does not say so yet (none left: the Nimble
# encounter's grapple declares it since issue #13's numbers audit).
UNDECLARED: set[str] = set()


def test_every_route_whose_verb_may_ask_the_gm_declares_the_202() -> None:
    routes = [route for route in _routes() if _asks_gm(route) and not _declares(route)]
    assert UNDECLARED <= {route.operation_id for route in routes}  # else drop it from UNDECLARED
    missing = [_label(route) for route in routes if route.operation_id not in UNDECLARED]
    assert not missing, (
        "These routes run a verb that may record a roll request (202), and their OpenAPI does not "
        "say so; add `responses=ASKS_GM` (api/deps.py) to each:\n  " + "\n  ".join(missing)
    )


def test_no_route_declares_the_roll_request_202_that_cannot_answer_it() -> None:
    extra = [_label(route) for route in _routes() if _declares(route) and not _asks_gm(route)]
    assert not extra, (
        "These routes declare the roll request 202, and no verb they run reaches "
        f"Chronicle.{ASKS} with declared modifiers:\n  " + "\n  ".join(extra)
    )
