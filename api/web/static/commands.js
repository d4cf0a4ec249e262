// Forms that send commands: the roll form (from the ruleset's check schemas) and every other
// command, generated from the OpenAPI document's operations and request bodies.

import { call } from "./api.js";
import { isGm, refreshSoon, state } from "./live.js";
import { h, words } from "./render.js";
import { fieldsFor } from "./schema.js";
import { secretChoice } from "./visibility.js";

// Runs a command and says how it went; the stream brings its effects to every member's page.
export async function submit(out, send) {
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

// One operation as a form: `known` fills path parameters (the scene on screen...), the others get a
// field each, and the body's fields come from its schema. An operation with nothing to fill in is
// a single button.
export function operationForm(op, known) {
  const missing = state.ops.pathParams(op).filter((name) => !(name in known));
  const extra = missing.map((name) => {
    const input = h("input", { id: `${op.operationId}-${name}`, required: true, autocomplete: "off" });
    return {
      name,
      input,
      element: h("div", { class: "field" }, h("label", { for: input.id }, words(name)), input),
    };
  });
  const schema = state.ops.bodySchema(op);
  const fields = schema ? fieldsFor(schema, state.ops.document, { choices: characterChoices }) : null;
  const out = h("p", { role: "status", class: "outcome" });
  const inline = !schema && !extra.length;
  const about = op.description && !inline ? h("p", { class: "hint" }, op.description.split("\n")[0]) : null;
  const form = h(
    "form",
    { class: inline ? "command inline" : "command", dataset: { operation: op.operationId } },
    about,
    extra.map((e) => e.element),
    fields ? h("div", { class: "fields" }, fields.elements) : null,
    h("button", { type: "submit" }, op.summary),
    out,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(out, () => {
      const values = { ...known, ...Object.fromEntries(extra.map((e) => [e.name, e.input.value.trim()])) };
      return call(op.method, pathOf(op, values), fields ? fields.read() : undefined);
    });
  });
  return form;
}

// The operation's path with its parameters filled from `values`.
export function pathOf(op, values) {
  return op.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(values[name]));
}

// Every operation under `prefix` in these tags, each a generated form, behind one chooser.
export function commands(title, prefix, tags, known, exclude = []) {
  const ops = state.ops.under(prefix, "POST", tags).filter((op) => !exclude.includes(op.operationId));
  if (!ops.length) return null;
  const id = `commands-${title.toLowerCase().replace(/\W+/g, "-")}`;
  const chooser = h(
    "select",
    { id },
    ops.map((op) => h("option", { value: op.operationId }, op.summary)),
  );
  const holder = h("div", {});
  const show = () => holder.replaceChildren(operationForm(state.ops.get(chooser.value), known));
  chooser.addEventListener("change", show);
  show();
  return h(
    "details",
    { class: "card commands" },
    h("summary", {}, title),
    h("div", { class: "field" }, h("label", { for: id }, "Command"), chooser),
    holder,
  );
}

// A roll for one of the member's characters (the GM: any, or none), its fields from the check's
// request schema in the ruleset.
export function rollForm(sceneId) {
  const mine = state.characters.filter((c) => isGm() || c.owner_member_id === state.me.member.id);
  if (!mine.length && !isGm()) return h("p", {}, "You have no character to roll for.");
  const who = h(
    "select",
    { id: "roll-character" },
    mine.map((c) => h("option", { value: c.id }, c.name)),
    isGm() ? h("option", { value: "" }, "no character (raw roll)") : null,
  );
  const check = h(
    "select",
    { id: "roll-check" },
    state.ruleset.checks.map((c) => h("option", { value: c.name }, words(c.name))),
  );
  const about = h("small", { id: "roll-check-about" });
  const request = h("fieldset", { class: "fields" });
  const out = h("p", { role: "status", class: "outcome" });
  const secret = secretChoice();
  let fields = null;
  const rebuild = () => {
    const chosen = state.ruleset.checks.find((c) => c.name === check.value);
    about.textContent = chosen.description;
    fields = fieldsFor(chosen.request_schema, chosen.request_schema, {
      hints: { trait: sheetNames(who.value) },
    });
    request.replaceChildren(h("legend", {}, `The ${words(chosen.name)} check`), ...fields.elements);
  };
  who.addEventListener("change", rebuild);
  check.addEventListener("change", rebuild);
  rebuild();
  const form = h(
    "form",
    { class: "card roll-form", "aria-labelledby": "roll-title" },
    h("h3", { id: "roll-title" }, "Roll"),
    h(
      "div",
      { class: "fields" },
      h("div", { class: "field" }, h("label", { for: "roll-character" }, "Who rolls"), who),
      h("div", { class: "field" }, h("label", { for: "roll-check" }, "Check"), check, about),
    ),
    request,
    secret?.element,
    h("button", { type: "submit" }, "Roll"),
    out,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(out, () => {
      const body = { check: check.value, request: fields.read() };
      if (who.value) body.character_id = who.value;
      if (secret?.read()) body.secret = true;
      return call("POST", `/v1/scenes/${sceneId}/rolls`, body);
    });
  });
  return form;
}

// A field that takes a character's id (`character_id`, `attacker_id`, `target_ids`...) offers the
// campaign's characters by name; the OpenAPI document types it as a uuid only. The ids of anything
// else are named after it.
const OTHER_IDS =
  /roll|scene|issue|story|campaign|member|mission|request|club|result|group|contest|chase|change|_by$/;

function characterChoices(name, schema) {
  const uuid = schema.format === "uuid" || schema.items?.format === "uuid";
  if (!uuid || OTHER_IDS.test(name)) return null;
  return state.characters.map((c) => [c.id, c.name]);
}

// Names on a character's sheet a check may ask for (abilities, talents, powers...).
function sheetNames(characterId) {
  const sheet = state.characters.find((c) => c.id === characterId)?.sheet ?? {};
  return Object.values(sheet).flatMap((part) =>
    part && typeof part === "object" && !Array.isArray(part) ? Object.keys(part) : [],
  );
}
