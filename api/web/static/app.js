// The web table: joins with a member's token, then shows the campaign through the public API only,
// kept current by the campaign's stream. Commands and roll forms come from the OpenAPI document and
// the ruleset's check schemas (commands.js); the scene is scene.js, sheets and missions sheets.js.

import { follow, get, listAll, session, takeTokenFromFragment } from "./api.js";
import { commands } from "./commands.js";
import { $, isGm, openView, pick, refreshSoon, region, state, systemTags } from "./live.js";
import { h, moment, number, value, words } from "./render.js";
import { showScene } from "./scene.js";
import { Operations } from "./schema.js";
import { showCharacter, showMission } from "./sheets.js";
import { characterSwitch, isHidden, proofPages, visibilityKey } from "./visibility.js";

// The OpenAPI document is public and the same for every member: read while the token is checked.
let operations = null;

async function join() {
  operations ??= get("/openapi.json");
  try {
    state.me = await get("/v1/me");
  } catch (error) {
    session.token = null;
    $("join-error").textContent =
      error.status === 401 ? "That token is not valid (revoked, expired or mistyped)." : error.message;
    $("token").focus();
    return;
  }
  const campaign = state.me.campaign;
  const [ruleset, openapi] = await Promise.all([get(`/v1/rulesets/${campaign.ruleset}`), operations]);
  state.ruleset = ruleset;
  state.ops = new Operations(openapi);
  await loadNames();
  $("join").hidden = true;
  $("table").hidden = false;
  $("leave").hidden = false;
  $("who").textContent =
    `${state.me.member.name} (${words(state.me.member.role)}) · ${campaign.name} · ${ruleset.name}`;
  $("nav").replaceChildren(region(state.panel, navigationData, navigation));
  showCampaign();
  startStream();
}

async function loadNames() {
  const id = state.me.campaign.id;
  // The campaign says what the GM keeps from the players and whether its proof pages are public.
  const [members, characters, campaign] = await Promise.all([
    listAll(`/v1/campaigns/${id}/members`),
    listAll(`/v1/campaigns/${id}/characters`),
    get(`/v1/campaigns/${id}`),
  ]);
  state.characters = characters;
  state.campaign = campaign;
  state.names.clear();
  for (const { id: key, name } of [...members, ...characters]) state.names.set(key, name);
}

function startStream() {
  const stream = new AbortController();
  const onEntry = (entry) => {
    // The entry's readable text where the stream carries one, else its type.
    const said = entry.text ?? entry.type.replace(".", " ");
    $("activity").textContent = `${said} · ${moment(entry.timestamp)}`;
    if (entry.type.startsWith("Character.") || entry.type.startsWith("Campaign."))
      loadNames().then(refreshSoon);
    else refreshSoon(entry);
  };
  const said = {
    live: "● live",
    reconnecting: "reconnecting…",
    failed: "not live (reload to retry)",
    stopped: "",
  };
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
  const issuesOf = async (story) => ({
    ...story,
    issues: await Promise.all((await listAll(`/v1/stories/${story.id}/issues`)).map(scenesOf)),
  });
  const scenesOf = async (issue) => ({ ...issue, scenes: await listAll(`/v1/issues/${issue.id}/scenes`) });
  const tree = await Promise.all(stories.map(issuesOf));
  return { stories: tree, characters, missions, seen: visibilityKey() };
}

function navigation({ stories, characters, missions }) {
  const scene = (s) =>
    h(
      "li",
      {},
      navButton(`${s.title} (${words(s.status)}, page ${number(s.page)})`, () => showScene(s.id), {
        scene: s.id,
      }),
    );
  const issue = (i) =>
    h(
      "li",
      {},
      navButton(`${i.title} (${words(i.status)})`, () => showIssue(i.id)),
      h("ul", {}, i.scenes.map(scene)),
    );
  const story = (s) =>
    h(
      "li",
      {},
      navButton(`${s.title} (${words(s.status)})`, () => showStory(s.id)),
      h("ul", {}, s.issues.map(issue)),
    );
  return [
    navButton("Campaign", showCampaign),
    h("h2", {}, "Stories"),
    stories.length ? h("ul", { class: "tree" }, stories.map(story)) : h("p", {}, "No story yet."),
    h("h2", {}, "Characters"),
    h(
      "ul",
      { class: "tree" },
      characters.map((c) =>
        h(
          "li",
          {},
          // The GM's own marks: a character hidden from the players says so, with its switch.
          navButton(`${c.name} (${words(c.side)}${isHidden(c.id) ? ", hidden" : ""})`, () =>
            showCharacter(c.id),
          ),
          characterSwitch(c),
        ),
      ),
    ),
    h("h2", {}, "Missions"),
    h(
      "ul",
      { class: "tree" },
      missions.map((m) =>
        h(
          "li",
          {},
          navButton(`${m.title} (${missionZones(m)})`, () => showMission(m.id)),
        ),
      ),
    ),
  ];
}

function navButton(label, onclick, dataset = {}) {
  return h("button", { type: "button", class: "link", onclick, dataset }, label);
}

function missionZones(mission) {
  return (
    mission.counters.map((c) => `${c.label} ${number(c.value)}${c.zone ? ` ${c.zone}` : ""}`).join(", ") ||
    words(mission.status)
  );
}

// A region showing one resource's chosen fields as values.
function facts(path, keys, attrs = {}) {
  return () =>
    region(
      state.view,
      () => get(path),
      (data) => value(pick(data, keys)),
      attrs,
    );
}

function showCampaign() {
  const id = state.me.campaign.id;
  openView(
    state.me.campaign.name,
    value({ ruleset: state.ruleset.name, you: state.me.member.name, role: state.me.member.role }),
    () =>
      region(
        state.view,
        () => listAll(`/v1/campaigns/${id}/members`),
        (members) => [h("h3", {}, "Members"), value(members.map((m) => pick(m, ["name", "role"])))],
      ),
    () => region(state.view, () => get(`/v1/campaigns/${id}`), proofPages),
    isGm()
      ? () =>
          commands("Start something", "/v1/campaigns/{campaign_id}/", ["play", "missions", "characters"], {
            campaign_id: id,
          })
      : null,
  );
}

function showStory(storyId) {
  openView(
    "Story",
    facts(`/v1/stories/${storyId}`, ["title", "status"]),
    isGm()
      ? () => commands("Story commands", "/v1/stories/{story_id}/", ["play"], { story_id: storyId })
      : null,
  );
}

function showIssue(issueId) {
  openView(
    "Game Issue",
    facts(`/v1/issues/${issueId}`, ["title", "status", "pools"]),
    isGm()
      ? () =>
          commands("Game Issue commands", "/v1/issues/{issue_id}/", ["play", ...systemTags()], {
            issue_id: issueId,
          })
      : null,
  );
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
