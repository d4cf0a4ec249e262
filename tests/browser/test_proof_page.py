"""The public proof page in a real Chromium: its script recomputes the faces as the Python dice
do, it verifies a roll once the scene closes, and it shows a mismatch on a tampered record."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, Route, expect

from api.main import create_app
from api.settings import Settings
from domain.dice import FairSource
from tests import tamper
from tests.browser.table import Campaign
from tests.client import TestClient
from tests.server import Server, loopback_client

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


def play_a_public_roll(client: httpx.Client) -> tuple[Campaign, dict[str, Any]]:
    """A campaign with public proof pages, and a player's roll in its open scene."""
    campaign = Campaign.start(client)
    campaign.put(f"/v1/campaigns/{campaign.campaign_id}/proof-pages", {"public": True})
    return campaign, campaign.roll_for_nova()


def close_scene(campaign: Campaign) -> None:
    campaign.post(f"/v1/scenes/{campaign.scene_id}/close")


def test_the_proof_page_verifies_after_the_scene_closes(server: Server, new_page: NewPage) -> None:
    # The campaign makes its requests through this client until the scene is closed.
    with loopback_client(base_url=server.url, timeout=30) as http:
        campaign, roll = play_a_public_roll(http)
        page = new_page()  # no token anywhere: the page is public
        page.goto(f"{server.url}/proof/{roll['id']}")
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", "sealed")
        expect(verdict).to_contain_text("still sealed")
        close_scene(campaign)
        page.reload()
        expect(verdict).to_have_attribute("data-state", "verified")
        count = len(roll["faces"])
        expect(verdict).to_contain_text(f"all {count} faces recompute")
        expect(page.locator("#faces .recomputed.same")).to_have_count(count)
        shown = page.locator("#faces .recomputed").all_inner_texts()
        assert shown == [str(f["face"]) for f in roll["faces"]]


def test_the_proof_page_shows_a_mismatch_on_a_tampered_record(
    tmp_path: Path, new_page: NewPage
) -> None:
    # A store of its own: the roll is played in this process (the shared server's cache would
    # hold the honest roll) and edited while no service runs, as an attacker with the database
    # would; then a fresh service on it answers the browser's every request (no server process
    # to start: Playwright hands each request to it).
    settings = Settings(data_dir=tmp_path)
    with TestClient(create_app(settings)) as first:
        campaign, roll = play_a_public_roll(first)
        close_scene(campaign)
    honest = roll["faces"][0]
    forged = honest["face"] % honest["sides"] + 1

    def change(record: dict[str, Any]) -> None:
        record["faces"][0]["face"] = forged

    tamper.edit_record(settings, roll["id"], change)
    with TestClient(create_app(settings)) as second:
        page = new_page()
        page.route(f"{LOOPBACK}/**", lambda route: answer_from(second, route))
        page.goto(f"{LOOPBACK}/proof/{roll['id']}")
        verdict = page.locator("#verdict")
        expect(verdict).to_have_attribute("data-state", "mismatch")
        expect(verdict).to_contain_text(
            f"die #0 is recorded as {forged}; the seed gives {honest['face']}"
        )
        expect(page.locator("#faces .recomputed.differs")).to_have_count(1)


# A loopback origin is a secure context (WebCrypto on); nothing listens there, the route answers.
LOOPBACK = "http://127.0.0.1:9"


def answer_from(service: TestClient, route: Route) -> None:
    """The browser's request answered by the in-process service, headers (its CSP) and all."""
    asked = route.request
    answer = service.request(asked.method, asked.url.removeprefix(LOOPBACK))
    # the body is handed over decoded, so its encoding and length are the browser's to work out
    headers = {
        k: v for k, v in answer.headers.items() if k not in ("content-encoding", "content-length")
    }
    route.fulfill(status=answer.status_code, headers=headers, body=answer.content)
