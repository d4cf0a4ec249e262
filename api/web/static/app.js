// The web table: joins with a member's token, then shows the campaign through the public API only,
// kept current by the campaign's stream. Commands and roll forms come from the OpenAPI document and
// the ruleset's check schemas (commands.js).

import { follow, get, listAll, session, takeTokenFromFragment } from "./api.js";
import { commands, operationForm, rollForm } from "./commands.js";
import { isGm, refreshSoon, region, role, state } from "./live.js";
import { h, moment, number, rollCard, short, value, verdict, words } from "./render.js";
import { Operations } from "./schema.js";
import { scrubber } from "./scrubber.js";

// Which OpenAPI tags hold each system's operations ("play" is the lifecycle every system shares).
const SYSTEM_TAGS = {
  wcbh: ["fight", "resolve", "scene_play"],
  classd: ["classd"],
  nimble: ["nimble", "nimble_health"],
  "nwod-micro": ["nwod"],
};
const SCENE = "/v1/scenes/{scene_id}/";
const verdicts = new Map(); // roll id -> its verification badge, kept across refreshes
const $ = (id) => document.getElementById(id);
const systemTags = () => SYSTEM_TAGS[state.ruleset.id] ?? [];

async function join() {
  try {
    state.me = await get("/v1/me");
  } catch (error) {
    session.token = null;
    $("join-error").textContent = error.status === 401 ? "That token is not valid (revoked, expired or mistyped)." : error.message;
    $("token").focus();
    return;
  }
  const campaign = state.me.campaign;
  const [ruleset, openapi] = await Promise.all([get(`/v1/rulesets/${campaign.ruleset}`), get("/openapi.json")]);
  state.ruleset = ruleset;
  state.ops = new Operations(openapi);
  await loadNames();
  $("join").hidden = true;
  $("table").hidden = false;
  $("leave").hidden = false;
  $("who").textContent = `${state.me.member.name} (${words(state.me.member.role)}) · ${campaign.name} · ${ruleset.name}`;
  $("nav").replaceChildren(region(state.panel, navigationData, navigation));
  showCampaign();
  startStream();
}

async function loadNames() {
  const id = state.me.campaign.id;
  const [members, characters] = await Promise.all([listAll(`/v1/campaigns/${id}/members`), listAll(`/v1/campaigns/${id}/characters`)]);
  state.characters = characters;
  state.names.clear();
  for (const { id: key, name } of [...members, ...characters]) state.names.set(key, name);
}

function startStream() {
  const stream = new AbortController();
  const onEntry = (entry) => {
    $("activity").textContent = `${entry.type.replace(".", " ")} · ${moment(entry.timestamp)}`;
    if (entry.type.startsWith("Character.") || entry.type.startsWith("Campaign.")) loadNames().then(refreshSoon);
    else refreshSoon();
  };
  const said = { live: "● live", reconnecting: "reconnecting…", failed: "not live (reload to retry)", stopped: "" };
  const onState = (s) => {
    $("live").textContent = said[s];
    if (s === "live") refreshSoon(); // whatever happened while connecting
  };
  follow(state.me.campaign.id, onEntry, { signal: stream.signal, onState });
  $("leave").addEventListener("click", () => {
    stream.abort();
    session.token = null;
    location.reload();
  });
}

// The campaign's stories with their game Issues and scenes, its characters and its missions.
async function navigationData() {
  const id = state.me.campaign.id;
  const [stories, characters, missions] = await Promise.all([
    listAll(`/v1/campaigns/${id}/stories`),
    listAll(`/v1/campaigns/${id}/characters`),
    listAll(`/v1/campaigns/${id}/missions`),
  ]);
  const issuesOf = async (story) => ({ ...story, issues: await Promise.all((await listAll(`/v1/stories/${story.id}/issues`)).map(scenesOf)) });
  const scenesOf = async (issue) => ({ ...issue, scenes: await listAll(`/v1/issues/${issue.id}/scenes`) });
  return { stories: await Promise.all(stories.map(issuesOf)), characters, missions };
}

function navigation({ stories, characters, missions }) {
  const scene = (s) => h("li", {}, navButton(`${s.title} (${words(s.status)}, page ${number(s.page)})`, () => showScene(s.id), { scene: s.id }));
  const issue = (i) => h("li", {}, navButton(`${i.title} (${words(i.status)})`, () => showIssue(i.id)), h("ul", {}, i.scenes.map(scene)));
  const story = (s) => h("li", {}, navButton(`${s.title} (${words(s.status)})`, () => showStory(s.id)), h("ul", {}, s.issues.map(issue)));
  return [
    navButton("Campaign", showCampaign),
    h("h2", {}, "Stories"),
    stories.length ? h("ul", { class: "tree" }, stories.map(story)) : h("p", {}, "No story yet."),
    h("h2", {}, "Characters"),
    h("ul", { class: "tree" }, characters.map((c) => h("li", {}, navButton(`${c.name} (${words(c.side)})`, () => showCharacter(c.id))))),
    h("h2", {}, "Missions"),
    h("ul", { class: "tree" }, missions.map((m) => h("li", {}, navButton(`${m.title} (${missionZones(m)})`, () => showMission(m.id))))),
  ];
}

function navButton(label, onclick, dataset = {}) {
  return h("button", { type: "button", class: "link", onclick, dataset }, label);
}

function missionZones(mission) {
  return mission.counters.map((c) => `${c.label} ${number(c.value)}${c.zone ? ` ${c.zone}` : ""}`).join(", ") || words(mission.status);
}

// A new view: its regions replace the last view's, and the focus moves to its heading.
function openView(title, ...parts) {
  state.view = [];
  const heading = h("h2", { tabindex: "-1", id: "view-title" }, title);
  $("view").replaceChildren(heading, ...parts.map((part) => (typeof part === "function" ? part() : part)).flat().filter(Boolean));
  heading.focus();
}

// A region showing one resource's chosen fields as values.
function facts(path, keys, attrs = {}) {
  return () => region(state.view, () => get(path), (data) => value(pick(data, keys)), attrs);
}

function showCampaign() {
  const id = state.me.campaign.id;
  openView(
    state.me.campaign.name,
    value({ ruleset: state.ruleset.name, you: state.me.member.name, role: state.me.member.role }),
    () => region(state.view, () => listAll(`/v1/campaigns/${id}/members`), (members) => [h("h3", {}, "Members"), value(members.map((m) => pick(m, ["name", "role"])))]),
    isGm() ? () => commands("Start something", "/v1/campaigns/{campaign_id}/", ["play", "missions", "characters"], { campaign_id: id }) : null,
  );
}

function showStory(storyId) {
  openView("Story", facts(`/v1/stories/${storyId}`, ["title", "status"]), isGm() ? () => commands("Story commands", "/v1/stories/{story_id}/", ["play"], { story_id: storyId }) : null);
}

function showIssue(issueId) {
  openView(
    "Game Issue",
    facts(`/v1/issues/${issueId}`, ["title", "status", "pools"]),
    isGm() ? () => commands("Game Issue commands", "/v1/issues/{issue_id}/", ["play", ...systemTags()], { issue_id: issueId }) : null,
  );
}

// The scene lifecycle: every scene operation of the shared "play" tag that needs no body (the GM's
// page turns and closing).
function lifecycleOps() {
  return state.ops.under(SCENE, "POST", ["play"]).filter((op) => !op.requestBody && state.ops.pathParams(op).length === 1);
}

function showScene(sceneId) {
  const known = { scene_id: sceneId };
  const acts = role() !== "observer";
  const own = ["roll", ...lifecycleOps().map((op) => op.operationId)];
  openView(
    "Scene",
    () => region(state.view, () => get(`/v1/scenes/${sceneId}`), sceneHeader, { id: "scene-header" }),
    isGm() ? () => h("div", { class: "buttons" }, lifecycleOps().map((op) => operationForm(op, known))) : null,
    () =>
      h(
        "div",
        { class: "scene-grid" },
        h(
          "div",
          {},
          acts ? rollForm(sceneId) : null,
          isGm() ? region(state.view, () => get(`/v1/scenes/${sceneId}/roll-requests`), pendingRequests, { id: "roll-requests" }) : null,
          acts ? commands("Commands", SCENE, ["play", ...systemTags()], known, own) : null,
          systemStates(sceneId),
        ),
        h(
          "div",
          {},
          h("h3", {}, "Live log"),
          region(state.view, () => listAll(`/v1/campaigns/${state.me.campaign.id}/rolls?scene_id=${sceneId}`), rollLog, { id: "roll-log" }),
          scrubber(state.view, sceneId),
        ),
      ),
  );
}

function sceneHeader(scene) {
  $("view-title").textContent = `Scene: ${scene.title}`;
  const seeds = scene.seeds.map((s) => ({ commitment: short(s.commitment), rolls: s.rolls, revealed: Boolean(s.revealed_seed) }));
  return value({ status: scene.status, page: scene.page, seeds });
}

// The system's state on the scene (its fight, its turn...): every GET of the scene in its tags,
// each in a section of its own that stays open or closed across refreshes.
function systemStates(sceneId) {
  const reads = state.ops.under(SCENE, "GET", systemTags()).filter((op) => state.ops.pathParams(op).length === 1);
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
      h("div", { class: "request" }, h("p", {}, `${state.names.get(r.character_id) ?? state.names.get(r.requested_by) ?? "someone"}: ${words(r.command)}`), value(r.arguments), operationForm(approve, { request_id: r.id }), operationForm(decline, { request_id: r.id })),
    ),
  );
}

function rollLog(rolls) {
  if (!rolls.length) return h("p", {}, "No rolls yet.");
  return [...rolls].reverse().map((roll) => {
    const card = rollCard(roll, state.names, verify);
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

function showCharacter(characterId) {
  const own = () => isGm() || state.characters.find((c) => c.id === characterId)?.owner_member_id === state.me.member.id;
  openView(
    "Character",
    () => region(state.view, () => get(`/v1/characters/${characterId}`), characterSheet, { id: "character-sheet" }),
    own() && role() !== "observer" ? () => commands("Character commands", "/v1/characters/{character_id}/", ["characters", ...systemTags()], { character_id: characterId }) : null,
  );
}

function characterSheet(c) {
  $("view-title").textContent = c.name;
  const row = ([name, r]) => h("tr", {}, h("th", { scope: "row" }, words(name)), h("td", {}, number(r.current)), h("td", {}, r.max === null ? "—" : number(r.max)), h("td", {}, refreshWhen(r.refresh)));
  return [
    value({ side: c.side, status: c.status, owner: state.names.get(c.owner_member_id) ?? "the GM" }),
    h("h3", {}, "Resources"),
    h(
      "table",
      { class: "resources" },
      h("thead", {}, h("tr", {}, ["resource", "now", "of", "refreshes"].map((t) => h("th", { scope: "col" }, t)))),
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
  const said = { never: "never", page: "each page", round: "each round", scene: "each scene", issue: "each game Issue", story: "each story", rest: "on a rest" };
  return said[refresh] ?? words(refresh ?? "—");
}

function showMission(missionId) {
  openView(
    "Mission",
    () => region(state.view, () => get(`/v1/missions/${missionId}`), missionCounters, { id: "mission-counters" }),
    isGm() ? () => counterForms(missionId) : null,
  );
}

function missionCounters(m) {
  $("view-title").textContent = `Mission: ${m.title}`;
  const counter = (c) =>
    h(
      "section",
      { class: "counter card", dataset: { counter: c.name } },
      h("h3", {}, `${c.label}: ${number(c.value)} of ${number(c.maximum)}`, c.zone ? h("span", { class: `zone zone-${c.zone}` }, ` ${c.zone}`) : null),
      h("meter", { min: 0, max: c.maximum, value: c.value, "aria-label": c.label }),
      c.zones.length ? h("p", { class: "hint" }, "zones: ", c.zones.map((z) => `${z.name} from ${number(z.start)}`).join(", ")) : null,
    );
  return [value({ status: m.status, outcome: m.outcome, rests: m.rest_count }), m.counters.map(counter)];
}

// The GM's counter changes (raising the alarm...) and the mission's other commands.
function counterForms(missionId) {
  const box = h("div", {});
  const change = state.ops.get("change_mission_counter");
  const formFor = (c) => h("details", { class: "card" }, h("summary", {}, `Change ${c.label}`), operationForm(change, { mission_id: missionId, counter: c.name }));
  get(`/v1/missions/${missionId}`).then((m) =>
    box.append(...m.counters.map(formFor), commands("Mission commands", "/v1/missions/{mission_id}/", ["missions"], { mission_id: missionId }, ["change_mission_counter"]) ?? ""),
  );
  return box;
}

function pick(data, keys) {
  return Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]]));
}

function drop(data, keys) {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !keys.includes(k)));
}

function boot() {
  document.documentElement.lang = navigator.language;
  const linked = takeTokenFromFragment();
  if (linked) session.token = linked;
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("join-error").textContent = "";
    session.token = $("token").value.trim();
    join();
  });
  if (session.token) join();
  else $("token").focus();
}

boot();
