// What the table knows about its member and campaign, and the parts of the page that follow the log.

import { h, names } from "./render.js";

export const state = {
  me: null, // GET /v1/me
  campaign: null, // GET /v1/campaigns/{id}: its hidden characters, secret rolls, proof pages
  ruleset: null, // GET /v1/rulesets/{id}
  ops: null, // the OpenAPI document's operations
  names, // member and character ids -> names (render.js shows ids as names)
  characters: [],
  panel: [], // refreshers of the navigation
  view: [], // refreshers of the view on screen
};

// Which OpenAPI tags hold each system's operations ("play" is the lifecycle every system shares).
const SYSTEM_TAGS = {
  wcbh: ["fight", "resolve", "scene_play"],
  classd: ["classd"],
  nimble: ["nimble", "nimble_health"],
  "nwod-micro": ["nwod"],
};

export const $ = (id) => document.getElementById(id);
export const systemTags = () => SYSTEM_TAGS[state.ruleset.id] ?? [];
export const isGm = () => state.me?.member.role === "gm";
export const role = () => state.me?.member.role;

// A part of the page read again whenever the log moves: `read()` fetches its data, `show(data)`
// builds its content, only when the data changed, so an unchanged part keeps its focus and input.
export function region(scope, read, show, attrs = {}) {
  const box = h("div", { class: "region", ...attrs });
  let latest = 0;
  let shown;
  const run = async () => {
    const mine = ++latest;
    busy(+1);
    try {
      const data = await read();
      const key = JSON.stringify(data);
      if (mine !== latest || key === shown) return;
      shown = key;
      box.replaceChildren(
        ...[show(data)].flat(Infinity).filter((part) => part !== null && part !== undefined),
      );
    } catch (error) {
      if (mine === latest) box.replaceChildren(h("p", { class: "error" }, error.message));
      shown = undefined;
    } finally {
      busy(-1);
    }
  };
  scope.push(run);
  run();
  return box;
}

// `data-settled` on the page says no part is being read or about to be: the page shows everything
// it has been told of (what a test, or an assistive tool, may wait for).
let reading = 0;
function busy(change) {
  reading += change;
  document.documentElement.dataset.settled = String(reading === 0 && pending === null);
}

// Entries that come in a burst are read once; a roll changes nothing the navigation shows.
let pending = null;
let panelToo = false;
export function refreshSoon(entry = null) {
  panelToo ||= !entry?.type.startsWith("Roll.");
  clearTimeout(pending);
  pending = setTimeout(() => {
    pending = null;
    busy(+1);
    for (const run of [...(panelToo ? state.panel : []), ...state.view]) run();
    panelToo = false;
    busy(-1);
  }, 100);
  busy(0);
}

// A new view: its regions replace the last view's, and the focus moves to its heading.
export function openView(title, ...parts) {
  state.view = [];
  const heading = h("h2", { tabindex: "-1", id: "view-title" }, title);
  $("view").replaceChildren(
    heading,
    ...parts
      .map((part) => (typeof part === "function" ? part() : part))
      .flat()
      .filter(Boolean),
  );
  heading.focus();
}

export function pick(data, keys) {
  return Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]]));
}

export function drop(data, keys) {
  return Object.fromEntries(Object.entries(data).filter(([k]) => !keys.includes(k)));
}
