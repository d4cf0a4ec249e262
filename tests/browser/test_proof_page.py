"""The public proof page in a real Chromium: its script recomputes the faces as the Python dice
do, it verifies a roll once the scene closes, and it shows a mismatch on a tampered record."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from api.settings import Settings
from domain.dice import FairSource
from tests import tamper
from tests.server import Server, running_server

NewPage = Callable[..., Page]  # the new_page fixture (tests/browser/conftest.py)

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCRIPT = "/proof/assets/proof.js"


def doc_vectors() -> Any:
    """docs/fair_dice_vectors.py, which prints the vectors of docs/fair-dice.md."""
    spec = importlib.util.spec_from_file_location(
        "fair_dice_vectors", DOCS / "fair_dice_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def with_script(page: Page, server: Server) -> Page:
    page.goto(server.url + "/health")  # an http://127.0.0.1 page: a secure context, WebCrypto on
    page.add_script_tag(url=server.url + SCRIPT)
    return page


def recomputed(page: Page, seed: bytes, client: str, nonce: int, sides: list[int]) -> list[int]:
    call = "([seed, client, nonce, sides]) => ChronicleProof.recompute(seed, client, nonce, sides)"
    return page.evaluate(call, [seed.hex(), client, str(nonce), sides])  # type: ignore[no-any-return]


def test_the_script_draws_the_faces_of_the_documented_vectors(
    server: Server, new_page: NewPage
) -> None:
    page = with_script(new_page(), server)
    vectors = doc_vectors()
    cases = [*vectors.FACE_CASES, (vectors.SEED_A, vectors.REJECTION_CLIENT, 536070, 1000, 8)]
    for seed, client, nonce, sides, count in cases:
        source = FairSource(seed, client, nonce)
        expected = [source.die(sides) for _ in range(count)]
        assert recomputed(page, seed, client, nonce, [sides] * count) == expected, (client, nonce)
    commitment = page.evaluate("s => ChronicleProof.commitmentOf(s)", vectors.SEED_A.hex())
    assert commitment == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def test_the_script_recomputes_every_check_vector_of_every_ruleset(
    server: Server, new_page: NewPage
) -> None:
    page = with_script(new_page(), server)
    book = json.loads((DOCS / "check_vectors.json").read_text())
    seed = bytes.fromhex(book["seed"])
    for vector in book["vectors"]:
        faces = sorted(vector["faces"], key=lambda f: f["index"])
        sides = [f["sides"] for f in faces]
        got = recomputed(page, seed, vector["client_seed"], vector["nonce"], sides)
        assert got == [f["face"] for f in faces], vector["name"]


def test_the_script_refuses_a_seed_that_is_not_the_commitment(
    server: Server, new_page: NewPage
) -> None:
    page = with_script(new_page(), server)
    data = {
        "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        "client_seed": "",
        "nonce": "0",
        "epochs": [
            {
                "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
                "seed": "ff" * 32,  # not seed A
            }
        ],
        "faces": [],
    }
    verdict = page.evaluate("d => ChronicleProof.verify(d)", data)
    assert verdict["state"] == "mismatch"
    assert verdict["reasons"] == ["SHA-256 of the revealed seed is not the commitment"]


# ---- a campaign played over HTTP, its proof page opened in the browser ------------------------


@dataclass
class Played:
    roll: dict[str, Any]
    scene_id: str
    gm: str


def call(client: httpx.Client, method: str, path: str, token: str | None, body: Any = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.request(method, path, json=body, headers=headers)
    assert answer.status_code < 300, f"{method} {path}: {answer.status_code} {answer.text}"
    return answer.json()


def play_a_public_roll(url: str) -> Played:
    """A campaign with public proof pages and a player's roll in an open scene."""
    with httpx.Client(base_url=url, timeout=30) as c:
        sheet = call(c, "GET", "/v1/rulesets/wcbh", None)["example_sheet"]
        created = call(c, "POST", "/v1/campaigns", None, {"name": "Night City", "ruleset": "wcbh"})
        campaign, gm = created["id"], created["gm_token"]
        call(c, "PUT", f"/v1/campaigns/{campaign}/proof-pages", gm, {"public": True})
        player = call(
            c, "POST", f"/v1/campaigns/{campaign}/members", gm, {"name": "Bo", "role": "player"}
        )
        hero = {"name": "Nova", "side": "hero", "sheet": sheet}
        characters = f"/v1/campaigns/{campaign}/characters"
        hero_id = call(c, "POST", characters, player["token"], hero)["id"]
        story = call(c, "POST", f"/v1/campaigns/{campaign}/stories", gm, {"title": "The Heist"})
        issue = call(c, "POST", f"/v1/stories/{story['id']}/issues", gm, {"title": "Issue #1"})
        scene = call(c, "POST", f"/v1/issues/{issue['id']}/scenes", gm, {"title": "The vault"})
        body = {"check": "trait", "character_id": hero_id, "request": {"trait": "Agility"}}
        roll = call(c, "POST", f"/v1/scenes/{scene['id']}/rolls", player["token"], body)
    return Played(roll, scene["id"], gm)


def close_scene(url: str, played: Played) -> None:
    with httpx.Client(base_url=url, timeout=30) as c:
        call(c, "POST", f"/v1/scenes/{played.scene_id}/close", played.gm)


def test_the_proof_page_verifies_after_the_scene_closes(server: Server, new_page: NewPage) -> None:
    played = play_a_public_roll(server.url)
    page = new_page()  # no token anywhere: the page is public
    page.goto(f"{server.url}/proof/{played.roll['id']}")
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-state", "sealed")
    expect(verdict).to_contain_text("still sealed")
    close_scene(server.url, played)
    page.reload()
    expect(verdict).to_have_attribute("data-state", "verified")
    count = len(played.roll["faces"])
    expect(verdict).to_contain_text(f"all {count} faces recompute")
    expect(page.locator("#faces .recomputed.same")).to_have_count(count)
    shown = page.locator("#faces .recomputed").all_inner_texts()
    assert shown == [str(f["face"]) for f in played.roll["faces"]]


def test_the_proof_page_shows_a_mismatch_on_a_tampered_record(
    tmp_path: Path, new_page: NewPage
) -> None:
    # A server of its own: its cache holds the honest roll, so the store is edited while it is
    # stopped, as an attacker with the database would, and a fresh server serves the edited record.
    settings = Settings(data_dir=tmp_path)
    with running_server(settings) as first:
        played = play_a_public_roll(first.url)
        close_scene(first.url, played)
    honest = played.roll["faces"][0]
    forged = honest["face"] % honest["sides"] + 1

    def change(record: dict[str, Any]) -> None:
        record["faces"][0]["face"] = forged

    tamper.edit_record(settings, played.roll["id"], change)
    with running_server(settings) as second:
        page = new_page()
        page.goto(f"{second.url}/proof/{played.roll['id']}")
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", "mismatch")
        expect(verdict).to_contain_text(
            f"die #0 is recorded as {forged}; the seed gives {honest['face']}"
        )
        expect(page.locator("#faces .recomputed.differs")).to_have_count(1)
