// What the GM keeps from the players, and what the public may check, at the table: secret GM rolls,
// hidden characters and the campaign's proof pages, all read off the campaign (GET
// /v1/campaigns/{id}; docs/front-ends.md, "Visibility" and "Proof page").

import { call } from "./api.js";
import { pathOf, submit } from "./commands.js";
import { isGm, state } from "./live.js";
import { h, moment, short } from "./render.js";

const campaign = () => state.campaign ?? {};
const hiddenIds = () => campaign().hidden_character_ids ?? [];
const withheldIds = () => campaign().withheld_roll_ids ?? [];

// What a read of the rolls or the characters must show again when it changes, beside their data.
export const visibilityKey = () => [campaign().proof_pages_public, withheldIds(), hiddenIds()];

export const isHidden = (characterId) => hiddenIds().includes(characterId);

// The GM's own reads show a secret roll whole: the campaign's list says which ones are secret.
const isSecret = (roll) => [roll.id, roll.follow_up_of].some((id) => withheldIds().includes(id));

// Sends one operation of the OpenAPI document, its path filled from `ids`.
function send(operationId, ids, body, out) {
  const op = state.ops.get(operationId);
  return submit(out, () => call(op.method, pathOf(op, ids), body));
}

// The roll form's "secret" choice, the GM's only: { element, read() } or null.
export function secretChoice() {
  if (!isGm()) return null;
  const box = h("input", { type: "checkbox", id: "roll-secret" });
  return {
    element: h(
      "div",
      { class: "field" },
      box,
      h(
        "label",
        { for: "roll-secret" },
        "Secret: the players see only its place in the chain until you reveal it",
      ),
    ),
    read: () => box.checked,
  };
}

// A roll this member may not see yet: its place in the chain and when, nothing of its contents.
export function withheldCard(roll, onVerify) {
  const proof = h(
    "p",
    { class: "proof" },
    h(
      "span",
      { class: "badge sealed", title: `commitment ${roll.proof.commitment}` },
      `#${roll.proof.sequence} · ${short(roll.proof.hash)}`,
    ),
    " ",
    h("button", { type: "button", onclick: () => onVerify(roll, proof) }, "Verify"),
  );
  return h(
    "article",
    { class: "roll card withheld", dataset: { rollId: roll.id }, "aria-label": "A secret roll of the GM" },
    h(
      "header",
      {},
      h("strong", {}, "A secret roll of the GM"),
      h("time", { datetime: roll.recorded_at }, moment(roll.recorded_at)),
    ),
    h("p", { class: "hint" }, "Withheld until the GM reveals it: only its place in the chain is shown."),
    proof,
  );
}

// What the card of a roll the member sees whole adds: for the GM, a secret roll's mark and its
// Reveal button; for everyone, the public proof page once the campaign's pages are public.
export function dressCard(card, roll) {
  const proof = card.querySelector(".proof");
  if (isGm() && isSecret(roll)) {
    const out = h("span", { role: "status", class: "outcome" });
    card.querySelector("header").append(h("span", { class: "badge secret" }, "secret"));
    if (!roll.follow_up_of) {
      const reveal = () => send("reveal_roll", { roll_id: roll.id }, undefined, out);
      proof.append(" ", h("button", { type: "button", onclick: reveal }, "Reveal to the players"), out);
    }
  }
  if (campaign().proof_pages_public && !keptFromThePublic(roll))
    proof.append(" ", h("a", { href: `/proof/${roll.id}`, class: "proof-page" }, "proof page"));
  return card;
}

// A roll whose public page answers 404 (domain/proofs.py): secret, or naming a hidden character.
function keptFromThePublic(roll) {
  if (roll.withheld || isSecret(roll)) return true;
  const said = JSON.stringify(roll);
  return hiddenIds().some((id) => said.includes(id));
}

// The GM's switch beside a character in the navigation: hide it from the players, or show it.
export function characterSwitch(character) {
  if (!isGm()) return null;
  const hidden = isHidden(character.id);
  const out = h("span", { role: "status", class: "outcome" });
  const flip = () =>
    send("set_character_visibility", { character_id: character.id }, { hidden: !hidden }, out);
  return [
    h(
      "button",
      { type: "button", class: "small", onclick: flip },
      `${hidden ? "Show" : "Hide"} ${character.name}`,
    ),
    out,
  ];
}

// The campaign's proof pages, public or not, and the GM's switch.
export function proofPages(data) {
  const open = data.proof_pages_public;
  const out = h("span", { role: "status", class: "outcome" });
  const flip = () => send("set_proof_pages", { campaign_id: data.id }, { public: !open }, out);
  return h(
    "p",
    { id: "proof-pages" },
    open
      ? "Proof pages are public: anyone with a roll's link can check it."
      : "Proof pages are private: only members can check a roll.",
    " ",
    isGm()
      ? h(
          "button",
          { type: "button", onclick: flip },
          open ? "Make proof pages private" : "Make proof pages public",
        )
      : null,
    out,
  );
}
