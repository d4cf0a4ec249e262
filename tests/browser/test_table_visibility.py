"""The web table with what the GM keeps from the players: a secret GM roll withheld from the player
until the GM reveals it (live), a character the GM hides and shows from the characters panel, and the
campaign's proof pages, switched on from the campaign panel, linked from the roll cards."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.table import Campaign, both_at_scene, settled
from tests.server import Server

# Everything the player's roll log shows from now on that only the roll's contents could say: its
# faces, its result, its odds or what was asked (the trait). Kept in window.leaks.
WATCH = """() => {
    window.leaks = [];
    const log = () => document.getElementById("roll-log");
    const look = () => {
        const shown = log();
        if (!shown) return;
        if (shown.querySelector(".die, .result, .odds, .asked") || /Agility|Nova/.test(shown.textContent))
            window.leaks.push(shown.innerHTML);
    };
    window.watching = new MutationObserver(look);
    window.watching.observe(document.body, { subtree: true, childList: true, characterData: true });
    look();
}"""


def test_a_secret_gm_roll_stays_hidden_from_the_player_until_revealed(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    gm, player = both_at_scene(server, campaign, new_page)
    expect(player.get_by_role("checkbox", name="Secret")).to_have_count(0)  # the GM's only
    player.evaluate(WATCH)

    gm.get_by_label("Trait", exact=True).fill("Agility")
    gm.get_by_role("checkbox", name="Secret").check()
    gm.get_by_role("button", name="Roll", exact=True).click()

    mine = gm.locator("#roll-log article.roll")
    expect(mine.locator(".badge.secret")).to_have_text("secret")
    expect(mine.locator(".die")).to_have_count(5)  # the GM sees it whole
    card = player.locator("#roll-log article.roll")
    expect(card).to_have_count(1)
    expect(card).to_have_class("roll card withheld")
    expect(card.locator("header")).to_contain_text("A secret roll of the GM")
    expect(card.locator(".proof")).to_contain_text("#0 · ")  # its place in the chain
    expect(card.get_by_role("button", name="Reveal to the players")).to_have_count(0)
    settled(player).evaluate("window.watching.disconnect()")
    assert player.evaluate("window.leaks") == []

    settled(gm).get_by_role("button", name="Reveal to the players").click()

    expect(card).to_have_class("roll card")  # filled in live, without reloading
    expect(card).to_contain_text("Nova rolled trait")
    expect(card).to_contain_text("trait Agility")
    expect(card.locator(".die")).to_have_count(5)
    assert [f.split()[0] for f in card.locator(".die").all_inner_texts()] == [
        f.split()[0] for f in mine.locator(".die").all_inner_texts()
    ]
    expect(mine.locator(".badge.secret")).to_have_count(0)


def test_the_gms_panels_hide_a_character_and_make_the_proof_pages_public_live(
    server: Server, campaign: Campaign, new_page
) -> None:  # type: ignore[no-untyped-def]
    """One journey: the GM hides the player's hero and shows it again from the characters
    panel, then opens the proof pages from the campaign panel: a roll card links to its page."""
    shown = campaign.roll_for_nova()
    secret = {"check": "trait", "character_id": campaign.character_id, "secret": True}
    campaign.post(
        f"/v1/scenes/{campaign.scene_id}/rolls", {**secret, "request": {"trait": "Agility"}}
    )
    gm, player = both_at_scene(server, campaign, new_page)
    cards = player.locator("#roll-log article.roll")
    expect(cards).to_have_count(2)
    expect(player.locator("article.withheld")).to_have_count(1)
    expect(player.locator("a.proof-page")).to_have_count(0)  # private: no public page to link

    # Hidden: marked on the GM's panel, gone from the player's, its open roll withheld too.
    expect(player.get_by_role("button", name="Hide Nova")).to_have_count(0)  # the GM's only
    gm.get_by_role("button", name="Hide Nova").click()
    expect(gm.get_by_role("button", name="Nova (hero, hidden)")).to_be_visible()
    expect(player.get_by_role("button", name="Nova (hero)")).to_have_count(0)
    expect(player.locator("#nav")).not_to_contain_text("Nova")
    expect(player.locator("article.withheld")).to_have_count(2)
    settled(gm).get_by_role("button", name="Show Nova").click()
    expect(gm.get_by_role("button", name="Nova (hero)")).to_be_visible()
    expect(player.get_by_role("button", name="Nova (hero)")).to_be_visible()
    expect(player.locator("article.withheld")).to_have_count(1)

    # Public proof pages: the card the public may see links to its page.
    settled(gm).get_by_role("button", name="Campaign", exact=True).click()
    expect(gm.locator("#proof-pages")).to_contain_text("Proof pages are private")
    gm.get_by_role("button", name="Make proof pages public").click()
    expect(gm.locator("#proof-pages")).to_contain_text("Proof pages are public")

    link = player.locator(f"article[data-roll-id='{shown['id']}'] a.proof-page")
    expect(link).to_have_attribute("href", f"/proof/{shown['id']}")
    # The secret roll has no public page until revealed (it answers 404): no link to it.
    expect(player.locator("article.withheld a.proof-page")).to_have_count(0)
    expect(player.locator("a.proof-page")).to_have_count(1)
    link.click()
    expect(player.locator("#verdict")).to_have_attribute("data-state", "sealed")
    assert player.url == f"{server.url}/proof/{shown['id']}"
