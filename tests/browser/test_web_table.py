"""The web table in a real Chromium: a GM and a player, each in a browser context of their own, at one
scene of a campaign set up through the public API."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from tests.browser.table import Campaign, at_scene, both_at_scene, joined, ok, settled
from tests.server import Server

PHONE = {"width": 375, "height": 740}


def test_a_gm_and_a_player_at_one_scene_see_each_others_actions_live(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    """One journey (each step used to join pages of its own): the player's roll on the GM's page,
    a roll that waits for the GM approved there, the GM's page turn on the player's, and a card
    verifying its faces once the GM closes the scene."""
    gm, player = both_at_scene(server, campaign, new_page)
    expect(gm.locator("#roll-log")).to_contain_text("No rolls yet.")
    gm.evaluate("window.notReloaded = true")

    # The player's roll appears on the GM's page live.
    player.get_by_label("Trait", exact=True).fill("Agility")
    player.get_by_role("button", name="Roll", exact=True).click()
    card = gm.locator("#roll-log article.roll")
    expect(card).to_have_count(1)
    expect(card).to_contain_text("Nova rolled trait")
    expect(card).to_contain_text("trait Agility")
    expect(card.locator(".die")).to_have_count(5)  # Agility 5 on the example sheet
    expect(card.locator(".odds")).to_contain_text("success")
    expect(card.locator(".badge")).to_contain_text("sealed until the scene closes")

    # A roll with a player's modifier waits for the GM, who approves it on the scene.
    settled(player).get_by_label("Difficulty", exact=True).fill("2")
    player.get_by_role("button", name="Roll", exact=True).click()
    expect(player.locator(".roll-form [role=status]")).to_have_text(
        "Asked the GM: waiting for approval."
    )
    waiting = gm.locator("#roll-requests")
    expect(waiting).to_contain_text("Nova: roll")
    expect(player.locator("#roll-log article.roll")).to_have_count(1)
    settled(gm).get_by_role("button", name="Approve Roll Request").click()
    expect(player.locator("#roll-log article.roll").first).to_contain_text("difficulty 2")
    expect(waiting).to_be_empty()

    # The GM's page turn reaches the player; the lifecycle buttons are the GM's only.
    expect(player.locator("#scene-header [data-field=page]")).to_have_text("1")
    settled(gm).get_by_role("button", name="Advance Page").click()
    expect(player.locator("#scene-header [data-field=page]")).to_have_text("2")
    expect(player.get_by_role("button", name="The vault (open, page 2)")).to_be_visible()
    expect(player.get_by_role("button", name="Advance Page")).to_have_count(0)

    # Closing the scene lets a roll card verify its faces.
    first = gm.locator("#roll-log article.roll").last
    settled(gm)
    first.get_by_role("button", name="Verify").click()
    expect(first.locator(".badge.ok")).to_have_text(
        "chain intact, faces checkable once the seed is revealed"
    )
    gm.get_by_role("button", name="Close Scene").click()
    expect(gm.locator("#scene-header [data-field=status]")).to_have_text("closed")
    expect(first.locator(".badge.revealed")).to_contain_text("seed revealed")
    settled(gm)
    first.get_by_role("button", name="Verify").click()
    expect(first.locator(".badge.ok")).to_have_text("chain intact, faces recomputed and matching")
    assert gm.evaluate("window.notReloaded") is True


def test_the_gms_generated_forms_open_a_scene_and_raise_the_alarm_live_on_the_players_page(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm = joined(new_page(), server, campaign.gm)
    player = joined(new_page(), server, campaign.player)
    # A game Issue command opens a scene; it appears in the player's navigation.
    gm.get_by_role("button", name="Issue #1 (running)").click()
    gm.get_by_text("Game Issue commands").click()
    gm.get_by_label("Command").select_option(label="Open Scene")
    form = gm.locator("form[data-operation=open_scene]")
    form.get_by_label("Title *").fill("The rooftop")
    form.get_by_role("button", name="Open Scene").click()
    expect(form.get_by_role("status")).to_have_text("Done.")
    expect(player.get_by_role("button", name="The rooftop (open, page 1)")).to_be_visible()

    # A mission's counter form raises the alarm; the player sees its zone change.
    settled(gm).get_by_role("button", name="Break in (Alarm 0 green, Rival progress 0)").click()
    player.get_by_role("button", name="Break in (Alarm 0 green, Rival progress 0)").click()
    alarm = player.locator("[data-counter=alarm]")
    expect(alarm).to_contain_text("Alarm: 0 of 10 green")
    gm.get_by_text("Change Alarm").click()
    form = gm.locator("form[data-operation=change_mission_counter]").first

    # A refused command shows the server's reason.
    form.get_by_label("Change *").fill("0")
    form.get_by_label("Reason *").fill("nothing")
    form.get_by_role("button", name="Change Counter").click()
    expect(form.get_by_role("status")).to_contain_text("422")
    expect(form.get_by_role("status")).to_have_class("outcome error")

    form.get_by_label("Change *").fill("5")
    form.get_by_label("Reason *").fill("a guard heard the drill")
    form.get_by_role("button", name="Change Counter").click()

    expect(alarm).to_contain_text("Alarm: 5 of 10 yellow")
    expect(alarm.locator("meter")).to_have_attribute("value", "5")


def test_a_link_with_the_token_joins_and_the_players_sheet_shows_when_resources_refresh(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    page = joined(new_page(), server, campaign.player)
    # The token leaves the address for the session.
    assert campaign.player not in page.url
    assert page.evaluate("sessionStorage.getItem('chronicle.token')") == campaign.player
    page.reload()  # the tab keeps its session
    expect(page.locator("#who")).to_contain_text("Bo (player)")

    settled(page).get_by_role("button", name="Nova (hero)").click()
    resolve = page.locator("#character-sheet tr", has_text="resolve")
    expect(resolve).to_contain_text("4")
    expect(resolve).to_contain_text("each game Issue")
    expect(page.locator("#character-sheet tr", has_text="health")).to_contain_text("never")


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


def test_an_unknown_token_is_refused_with_a_reason(server: Server, new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto(server.url + "/")
    page.get_by_label("Member token").fill("chr_not_a_token")
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_role("alert")).to_contain_text("not valid")
    expect(page.locator("#table")).to_be_hidden()


def test_a_german_phone_reads_dates_and_numbers_in_german_and_nothing_scrolls_sideways(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    roll = campaign.roll_for_nova()
    phone = new_page(locale="de-DE", viewport=PHONE, is_mobile=True)
    page = at_scene(joined(phone, server, campaign.gm))
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

    # A phone-width screen needs no horizontal scrolling, at the scene and on a sheet.
    expect(page.locator("#scrub-state [data-field=page]")).to_have_text("1")
    assert _horizontal_overflow(page) == 0
    settled(page).get_by_role("button", name="Nova (hero)").click()
    expect(page.locator("#character-sheet table.resources")).to_be_visible()
    assert _horizontal_overflow(page) == 0


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
    observer = ok(
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
