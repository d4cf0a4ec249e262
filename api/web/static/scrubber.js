// The replay scrubber: steps through a scene's history (GET /v1/scenes/{id}/replay) and shows the
// scene as it was after any step, folding each step's changes (field: [before, after]) in order.

import { get } from "./api.js";
import { region } from "./live.js";
import { h, moment, short, value } from "./render.js";

// Ids say nothing to a reader; the rest of the scene's state is shown as it was.
const HIDDEN = new Set(["id", "campaign_id", "story_id", "issue_id"]);

export function scrubber(scope, sceneId) {
  let steps = [];
  const slider = h("input", {
    type: "range",
    id: "scrub",
    min: 0,
    max: 0,
    value: 0,
    step: 1,
    "aria-describedby": "scrub-step",
  });
  const back = h("button", { type: "button", "aria-label": "Previous step" }, "◀");
  const ahead = h("button", { type: "button", "aria-label": "Next step" }, "▶");
  const latest = h("button", { type: "button" }, "Now");
  const said = h("p", { id: "scrub-step", "aria-live": "polite" });
  const shown = h("div", { id: "scrub-state" });

  const show = () => {
    const at = Number(slider.value);
    const step = steps[at];
    if (!step) {
      said.textContent = "No history yet.";
      shown.replaceChildren();
      return;
    }
    said.replaceChildren(
      `Step ${at + 1} of ${steps.length} · `,
      h("time", { datetime: step.at }, moment(step.at)),
      ` · ${step.text}`,
    );
    shown.replaceChildren(value(stateAt(steps, at)));
  };
  const move = (to) => {
    slider.value = String(Math.max(0, Math.min(steps.length - 1, to)));
    show();
  };
  slider.addEventListener("input", show);
  back.addEventListener("click", () => move(Number(slider.value) - 1));
  ahead.addEventListener("click", () => move(Number(slider.value) + 1));
  latest.addEventListener("click", () => move(steps.length - 1));

  // Reloaded with the log: a reader at the newest step follows the new ones, one looking back stays.
  const follow = region(
    scope,
    async () => (await get(`/v1/scenes/${sceneId}/replay`)).steps,
    (loaded) => {
      const atEnd = Number(slider.value) >= steps.length - 1;
      steps = loaded;
      slider.max = String(Math.max(0, steps.length - 1));
      if (atEnd) slider.value = slider.max;
      show();
      return null;
    },
  );

  return h(
    "section",
    { class: "card scrubber", "aria-labelledby": "scrub-title" },
    h("h3", { id: "scrub-title" }, "Replay"),
    h("div", { class: "scrub-controls" }, h("label", { for: "scrub" }, "Step"), back, slider, ahead, latest),
    said,
    shown,
    follow,
  );
}

// The scene's own fields come from its own steps; a roll's step changes the roll, so rolls are
// counted, and the latest one read, instead.
function stateAt(steps, at) {
  const scene = {};
  let rolls = 0;
  let lastRoll = null;
  for (const step of steps.slice(0, at + 1)) {
    if (step.type.startsWith("Roll.")) {
      rolls += step.type === "Roll.Recorded" ? 1 : 0;
      lastRoll = step.text;
      continue;
    }
    if (!step.type.startsWith("Scene.")) continue;
    for (const [field, [, after]] of Object.entries(step.changes ?? {})) scene[field] = after;
  }
  const visible = Object.fromEntries(
    Object.entries(scene).filter(([field]) => !HIDDEN.has(field) && field !== "rolls"),
  );
  // A seed's own roll count is not kept by the scene's steps: the rolls so far say it instead.
  const seed = (s) => ({
    number: s.number,
    commitment: short(s.commitment),
    revealed_seed: s.revealed_seed ? short(s.revealed_seed) : null,
  });
  if (Array.isArray(visible.seeds)) visible.seeds = visible.seeds.map(seed);
  return { ...visible, rolls_so_far: rolls, last_roll: lastRoll };
}
