// The web table: joins with a member's token, then shows the campaign through the public API only,
// kept current by the campaign's stream. Commands and roll forms come from the OpenAPI document and
// the ruleset's check schemas.

import { call, follow, get, listAll, session, takeTokenFromFragment } from "./api.js";
import { h, moment, number, rollCard, short, value, verdict, words } from "./render.js";
import { fieldsFor, Operations } from "./schema.js";
import { scrubber } from "./scrubber.js";

// Which OpenAPI tags hold each system's operations ("play" is the lifecycle every system shares).
const SYSTEM_TAGS = {
  wcbh: ["fight", "resolve", "scene_play"],
  classd: ["classd"],
  nimble: ["nimble", "nimble_health"],
  "nwod-micro": ["nwod"],
};
// Scene operations the table shows in a form of its own, not in the generated command list.
const OWN_FORMS = new Set(["roll"]);

const state = { me: null, ruleset: null, ops: null, names: new Map(), characters: [], panel: [], view: [], stream: null, verdicts: new Map() };
const $ = (id) => document.getElementById(id);

function isGm() {
  return state.me?.member.role === "gm";
}

// A part of the page that is read again whenever the log moves; forms sit outside regions, so a
// refresh never wipes what someone is typing.
function region(scope, load, attrs = {}) {
  const box = h("div", { class: "region", ...attrs });
  let latest = 0;
  const run = async () => {
    const mine = ++latest;
    try {
      const content = await load();
      if (mine === latest) box.replaceChildren(...[content].flat().filter(Boolean));
    } catch (error) {
      if (mine === latest) box.replaceChildren(h("p", { class: "error" }, error.message));
    }
  };
  scope.push(run);
  run();
  return box;
}

let pending = null;
function refreshSoon() {
  clearTimeout(pending);
  pending = setTimeout(() => {
    for (const run of [...state.panel, ...state.view]) run();
  }, 100);
}

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
  $("nav").replaceChildren(region(state.panel, navigation));
  showCampaign();
  startStream();
}

async function loadNames() {
  const id = state.me.campaign.id;
  const [members, characters] = await Promise.all([listAll(`/v1/campaigns/${id}/members`), listAll(`/v1/campaigns/${id}/characters`)]);
  state.characters = characters;
  state.names = new Map([...members.map((m) => [m.id, m.name]), ...characters.map((c) => [c.id, c.name])]);
}

function startStream() {
  state.stream = new AbortController();
  follow(
    state.me.campaign.id,
    (entry) => {
      $("activity").textContent = `${entry.type.replace(".", " ")} · ${moment(entry.timestamp)}`;
      if (entry.type.startsWith("Character.") || entry.type.startsWith("Campaign.")) loadNames().then(refreshSoon);
      else refreshSoon();
    },
    {
      signal: state.stream.signal,
      onState: (s) => {
        $("live").textContent = { live: "live", reconnecting: "reconnecting…", failed: "not live (reload to retry)", stopped: "" }[s];
        if (s === "live") refreshSoon(); // whatever happened while connecting
      },
    },
  );
}

function leave() {
  state.stream?.abort();
  session.token = null;
  location.reload();
}

// The campaign's stories with their game Issues and scenes, its characters and its missions.
async function navigation() {
  const id = state.me.campaign.id;
  const [stories, characters, missions] = await Promise.all([
    listAll(`/v1/campaigns/${id}/stories`),
    listAll(`/v1/campaigns/${id}/characters`),
    listAll(`/v1/campaigns/${id}/missions`),
  ]);
  const tree = await Promise.all(stories.map(storyBranch));
  return [
    h("button", { type: "button", class: "link", onclick: showCampaign }, "Campaign"),
    h("h2", {}, "Stories"),
    stories.length ? h("ul", { class: "tree" }, tree) : h("p", {}, "No story yet."),
    h("h2", {}, "Characters"),
    h("ul", { class: "tree" }, characters.map((c) => h("li", {}, navButton(`${c.name} (${words(c.side)})`, () => showCharacter(c.id))))),
    h("h2", {}, "Missions"),
    h("ul", { class: "tree" }, missions.map((m) => h("li", {}, navButton(`${m.title} (${missionZones(m)})`, () => showMission(m.id))))),
  ];
}

async function storyBranch(story) {
  const issues = await listAll(`/v1/stories/${story.id}/issues`);
  const branches = await Promise.all(
    issues.map(async (issue) => {
      const scenes = await listAll(`/v1/issues/${issue.id}/scenes`);
      return h(
        "li",
        {},
        navButton(`${issue.title} (${words(issue.status)})`, () => showIssue(issue.id)),
        h("ul", {}, scenes.map((s) => h("li", {}, navButton(`${s.title} (${words(s.status)}, page ${number(s.page)})`, () => showScene(s.id), { scene: s.id })))),
      );
    }),
  );
  return h("li", {}, navButton(`${story.title} (${words(story.status)})`, () => showStory(story.id)), h("ul", {}, branches));
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

function showCampaign() {
  const id = state.me.campaign.id;
  openView(
    state.me.campaign.name,
    () => region(state.view, async () => value({ ruleset: state.ruleset.name, you: state.me.member.name, role: state.me.member.role })),
    isGm() ? () => commands("Start something", `/v1/campaigns/{campaign_id}/`, ["play", "missions", "characters"], { campaign_id: id }, ["add_member"]) : null,
  );
}

function showStory(storyId) {
  openView(
    "Story",
    () => region(state.view, async () => value(pick(await get(`/v1/stories/${storyId}`), ["title", "status"]))),
    isGm() ? () => commands("Story commands", "/v1/stories/{story_id}/", ["play"], { story_id: storyId }) : null,
  );
}

function showIssue(issueId) {
  openView(
    "Game Issue",
    () => region(state.view, async () => value(pick(await get(`/v1/issues/${issueId}`), ["title", "status", "pools"]))),
    isGm() ? () => commands("Game Issue commands", "/v1/issues/{issue_id}/", ["play", ...systemTags()], { issue_id: issueId }) : null,
  );
}

function showScene(sceneId) {
  const known = { scene_id: sceneId };
  openView(
    "Scene",
    () => region(state.view, () => sceneHeader(sceneId), { id: "scene-header" }),
    isGm() ? () => lifecycleButtons(sceneId) : null,
    () => region(state.view, () => systemState(sceneId), { id: "system-state" }),
    state.me.member.role === "observer" ? null : () => rollForm(sceneId),
    state.me.member.role === "observer" ? null : () => commands("Commands", "/v1/scenes/{scene_id}/", ["play", ...systemTags()], known, [...OWN_FORMS, ...lifecycleOps().map((op) => op.operationId)]),
    h("h3", {}, "Live log"),
    () => region(state.view, () => rollLog(sceneId), { id: "roll-log", "aria-live": "polite" }),
    () => scrubber(state.view, region, sceneId),
  );
}

async function sceneHeader(sceneId) {
  const scene = await get(`/v1/scenes/${sceneId}`);
  $("view-title").textContent = `Scene: ${scene.title}`;
  return value({ status: scene.status, page: scene.page, seeds: scene.seeds.map((s) => ({ commitment: short(s.commitment), rolls: s.rolls, revealed: Boolean(s.revealed_seed) })) });
}

function systemTags() {
  return SYSTEM_TAGS[state.ruleset.id] ?? [];
}

// The GM's scene lifecycle: every scene operation of the shared "play" tag that needs no body.
function lifecycleOps() {
  return state.ops.under("/v1/scenes/{scene_id}/", "POST", ["play"]).filter((op) => !op.requestBody && state.ops.pathParams(op).length === 1);
}

function lifecycleButtons(sceneId) {
  return h("div", { class: "buttons" }, lifecycleOps().map((op) => operationForm(op, { scene_id: sceneId })));
}

// The system's state on the scene (its fight, its turn...): every GET of the scene in its tags.
async function systemState(sceneId) {
  const reads = state.ops.under("/v1/scenes/{scene_id}/", "GET", systemTags()).filter((op) => state.ops.pathParams(op).length === 1);
  const shown = await Promise.all(
    reads.map(async (op) => {
      try {
        const data = await get(op.path.replace("{scene_id}", sceneId));
        return h("section", { class: "card" }, h("h3", {}, op.summary), value(drop(data, ["version", "position", "receipts", "scene_id"])));
      } catch (error) {
        return error.status === 404 || error.status === 409 ? null : h("p", { class: "error" }, `${op.summary}: ${error.message}`);
      }
    }),
  );
  return shown.filter(Boolean);
}

async function rollLog(sceneId) {
  const rolls = await listAll(`/v1/campaigns/${state.me.campaign.id}/rolls?scene_id=${sceneId}`);
  if (!rolls.length) return h("p", {}, "No rolls yet.");
  return rolls.reverse().map((roll) => {
    const card = rollCard(roll, state.names, verify);
    const known = state.verdicts.get(roll.id);
    if (known) card.querySelector(".proof").append(" ", known.cloneNode(true));
    return card;
  });
}

async function verify(roll, where) {
  try {
    const badge = verdict(await get(`/v1/rolls/${roll.id}/verification`));
    state.verdicts.set(roll.id, badge);
    where.querySelector(".badge.ok, .badge.bad")?.remove();
    where.append(" ", badge.cloneNode(true));
  } catch (error) {
    where.append(" ", h("span", { class: "error" }, error.message));
  }
}

// A roll for one of the member's characters (the GM: any, or none), its fields from the check's
// request schema in the ruleset.
function rollForm(sceneId) {
  const mine = state.characters.filter((c) => isGm() || c.owner_member_id === state.me.member.id);
  const who = h("select", { id: "roll-character", name: "character" }, isGm() ? h("option", { value: "" }, "no character (raw roll)") : null, mine.map((c) => h("option", { value: c.id }, c.name)));
  const check = h("select", { id: "roll-check", name: "check" }, state.ruleset.checks.map((c) => h("option", { value: c.name }, words(c.name))));
  const about = h("p", { class: "hint", id: "roll-check-about" });
  const request = h("fieldset", {}, h("legend", {}, "The check"));
  const out = h("p", { role: "status", class: "outcome" });
  let fields = null;
  const rebuild = () => {
    const chosen = state.ruleset.checks.find((c) => c.name === check.value);
    about.textContent = chosen.description;
    fields = fieldsFor(chosen.request_schema, chosen.request_schema, { hints: { trait: sheetNames(who.value) } });
    request.replaceChildren(h("legend", {}, `The ${words(chosen.name)} check`), ...fields.elements);
  };
  who.addEventListener("change", rebuild);
  check.addEventListener("change", rebuild);
  rebuild();
  const form = h(
    "form",
    { class: "card roll-form", "aria-labelledby": "roll-title" },
    h("h3", { id: "roll-title" }, "Roll"),
    h("div", { class: "field" }, h("label", { for: "roll-character" }, "Who rolls"), who),
    h("div", { class: "field" }, h("label", { for: "roll-check" }, "Check"), check, about),
    request,
    h("button", { type: "submit" }, "Roll"),
    out,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(out, async () => {
      const body = { check: check.value, request: fields.read() };
      if (who.value) body.character_id = who.value;
      return call("POST", `/v1/scenes/${sceneId}/rolls`, body);
    });
  });
  return mine.length || isGm() ? form : h("p", {}, "You have no character to roll for.");
}

// Names on a character's sheet a check may ask for (abilities, talents, powers...).
function sheetNames(characterId) {
  const sheet = state.characters.find((c) => c.id === characterId)?.sheet ?? {};
  return Object.values(sheet).flatMap((part) => (part && typeof part === "object" && !Array.isArray(part) ? Object.keys(part) : []));
}

// Runs a command and says how it went; the stream brings its effects to every member's page.
async function submit(out, send) {
  out.className = "outcome";
  out.textContent = "…";
  try {
    const answer = await send();
    out.textContent = answer.status === 202 ? "Asked the GM: waiting for approval." : "Done.";
    refreshSoon();
  } catch (error) {
    out.className = "outcome error";
    out.textContent = error.message;
  }
}

// Every operation under `prefix` in these tags, as generated forms behind a chooser.
function commands(title, prefix, tags, known, exclude = []) {
  const ops = state.ops.under(prefix, "POST", tags).filter((op) => !exclude.includes(op.operationId));
  if (!ops.length) return null;
  const id = `cmd-${Object.values(known)[0]}`;
  const chooser = h("select", { id }, ops.map((op) => h("option", { value: op.operationId }, op.summary)));
  const holder = h("div", {});
  const show = () => holder.replaceChildren(operationForm(state.ops.get(chooser.value), known));
  chooser.addEventListener("change", show);
  show();
  return h("details", { class: "card commands" }, h("summary", {}, title), h("div", { class: "field" }, h("label", { for: id }, "Command"), chooser), holder);
}

function operationForm(op, known) {
  const missing = state.ops.pathParams(op).filter((name) => !(name in known));
  const extra = missing.map((name) => {
    const input = h("input", { id: `${op.operationId}-${name}`, required: true, autocomplete: "off" });
    return { name, input, element: h("div", { class: "field" }, h("label", { for: input.id }, words(name)), input) };
  });
  const schema = state.ops.bodySchema(op);
  const fields = schema ? fieldsFor(schema, state.ops.document) : null;
  const out = h("p", { role: "status", class: "outcome" });
  const form = h("form", { class: schema || extra.length ? "command" : "command inline", dataset: { operation: op.operationId } }, op.description && schema ? h("p", { class: "hint" }, op.description.split("\n")[0]) : null, extra.map((e) => e.element), fields?.elements, h("button", { type: "submit" }, op.summary), out);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(out, () => {
      const values = { ...known, ...Object.fromEntries(extra.map((e) => [e.name, e.input.value.trim()])) };
      const path = op.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(values[name]));
      return call(op.method, path, fields ? fields.read() : undefined);
    });
  });
  return form;
}

function showCharacter(characterId) {
  openView(
    "Character",
    () => region(state.view, () => characterSheet(characterId), { id: "character-sheet" }),
  );
}

async function characterSheet(characterId) {
  const c = await get(`/v1/characters/${characterId}`);
  $("view-title").textContent = c.name;
  const resources = Object.entries(c.resources ?? {});
  return [
    value({ side: c.side, status: c.status, owner: state.names.get(c.owner_member_id) ?? "the GM" }),
    h("h3", {}, "Resources"),
    h(
      "table",
      { class: "resources" },
      h("thead", {}, h("tr", {}, ["resource", "now", "of", "refreshes"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, resources.map(([name, r]) => h("tr", {}, h("th", { scope: "row" }, words(name)), h("td", {}, number(r.current)), h("td", {}, r.max === null ? "—" : number(r.max)), h("td", {}, refreshWhen(r.refresh))))),
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
    () => region(state.view, () => missionCounters(missionId), { id: "mission-counters" }),
    isGm() ? () => counterForms(missionId) : null,
  );
}

async function missionCounters(missionId) {
  const m = await get(`/v1/missions/${missionId}`);
  $("view-title").textContent = `Mission: ${m.title}`;
  return [
    value({ status: m.status, outcome: m.outcome, rests: m.rest_count }),
    m.counters.map((c) =>
      h(
        "section",
        { class: "counter card", dataset: { counter: c.name } },
        h("h3", {}, `${c.label}: ${number(c.value)} of ${number(c.maximum)}`, c.zone ? h("span", { class: `zone zone-${c.zone}` }, ` ${c.zone}`) : null),
        h("meter", { min: 0, max: c.maximum, value: c.value, "aria-label": c.label }),
        c.zones.length ? h("p", { class: "hint" }, "zones: ", c.zones.map((z) => `${z.name} from ${number(z.start)}`).join(", ")) : null,
      ),
    ),
  ];
}

// The GM's counter changes (raising the alarm...) and the mission's other commands.
function counterForms(missionId) {
  const box = h("div", {});
  const change = state.ops.get("change_mission_counter");
  get(`/v1/missions/${missionId}`).then((m) =>
    box.append(
      ...m.counters.map((c) => h("details", { class: "card" }, h("summary", {}, `Change ${c.label}`), operationForm(change, { mission_id: missionId, counter: c.name }))),
      commands("Mission commands", "/v1/missions/{mission_id}/", ["missions"], { mission_id: missionId }, ["change_mission_counter"]) ?? "",
    ),
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
  $("leave").addEventListener("click", leave);
  if (session.token) join();
  else $("token").focus();
}

boot();
