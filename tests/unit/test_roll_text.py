"""The roll's chat line (api/roll_text.py): one structure, three markups, every mark of a face."""

from __future__ import annotations

from typing import Any

import pytest

from api.roll_text import RENDERERS, bbcode, markdown, plain, roll_text

PROOF = "http://chronicle.test/v1/rolls/r1/verification"


def face(index: int, value: int, *, kept: bool = True, **links: Any) -> dict[str, Any]:
    return {
        "index": index,
        "sides": 6,
        "face": value,
        "kept": kept,
        "exploded_from": links.get("exploded_from"),
        "reroll_of": links.get("reroll_of"),
        "label": links.get("label", "trait"),
    }


def line(faces: list[dict[str, Any]], render: Any = plain, **result: Any) -> str:
    record = {"faces": faces, "result": result or {"outcome": "hero_narrates", "net": 3}}
    odds = {"success": 0.96875, "at_least": 0.6736}
    return str(render(roll_text(record, odds, "Nova", "Agility check", PROOF)))


def test_a_plain_line_says_who_rolled_what_the_faces_result_odds_and_proof() -> None:
    assert line([face(0, 2), face(1, 5)]) == (
        "Nova rolled Agility check — trait 2 5 — hero narrates (net 3)"
        " — odds: success 97%, this good or better 67% — proof: " + PROOF
    )


def test_markdown_bolds_the_roller_and_result_and_links_the_proof() -> None:
    assert line([face(0, 2)], markdown) == (
        "**Nova** rolled Agility check — trait 2 — **hero narrates \\(net 3\\)**"
        f" — odds: success 97%, this good or better 67% — [proof](<{PROOF}>)"
    )


def test_bbcode_bolds_the_roller_and_result_and_links_the_proof() -> None:
    assert line([face(0, 2)], bbcode) == (
        "[b]Nova[/b] rolled Agility check — trait 2 — [b]hero narrates (net 3)[/b]"
        f" — odds: success 97%, this good or better 67% — [url={PROOF}]proof[/url]"
    )


# kept faces are shown as they are; each format strikes the ones that do not count its own way
DROPPED = {plain: "trait 6 (1)", markdown: "trait 6 ~~1~~", bbcode: "trait 6 [s]1[/s]"}
# the face that exploded is marked !, the die it drew follows it (not where it was drawn)
EXPLODED = {plain: "trait 6! 3 4", markdown: "trait 6! 3 4", bbcode: "trait 6! 3 4"}
# a rerolled face is struck, the face that replaced it follows its arrow
REROLLED = {plain: "trait (1)→5 3", markdown: "trait ~~1~~→5 3", bbcode: "trait [s]1[/s]→5 3"}


@pytest.mark.parametrize("render", [plain, markdown, bbcode])
def test_a_kept_face_is_shown_unmarked(render: Any) -> None:
    assert " — trait 4 — " in line([face(0, 4)], render)


@pytest.mark.parametrize("render", [plain, markdown, bbcode])
def test_a_dropped_face_is_struck(render: Any) -> None:
    assert f" — {DROPPED[render]} — " in line([face(0, 6), face(1, 1, kept=False)], render)


@pytest.mark.parametrize("render", [plain, markdown, bbcode])
def test_an_exploded_face_is_marked_and_followed_by_the_die_it_drew(render: Any) -> None:
    faces = [face(0, 6), face(1, 4), face(2, 3, exploded_from=0)]
    assert f" — {EXPLODED[render]} — " in line(faces, render)


@pytest.mark.parametrize("render", [plain, markdown, bbcode])
def test_a_rerolled_face_is_struck_and_followed_by_its_reroll(render: Any) -> None:
    faces = [face(0, 1, kept=False), face(1, 3), face(2, 5, reroll_of=0)]
    assert f" — {REROLLED[render]} — " in line(faces, render)


def test_faces_are_grouped_by_their_label() -> None:
    faces = [face(0, 2), face(1, 4, label="resolve"), face(2, 6, label="resolve")]
    assert " — trait 2 · resolve 4 6 — " in line(faces)


def test_a_result_without_an_outcome_reads_from_success_and_its_number() -> None:
    assert " — failure (total 7) — " in line([face(0, 2)], success=False, total=7)


def test_names_cannot_inject_markup() -> None:
    record = {"faces": [face(0, 2)], "result": {"outcome": "hit"}}
    text = roll_text(record, {}, "*[Dr. Null](x)*", "[b]attack[/b]", PROOF)
    assert markdown(text).startswith("**\\*\\[Dr. Null\\]\\(x\\)\\*** rolled \\[b\\]attack\\[/b\\]")
    assert bbcode(text).startswith("[b]*(Dr. Null)(x)*[/b] rolled (b)attack(/b)")


def test_unknown_odds_are_left_out_and_tiny_chances_never_read_as_zero() -> None:
    record = {"faces": [face(0, 2)], "result": {"outcome": "hit"}}
    assert " — odds" not in plain(roll_text(record, {"success": None}, "N", "x", PROOF))
    tiny = plain(roll_text(record, {"success": 0.001, "at_least": 0.999}, "N", "x", PROOF))
    assert "odds: success <1%, this good or better >99%" in tiny


def test_every_format_of_the_route_has_a_renderer() -> None:
    assert set(RENDERERS) == {"plain", "markdown", "bbcode"}
