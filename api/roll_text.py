"""A roll as the one line a forum plugin or a chat bot posts (GET /v1/rolls/{id}/text): one
structure, `RollText`, and one renderer per format that differ only in their markup."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Format = Literal["plain", "markdown", "bbcode"]


@dataclass(frozen=True)
class Die:
    """One face as shown: struck when it does not count (dropped, or rerolled into `then`)."""

    face: int
    struck: bool = False
    exploded: bool = False  # it exploded: the extra dice it drew follow it
    then: Die | None = None  # rerolled: the face that replaced it


@dataclass(frozen=True)
class RollText:
    who: str
    what: str
    dice: tuple[tuple[str | None, tuple[Die, ...]], ...]  # (label, faces), in the order rolled
    result: str
    odds: tuple[tuple[str, float], ...]
    proof: str  # the URL of the roll's verification


def roll_text(
    record: Mapping[str, Any], odds: Mapping[str, Any], who: str, what: str, proof: str
) -> RollText:
    """The structure of a roll's line from its record (`faces`, `result`) and its odds."""
    chances = (("success", "success"), ("at_least", "this good or better"))
    return RollText(
        who=who,
        what=what,
        dice=_grouped(record["faces"]),
        result=_result(record["result"]),
        odds=tuple((name, odds[key]) for key, name in chances if odds.get(key) is not None),
        proof=proof,
    )


def _grouped(faces: Sequence[Mapping[str, Any]]) -> tuple[tuple[str | None, tuple[Die, ...]], ...]:
    # A reroll is shown right after the face it replaced, an explosion's dice after the face that
    # exploded, so that every mark sits next to what it explains.
    children: dict[int, list[Mapping[str, Any]]] = {}
    for f in faces:
        if _parent(f) is not None:
            children.setdefault(_parent(f), []).append(f)
    groups: list[tuple[str | None, list[Die]]] = []
    for f in faces:
        if _parent(f) is not None:
            continue
        if not groups or groups[-1][0] != f.get("label"):
            groups.append((f.get("label"), []))
        groups[-1][1].extend(_dice(f, children))
    return tuple((label, tuple(dice)) for label, dice in groups)


def _parent(face: Mapping[str, Any]) -> Any:
    return face["reroll_of"] if face["reroll_of"] is not None else face["exploded_from"]


def _dice(face: Mapping[str, Any], children: Mapping[int, list[Mapping[str, Any]]]) -> list[Die]:
    """The face with the dice it led to: its reroll inside it, its explosions after it."""
    below = children.get(face["index"], [])
    rerolls = [_dice(c, children) for c in below if c["reroll_of"] is not None]
    then = rerolls[0][0] if rerolls else None
    extra = [d for c in below if c["reroll_of"] is None for d in _dice(c, children)]
    die = Die(face["face"], not face["kept"], any(c["reroll_of"] is None for c in below), then)
    return [die, *extra, *(d for r in rerolls for d in r[1:])]


def _result(result: Mapping[str, Any]) -> str:
    """The outcome a ruleset names, with its number (total, net or successes) where it has one."""
    outcome = result.get("outcome")
    if outcome is None and isinstance(result.get("success"), bool):
        outcome = "success" if result["success"] else "failure"
    number = next((f"{k} {result[k]}" for k in ("total", "net", "successes") if k in result), None)
    words = str(outcome).replace("_", " ") if outcome is not None else None
    if words and number:
        return f"{words} ({number})"
    return words or number or "rolled"


def _percent(p: float) -> str:
    # a whole percent, except that an unlikely (or near certain) chance never reads as 0% or 100%
    if 0 < p < 0.01:
        return "<1%"
    if 0.99 < p < 1:
        return ">99%"
    return f"{p:.0%}"


@dataclass(frozen=True)
class Markup:
    escape: Callable[[str], str]
    bold: Callable[[str], str]
    struck: Callable[[str], str]
    link: Callable[[str, str], str]


def _render(text: RollText, m: Markup) -> str:
    def die(d: Die) -> str:
        shown = str(d.face) + ("!" if d.exploded else "")
        shown = m.struck(shown) if d.struck else shown
        return shown + ("→" + die(d.then) if d.then is not None else "")

    dice = " · ".join(
        (f"{m.escape(label)} " if label else "") + " ".join(die(d) for d in faces)
        for label, faces in text.dice
    )
    parts = [
        f"{m.bold(m.escape(text.who))} rolled {m.escape(text.what)}",
        dice or "no dice",
        m.bold(m.escape(text.result)),
    ]
    if text.odds:
        parts.append("odds: " + ", ".join(f"{name} {_percent(p)}" for name, p in text.odds))
    parts.append(m.link("proof", text.proof))
    return " — ".join(parts)


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_~[]()#>|<"})

PLAIN = Markup(
    escape=lambda s: s,
    bold=lambda s: s,
    struck=lambda s: f"({s})",  # plain text cannot strike through: parentheses mean not counted
    link=lambda label, url: f"{label}: {url}",
)
MARKDOWN = Markup(
    escape=lambda s: s.translate(_MARKDOWN_SPECIAL),
    bold=lambda s: f"**{s}**",
    struck=lambda s: f"~~{s}~~",
    link=lambda label, url: f"[{label}](<{url}>)",
)
BBCODE = Markup(
    # BBCode has no escape: a bracket in a name could open a tag, so it becomes a parenthesis
    escape=lambda s: s.replace("[", "(").replace("]", ")"),
    bold=lambda s: f"[b]{s}[/b]",
    struck=lambda s: f"[s]{s}[/s]",
    link=lambda label, url: f"[url={url}]{label}[/url]",
)


def plain(text: RollText) -> str:
    return _render(text, PLAIN)


def markdown(text: RollText) -> str:
    return _render(text, MARKDOWN)


def bbcode(text: RollText) -> str:
    return _render(text, BBCODE)


RENDERERS: dict[str, Callable[[RollText], str]] = {
    "plain": plain,
    "markdown": markdown,
    "bbcode": bbcode,
}
