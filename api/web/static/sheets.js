// A character's sheet and a mission's counters, with the commands their owner may send.

import { get } from "./api.js";
import { commands, operationForm } from "./commands.js";
import { $, isGm, openView, region, role, state, systemTags } from "./live.js";
import { h, number, value, words } from "./render.js";

export function showCharacter(characterId) {
  const own = () =>
    isGm() || state.characters.find((c) => c.id === characterId)?.owner_member_id === state.me.member.id;
  openView(
    "Character",
    () =>
      region(state.view, () => get(`/v1/characters/${characterId}`), characterSheet, {
        id: "character-sheet",
      }),
    own() && role() !== "observer"
      ? () =>
          commands("Character commands", "/v1/characters/{character_id}/", ["characters", ...systemTags()], {
            character_id: characterId,
          })
      : null,
  );
}

function characterSheet(c) {
  $("view-title").textContent = c.name;
  const row = ([name, r]) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, words(name)),
      h("td", {}, number(r.current)),
      h("td", {}, r.max === null ? "—" : number(r.max)),
      h("td", {}, refreshWhen(r.refresh)),
    );
  return [
    value({ side: c.side, status: c.status, owner: state.names.get(c.owner_member_id) ?? "the GM" }),
    h("h3", {}, "Resources"),
    h(
      "table",
      { class: "resources" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["resource", "now", "of", "refreshes"].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h("tbody", {}, Object.entries(c.resources ?? {}).map(row)),
    ),
    h("h3", {}, "Conditions"),
    value(c.conditions),
    h("h3", {}, "Derived"),
    value(c.derived),
    h("details", {}, h("summary", {}, "Sheet"), value(c.sheet)),
  ];
}

function refreshWhen(refresh) {
  const said = {
    never: "never",
    page: "each page",
    round: "each round",
    scene: "each scene",
    issue: "each game Issue",
    story: "each story",
    rest: "on a rest",
  };
  return said[refresh] ?? words(refresh ?? "—");
}

export function showMission(missionId) {
  openView(
    "Mission",
    () =>
      region(state.view, () => get(`/v1/missions/${missionId}`), missionCounters, { id: "mission-counters" }),
    isGm() ? () => counterForms(missionId) : null,
  );
}

function missionCounters(m) {
  $("view-title").textContent = `Mission: ${m.title}`;
  const counter = (c) =>
    h(
      "section",
      { class: "counter card", dataset: { counter: c.name } },
      h(
        "h3",
        {},
        `${c.label}: ${number(c.value)} of ${number(c.maximum)}`,
        c.zone ? h("span", { class: `zone zone-${c.zone}` }, ` ${c.zone}`) : null,
      ),
      h("meter", { min: 0, max: c.maximum, value: c.value, "aria-label": c.label }),
      c.zones.length
        ? h(
            "p",
            { class: "hint" },
            "zones: ",
            c.zones.map((z) => `${z.name} from ${number(z.start)}`).join(", "),
          )
        : null,
    );
  return [value({ status: m.status, outcome: m.outcome, rests: m.rest_count }), m.counters.map(counter)];
}

// The GM's counter changes (raising the alarm...) and the mission's other commands.
function counterForms(missionId) {
  const box = h("div", {});
  const change = state.ops.get("change_mission_counter");
  const formFor = (c) =>
    h(
      "details",
      { class: "card" },
      h("summary", {}, `Change ${c.label}`),
      operationForm(change, { mission_id: missionId, counter: c.name }),
    );
  get(`/v1/missions/${missionId}`).then((m) =>
    box.append(
      ...m.counters.map(formFor),
      commands("Mission commands", "/v1/missions/{mission_id}/", ["missions"], { mission_id: missionId }, [
        "change_mission_counter",
      ]) ?? "",
    ),
  );
  return box;
}
