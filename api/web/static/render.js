// Building the page: a small element helper, values in the reader's language (Intl), roll cards.

const locale = navigator.languages?.[0] ?? navigator.language;
const numbers = new Intl.NumberFormat(locale);
const percents = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
const moments = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" });

export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// Member and character ids -> names: an id in any value shown reads as the name it stands for.
export const names = new Map();

export const number = (value) => numbers.format(value);
export const percent = (value) => percents.format(value);
export const moment = (iso) => (iso ? moments.format(new Date(iso)) : "—");
export const words = (name) => String(name).replaceAll("_", " ");
export const short = (hash) => (hash ? `${hash.slice(0, 12)}…` : "—");

// Any JSON value as readable markup: objects as definition lists, lists as lists.
export function value(data, depth = 0) {
  if (data === null || data === undefined) return "—";
  if (typeof data === "number") return number(data);
  if (typeof data === "boolean") return data ? "yes" : "no";
  if (typeof data !== "object") return names.get(data) ?? String(data);
  if (depth > 4) return JSON.stringify(data);
  if (Array.isArray(data)) {
    if (data.length === 0) return "none";
    if (data.every((item) => typeof item !== "object" || item === null)) {
      return data.map((item) => value(item, depth + 1)).join(", ");
    }
    return h(
      "ul",
      { class: "plain" },
      data.map((item) => h("li", {}, value(item, depth + 1))),
    );
  }
  const entries = Object.entries(data);
  if (entries.length === 0) return "none";
  return h(
    "dl",
    { class: "values" },
    entries.map(([key, item]) => [
      h("dt", {}, names.get(key) ?? words(key)),
      h("dd", { dataset: { field: key } }, value(item, depth + 1)),
    ]),
  );
}

// Faces grouped by label, in the order rolled, each marked: dropped (struck), rerolled (struck,
// then "→" the face that replaced it), exploded ("!" then the dice it drew).
export function faces(all) {
  const groups = new Map();
  for (const face of all) {
    if (!groups.has(face.label)) groups.set(face.label, []);
    groups.get(face.label).push(face);
  }
  const exploded = new Set(all.filter((f) => f.exploded_from !== null).map((f) => f.exploded_from));
  const rerolled = new Set(all.filter((f) => f.reroll_of !== null).map((f) => f.reroll_of));
  return h(
    "div",
    { class: "faces" },
    [...groups].map(([label, group]) =>
      h(
        "span",
        { class: "face-group" },
        h("span", { class: "label" }, `${words(label)}:`),
        group.map((f) => die(f, exploded, rerolled)),
      ),
    ),
  );
}

function die(face, exploded, rerolled) {
  const marks = [];
  if (!face.kept) marks.push(rerolled.has(face.index) ? "rerolled" : "dropped");
  if (exploded.has(face.index)) marks.push("exploded");
  if (face.reroll_of !== null) marks.push("reroll");
  const shown = face.kept ? String(face.face) : h("s", {}, String(face.face));
  return h(
    "span",
    {
      class: ["die", ...marks].join(" "),
      title: `d${face.sides}${marks.length ? ` (${marks.join(", ")})` : ""}`,
    },
    face.reroll_of !== null ? "→" : "",
    shown,
    exploded.has(face.index) ? "!" : "",
    marks.length ? h("span", { class: "visually-hidden" }, ` (${marks.join(", ")})`) : "",
  );
}

const ODDS = { success: "success", at_least: "this good or better" };
const TOTALS = ["total", "net", "successes", "margin", "damage"];

export function rollCard(roll, names, onVerify) {
  const who = names.get(roll.character_id) ?? names.get(roll.rolled_by) ?? "someone";
  const what = roll.follow_up ?? roll.check;
  const totals = TOTALS.filter((key) => typeof roll.result?.[key] === "number");
  const odds = Object.entries(roll.odds ?? {}).filter(([, chance]) => typeof chance === "number");
  const proof = h(
    "p",
    { class: "proof" },
    proofBadge(roll),
    " ",
    h("button", { type: "button", onclick: () => onVerify(roll, proof) }, "Verify"),
  );
  return h(
    "article",
    { class: "roll card", dataset: { rollId: roll.id }, "aria-label": `${who} rolled ${words(what)}` },
    h(
      "header",
      {},
      h("strong", {}, who),
      ` rolled ${words(what)}`,
      h("time", { datetime: roll.recorded_at }, moment(roll.recorded_at)),
    ),
    asked(roll.request),
    // A roll whose contents are withheld from this member (a secret GM roll) has no faces to show.
    roll.faces?.length ? faces(roll.faces) : h("p", { class: "hint" }, "faces not shown"),
    h(
      "p",
      { class: "result" },
      h("strong", { class: "outcome" }, words(roll.result?.outcome ?? "")),
      totals.map((key) => h("span", { class: "total" }, `${words(key)} ${number(roll.result[key])}`)),
    ),
    odds.length
      ? h(
          "p",
          { class: "odds" },
          "odds: ",
          odds.map(([key, chance]) => h("span", {}, `${ODDS[key] ?? words(key)} ${percent(chance)}`)),
        )
      : null,
    proof,
  );
}

// What the roller asked for: the request's values that are set (the trait, the difficulty...).
function asked(request) {
  const set = Object.entries(request ?? {}).filter(
    ([, v]) => v !== null && v !== "" && v !== 0 && v !== false && typeof v !== "object",
  );
  return set.length
    ? h(
        "p",
        { class: "asked" },
        set
          .map(([k, v]) =>
            v === true ? words(k) : `${words(k)} ${typeof v === "number" ? number(v) : words(v)}`,
          )
          .join(" · "),
      )
    : null;
}

function proofBadge(roll) {
  const revealed = roll.proof?.seed;
  return h(
    "span",
    {
      class: `badge ${revealed ? "revealed" : "sealed"}`,
      title: `commitment ${roll.proof?.commitment ?? ""}`,
    },
    revealed ? "seed revealed" : "sealed until the scene closes",
    ` · #${roll.proof?.sequence ?? "?"} · ${short(roll.proof?.hash)}`,
  );
}

// What a roll's verification says, in a sentence and a badge.
export function verdict(report) {
  const chain = report.chain?.intact;
  const match = report.recomputed?.match;
  const ok = chain && match !== false;
  const faces = report.recomputed?.revealed
    ? match
      ? "faces recomputed and matching"
      : "faces do not match"
    : "faces checkable once the seed is revealed";
  return h(
    "span",
    { class: `badge ${ok ? "ok" : "bad"}`, role: "status" },
    `${chain ? "chain intact" : "chain broken"}, ${faces}`,
  );
}
