"""The web table in a real Chromium: a GM and a player, each in a browser context of their own, at one
scene of a campaign set up through the public API."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Request, expect

from tests.server import Server

PHONE = {"width": 375, "height": 740}


@dataclass
class Campaign:
    """A campaign (WCBH unless named) with a player, the player's hero Nova, a story, a game Issue, an open scene and
    a mission, made through the API as any front end would."""

    api: httpx.Client
    gm: str
    player: str
    campaign_id: str
    character_id: str
    scene_id: str
    mission_id: str

    @classmethod
    def start(cls, url: str, ruleset: str = "wcbh") -> Campaign:
        api = httpx.Client(base_url=url, timeout=10)
        sheet = api.get(f"/v1/rulesets/{ruleset}").raise_for_status().json()["example_sheet"]
        created = _ok(api.post("/v1/campaigns", json={"name": "Night City", "ruleset": ruleset}))
        gm, campaign_id = created["gm_token"], created["id"]

        def post(path: str, body: dict[str, Any], token: str = gm) -> dict[str, Any]:
            return _ok(api.post(path, json=body, headers={"Authorization": f"Bearer {token}"}))

        player = post(f"/v1/campaigns/{campaign_id}/members", {"name": "Bo", "role": "player"})
        hero = {"name": "Nova", "side": "hero", "sheet": sheet}
        character = post(f"/v1/campaigns/{campaign_id}/characters", hero, player["token"])
        story = post(f"/v1/campaigns/{campaign_id}/stories", {"title": "The Heist"})
        issue = post(f"/v1/stories/{story['id']}/issues", {"title": "Issue #1"})
        scene = post(f"/v1/issues/{issue['id']}/scenes", {"title": "The vault"})
        mission = post(f"/v1/campaigns/{campaign_id}/missions", {"title": "Break in"})
        return cls(
            api, gm, player["token"], campaign_id, character["id"], scene["id"], mission["id"]
        )

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return _ok(self.api.post(path, json=body, headers={"Authorization": f"Bearer {self.gm}"}))

    def roll_for_nova(self) -> dict[str, Any]:
        body = {
            "check": "trait",
            "character_id": self.character_id,
            "request": {"trait": "Agility"},
        }
        headers = {"Authorization": f"Bearer {self.player}"}
        return _ok(self.api.post(f"/v1/scenes/{self.scene_id}/rolls", json=body, headers=headers))


def _ok(response: httpx.Response) -> dict[str, Any]:
    assert response.is_success, response.text
    return response.json()  # type: ignore[no-any-return]


@pytest.fixture
def campaign(server: Server) -> Campaign:
    return Campaign.start(server.url)


def joined(page: Page, server: Server, token: str) -> Page:
    """The table opened from a link carrying the token in its fragment, live on the stream, and
    settled: showing all it read (a click on a part being redrawn may be lost, as a person's is)."""
    page.goto(f"{server.url}/#token={token}")
    # A server's first /openapi.json takes it seconds to build (the table reads it on joining).
    expect(page.locator("#live")).to_have_text("● live", timeout=20_000)
    return settled(page)


def settled(page: Page) -> Page:
    expect(page.locator("html")).to_have_attribute("data-settled", "true")
    return page


def at_scene(page: Page) -> Page:
    page.get_by_role("button", name="The vault (open, page 1)").click()
    expect(page.locator("#view-title")).to_have_text("Scene: The vault")
    return page


def both_at_scene(server: Server, campaign: Campaign, new_page) -> tuple[Page, Page]:  # type: ignore[no-untyped-def]
    """The GM and the player, each in a browser context of their own, at the campaign's scene."""
    return tuple(
        at_scene(joined(new_page(), server, token)) for token in (campaign.gm, campaign.player)
    )  # type: ignore[return-value]


def test_a_players_roll_appears_on_the_gms_page_live(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm, player = both_at_scene(server, campaign, new_page)
    expect(gm.locator("#roll-log")).to_contain_text("No rolls yet.")
    gm.evaluate("window.notReloaded = true")

    player.get_by_label("Trait", exact=True).fill("Agility")
    player.get_by_role("button", name="Roll", exact=True).click()

    card = gm.locator("#roll-log article.roll")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Nova rolled trait")
    expect(card).to_contain_text("trait Agility")
    expect(card.locator(".die")).to_have_count(5)  # Agility 5 on the example sheet
    expect(card.locator(".odds")).to_contain_text("success")
    expect(card.locator(".badge")).to_contain_text("sealed until the scene closes")
    assert gm.evaluate("window.notReloaded") is True


def test_the_gms_page_turn_reaches_the_player_live(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm, player = both_at_scene(server, campaign, new_page)
    expect(player.locator("#scene-header [data-field=page]")).to_have_text("1")

    gm.get_by_role("button", name="Advance Page").click()

    expect(player.locator("#scene-header [data-field=page]")).to_have_text("2")
    expect(player.get_by_role("button", name="The vault (open, page 2)")).to_be_visible()
    # The GM's lifecycle buttons are the GM's only: the player's page has none.
    expect(player.get_by_role("button", name="Advance Page")).to_have_count(0)


def test_the_scrubber_shows_the_scene_as_it_was_before_the_roll_and_the_page_turn(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    campaign.roll_for_nova()
    campaign.post(f"/v1/scenes/{campaign.scene_id}/pages")
    page = joined(new_page(), server, campaign.gm)
    page.get_by_role("button", name="The vault (open, page 2)").click()
    state = page.locator("#scrub-state")
    expect(page.locator("#scrub-step")).to_contain_text("Step 3 of 3")
    expect(state.locator("[data-field=page]")).to_have_text("2")
    expect(state.locator("[data-field=rolls_so_far]")).to_have_text("1")

    page.get_by_label("Step", exact=True).focus()
    page.keyboard.press("Home")  # a range input steps by the keyboard too

    expect(page.locator("#scrub-step")).to_contain_text("Step 1 of 3")
    expect(page.locator("#scrub-step")).to_contain_text("opened")
    expect(state.locator("[data-field=page]")).to_have_text("1")
    expect(state.locator("[data-field=rolls_so_far]")).to_have_text("0")
    page.get_by_role("button", name="Next step").click()
    expect(state.locator("[data-field=rolls_so_far]")).to_have_text("1")
    expect(state.locator("[data-field=page]")).to_have_text("1")


def test_a_phone_width_screen_needs_no_horizontal_scrolling(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    campaign.roll_for_nova()
    page = at_scene(joined(new_page(viewport=PHONE, is_mobile=True), server, campaign.gm))
    expect(page.locator("#roll-log article.roll")).to_have_count(1)
    expect(page.locator("#scrub-state [data-field=page]")).to_have_text("1")
    assert _horizontal_overflow(page) == 0
    page.get_by_role("button", name="Nova (hero)").click()
    expect(page.locator("#character-sheet table.resources")).to_be_visible()
    assert _horizontal_overflow(page) == 0


def _horizontal_overflow(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_a_member_joins_and_reaches_a_scene_by_keyboard_alone(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(_all_of(request)))
    page.goto(server.url + "/")
    expect(page.get_by_label("Member token")).to_be_focused()

    page.keyboard.type(campaign.player)
    page.keyboard.press("Enter")

    expect(page.locator("#who")).to_contain_text("Bo (player) · Night City")
    expect(page.locator("#view-title")).to_be_focused()
    scene = page.get_by_role("button", name="The vault (open, page 1)")
    for _ in range(10):  # Tab through the navigation to the scene, as a keyboard user does
        page.keyboard.press("Tab")
        if scene.evaluate("element => element === document.activeElement"):
            break
    expect(scene).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#view-title")).to_have_text("Scene: The vault")
    # The token went in the Authorization header only, never in an address.
    assert sent and not [url for url in sent if campaign.player in url]


def _all_of(request: Request) -> str:
    return request.url + " " + (request.headers.get("referer") or "")


def test_a_link_with_the_token_leaves_it_out_of_the_address_and_in_the_session(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    page = joined(new_page(), server, campaign.player)
    assert campaign.player not in page.url
    assert page.evaluate("sessionStorage.getItem('chronicle.token')") == campaign.player
    page.reload()  # the tab keeps its session
    expect(page.locator("#who")).to_contain_text("Bo (player)")


def test_an_unknown_token_is_refused_with_a_reason(server: Server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_label("Member token").fill("chr_not_a_token")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("not valid")
    expect(page.locator("#table")).to_be_hidden()


def test_closing_the_scene_lets_a_roll_card_verify_its_faces(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    campaign.roll_for_nova()
    gm = at_scene(joined(new_page(), server, campaign.gm))
    card = gm.locator("#roll-log article.roll")
    card.get_by_role("button", name="Verify").click()
    expect(card.locator(".badge.ok")).to_have_text(
        "chain intact, faces checkable once the seed is revealed"
    )

    gm.get_by_role("button", name="Close Scene").click()

    expect(gm.locator("#scene-header [data-field=status]")).to_have_text("closed")
    expect(card.locator(".badge.revealed")).to_contain_text("seed revealed")
    settled(gm).locator("#roll-log article.roll").get_by_role("button", name="Verify").click()
    expect(card.locator(".badge.ok")).to_have_text("chain intact, faces recomputed and matching")


def test_the_gm_raises_the_alarm_and_the_player_sees_its_zone_change(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm = joined(new_page(), server, campaign.gm)
    player = joined(new_page(), server, campaign.player)
    gm.get_by_role("button", name="Break in (Alarm 0 green, Rival progress 0)").click()
    player.get_by_role("button", name="Break in (Alarm 0 green, Rival progress 0)").click()
    alarm = player.locator("[data-counter=alarm]")
    expect(alarm).to_contain_text("Alarm: 0 of 10 green")

    gm.get_by_text("Change Alarm").click()
    form = gm.locator("form[data-operation=change_mission_counter]").first
    form.get_by_label("Change *").fill("5")
    form.get_by_label("Reason *").fill("a guard heard the drill")
    form.get_by_role("button", name="Change Counter").click()

    expect(alarm).to_contain_text("Alarm: 5 of 10 yellow")
    expect(alarm.locator("meter")).to_have_attribute("value", "5")


def test_a_character_sheet_shows_resources_and_when_they_refresh(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    page = joined(new_page(), server, campaign.player)
    page.get_by_role("button", name="Nova (hero)").click()
    resolve = page.locator("#character-sheet tr", has_text="resolve")
    expect(resolve).to_contain_text("4")
    expect(resolve).to_contain_text("each game Issue")
    expect(page.locator("#character-sheet tr", has_text="health")).to_contain_text("never")


def test_dates_and_numbers_follow_the_browsers_language(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    roll = campaign.roll_for_nova()
    page = at_scene(joined(new_page(locale="de-DE"), server, campaign.gm))
    card = page.locator("#roll-log article.roll")
    expected_time = page.evaluate(
        "at => new Intl.DateTimeFormat('de-DE', {dateStyle: 'medium', timeStyle: 'medium'})"
        ".format(new Date(at))",
        roll["recorded_at"],
    )
    expect(card.locator("time")).to_have_text(expected_time)
    odds = page.evaluate(
        "p => new Intl.NumberFormat('de-DE', {style: 'percent', maximumFractionDigits: 1})"
        ".format(p)",
        roll["odds"]["success"],
    )
    expect(card.locator(".odds")).to_contain_text(f"success {odds}")
    assert "," in odds  # 96,9 %: the German decimal comma, not the English point


def test_the_gm_opens_a_scene_from_generated_forms_and_the_player_sees_it_appear(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm = joined(new_page(), server, campaign.gm)
    player = joined(new_page(), server, campaign.player)
    gm.get_by_role("button", name="Issue #1 (running)").click()
    gm.get_by_text("Game Issue commands").click()
    gm.get_by_label("Command").select_option(label="Open Scene")
    form = gm.locator("form[data-operation=open_scene]")
    form.get_by_label("Title *").fill("The rooftop")

    form.get_by_role("button", name="Open Scene").click()

    expect(form.get_by_role("status")).to_have_text("Done.")
    expect(player.get_by_role("button", name="The rooftop (open, page 1)")).to_be_visible()


def test_a_refused_command_shows_the_servers_reason(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm = joined(new_page(), server, campaign.gm)
    gm.get_by_role("button", name="Break in (Alarm 0 green, Rival progress 0)").click()
    gm.get_by_text("Change Alarm").click()
    form = gm.locator("form[data-operation=change_mission_counter]").first
    form.get_by_label("Change *").fill("0")
    form.get_by_label("Reason *").fill("nothing")

    form.get_by_role("button", name="Change Counter").click()

    expect(form.get_by_role("status")).to_contain_text("422")
    expect(form.get_by_role("status")).to_have_class("outcome error")


def test_the_gm_runs_a_fight_from_forms_generated_from_the_openapi(
    server: Server, new_page
) -> None:  # type: ignore[no-untyped-def]
    campaign = Campaign.start(server.url, "nwod-micro")
    gm, player = both_at_scene(server, campaign, new_page)
    fight = player.locator("details[data-operation=nwod_fight]")
    expect(fight.locator("[data-field=turn]")).to_have_text("1")

    gm.get_by_text("Commands", exact=True).click()
    gm.get_by_label("Command", exact=True).select_option(label="Initiative")
    form = gm.locator("form[data-operation=nwod_initiative]")
    form.get_by_label("Character Id *").select_option(label="Nova")  # offered by name, sent as id
    form.get_by_role("button", name="Initiative").click()

    expect(form.get_by_role("status")).to_have_text("Done.")
    expect(fight.locator("[data-field=current]")).to_have_text("Nova")
    expect(player.locator("#roll-log article.roll")).to_have_count(1)


@pytest.mark.parametrize("ruleset", ["wcbh", "classd", "nimble", "nwod-micro"])
def test_every_systems_scene_shows_its_state_and_a_roll_form_for_its_checks(
    server: Server, ruleset: str, new_page
) -> None:  # type: ignore[no-untyped-def]
    campaign = Campaign.start(server.url, ruleset)
    checks = campaign.api.get(f"/v1/rulesets/{ruleset}").json()["checks"]
    page = new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    at_scene(joined(page, server, campaign.player))

    states = page.locator("details.system-state")
    expect(states.first).to_be_visible()
    expect(states.first.locator("dl.values").first).to_be_visible()  # read, not an error
    expect(page.locator("#roll-check option")).to_have_count(len(checks))
    expect(page.locator("#roll-character")).to_have_text("Nova")  # only the player's own
    assert errors == []


def test_an_observer_reads_the_scene_but_is_offered_no_roll_and_no_command(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    observer = _ok(
        campaign.api.post(
            f"/v1/campaigns/{campaign.campaign_id}/members",
            json={"name": "Di", "role": "observer"},
            headers={"Authorization": f"Bearer {campaign.gm}"},
        )
    )
    campaign.roll_for_nova()
    page = at_scene(joined(new_page(), server, observer["token"]))
    expect(page.locator("#roll-log article.roll")).to_have_count(1)
    expect(page.locator("form.roll-form")).to_have_count(0)
    expect(page.locator("details.commands")).to_have_count(0)
    expect(page.get_by_role("button", name="Close Scene")).to_have_count(0)


def test_a_roll_that_waits_for_the_gm_is_approved_on_the_gms_page(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm, player = both_at_scene(server, campaign, new_page)
    player.get_by_label("Trait", exact=True).fill("Agility")
    player.get_by_label("Difficulty", exact=True).fill("2")  # a player's modifier: the GM approves

    player.get_by_role("button", name="Roll", exact=True).click()

    expect(player.locator(".roll-form [role=status]")).to_have_text(
        "Asked the GM: waiting for approval."
    )
    waiting = gm.locator("#roll-requests")
    expect(waiting).to_contain_text("Nova: roll")
    expect(player.locator("#roll-log")).to_contain_text("No rolls yet.")
    settled(gm).get_by_role("button", name="Approve Roll Request").click()
    expect(player.locator("#roll-log article.roll")).to_contain_text("difficulty 2")
    expect(waiting).to_be_empty()


def test_a_roll_cards_faces_mark_dropped_rerolled_and_exploded_dice(
    server: Server, new_page
) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto(server.url + "/")

    def face(index: int, shown: int, **marks: Any) -> dict[str, Any]:
        return {"index": index, "sides": 6, "face": shown, "kept": True, "label": "trait",
                "exploded_from": None, "reroll_of": None, **marks}  # fmt: skip

    faces = [
        face(0, 6),  # exploded: drew face 1
        face(1, 3, exploded_from=0),
        face(2, 1, kept=False),  # rerolled: face 3 replaced it
        face(3, 5, reroll_of=2),
        face(4, 2, kept=False),  # dropped
    ]
    dice = page.evaluate(
        """async faces => {
            const { faces: render } = await import("/web/render.js");
            return [...render(faces).querySelectorAll(".die")].map(d => [d.className, d.textContent, d.querySelector("s") !== null]);
        }""",
        faces,
    )
    # [classes, text (a screen reader hears the mark too), struck through]
    assert dice == [
        ["die exploded", "6! (exploded)", False],
        ["die", "3", False],
        ["die rerolled", "1 (rerolled)", True],
        ["die reroll", "→5 (reroll)", False],
        ["die dropped", "2 (dropped)", True],
    ]
