// A scene at the table: its state, the system's fight or turn state, the roll form and commands,
// the live log of roll cards and the replay scrubber.

import { get, listAll } from "./api.js";
import { commands, operationForm, rollForm } from "./commands.js";
import { $, drop, isGm, openView, region, role, state, systemTags } from "./live.js";
import { h, rollCard, short, value, verdict, words } from "./render.js";
import { scrubber } from "./scrubber.js";
import { dressCard, visibilityKey, withheldCard } from "./visibility.js";

const SCENE = "/v1/scenes/{scene_id}/";
const verdicts = new Map(); // roll id -> its verification badge, kept across refreshes

// The scene lifecycle: every scene operation of the shared "play" tag that needs no body (the GM's
// page turns and closing).
function lifecycleOps() {
  return state.ops
    .under(SCENE, "POST", ["play"])
    .filter((op) => !op.requestBody && state.ops.pathParams(op).length === 1);
}

export function showScene(sceneId) {
  const known = { scene_id: sceneId };
  const acts = role() !== "observer";
  const own = ["roll", ...lifecycleOps().map((op) => op.operationId)];
  openView(
    "Scene",
    () => region(state.view, () => get(`/v1/scenes/${sceneId}`), sceneHeader, { id: "scene-header" }),
    isGm()
      ? () =>
          h(
            "div",
            { class: "buttons" },
            lifecycleOps().map((op) => operationForm(op, known)),
          )
      : null,
    () =>
      h(
        "div",
        { class: "scene-grid" },
        h(
          "div",
          {},
          acts ? rollForm(sceneId) : null,
          isGm()
            ? region(state.view, () => get(`/v1/scenes/${sceneId}/roll-requests`), pendingRequests, {
                id: "roll-requests",
              })
            : null,
          acts ? commands("Commands", SCENE, ["play", ...systemTags()], known, own) : null,
          systemStates(sceneId),
        ),
        h(
          "div",
          {},
          h("h3", {}, "Live log"),
          region(
            state.view,
            async () => ({
              rolls: await listAll(`/v1/campaigns/${state.me.campaign.id}/rolls?scene_id=${sceneId}`),
              seen: visibilityKey(), // a reveal or the proof pages' switch redraws the cards
            }),
            rollLog,
            { id: "roll-log" },
          ),
          scrubber(state.view, sceneId),
        ),
      ),
  );
}

function sceneHeader(scene) {
  $("view-title").textContent = `Scene: ${scene.title}`;
  const seeds = scene.seeds.map((s) => ({
    commitment: short(s.commitment),
    rolls: s.rolls,
    revealed: Boolean(s.revealed_seed),
  }));
  return value({ status: scene.status, page: scene.page, seeds });
}

// The system's state on the scene (its fight, its turn...): every GET of the scene in its tags,
// each in a section of its own that stays open or closed across refreshes.
function systemStates(sceneId) {
  const reads = state.ops
    .under(SCENE, "GET", systemTags())
    .filter((op) => state.ops.pathParams(op).length === 1);
  return reads.map((op, at) =>
    h(
      "details",
      { class: "card system-state", open: at === 0, dataset: { operation: op.operationId } },
      h("summary", {}, op.summary),
      region(
        state.view,
        () => get(op.path.replace("{scene_id}", sceneId)).catch((error) => ({ unavailable: error.message })),
        (data) => value(drop(data, ["version", "position", "receipts", "scene_id"])),
      ),
    ),
  );
}

function pendingRequests(list) {
  const waiting = list.items.filter((r) => r.status === "pending");
  if (!waiting.length) return null;
  const approve = state.ops.get("approve_roll_request");
  const decline = state.ops.get("decline_roll_request");
  return h(
    "section",
    { class: "card" },
    h("h3", {}, "Waiting for the GM"),
    waiting.map((r) =>
      h(
        "div",
        { class: "request" },
        h(
          "p",
          {},
          `${state.names.get(r.character_id) ?? state.names.get(r.requested_by) ?? "someone"}: ${words(r.command)}`,
        ),
        value(r.arguments),
        operationForm(approve, { request_id: r.id }),
        operationForm(decline, { request_id: r.id }),
      ),
    ),
  );
}

function rollLog({ rolls }) {
  if (!rolls.length) return h("p", {}, "No rolls yet.");
  return [...rolls].reverse().map((roll) => {
    const card = roll.withheld
      ? withheldCard(roll, verify)
      : dressCard(rollCard(roll, state.names, verify), roll);
    const known = verdicts.get(roll.id);
    if (known) card.querySelector(".proof").append(" ", known.cloneNode(true));
    return card;
  });
}

async function verify(roll, where) {
  try {
    const badge = verdict(await get(`/v1/rolls/${roll.id}/verification`));
    verdicts.set(roll.id, badge);
    where.querySelector(".badge.ok, .badge.bad")?.remove();
    where.append(" ", badge.cloneNode(true));
  } catch (error) {
    where.append(" ", h("span", { class: "error" }, error.message));
  }
}
