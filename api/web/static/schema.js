// Forms generated from JSON Schemas: a ruleset's check request schemas and the OpenAPI document's
// request bodies, so that a new check or command needs no new code here.

import { h, words } from "./render.js";

let formCount = 0;

export class Operations {
  constructor(document) {
    this.document = document;
    this.byId = new Map();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        this.byId.set(op.operationId, { ...op, method: method.toUpperCase(), path });
      }
    }
  }

  get(operationId) {
    return this.byId.get(operationId);
  }

  // The operations under `prefix` (e.g. "/v1/scenes/{scene_id}/"), of these tags and this method.
  under(prefix, method, tags) {
    return [...this.byId.values()].filter(
      (op) =>
        op.method === method && op.path.startsWith(prefix) && op.tags?.some((tag) => tags.includes(tag)),
    );
  }

  bodySchema(op) {
    const schema = op.requestBody?.content?.["application/json"]?.schema;
    return schema ? resolve(schema, this.document) : null;
  }

  pathParams(op) {
    return (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  }
}

// Follows "#/components/schemas/X" (OpenAPI) and "#/$defs/X" (a ruleset's pydantic schema).
export function resolve(schema, root) {
  let seen = 0;
  while (schema?.$ref && seen++ < 20) {
    schema = schema.$ref
      .slice(2)
      .split("/")
      .reduce((node, key) => node?.[key], root);
  }
  return schema ?? {};
}

// A schema that is "X or null" is an optional X.
function unwrap(schema, root) {
  schema = resolve(schema, root);
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return { schema, nullable: false };
  const real = options.filter((option) => resolve(option, root).type !== "null");
  if (real.length === 1)
    return {
      schema: { ...schema, ...resolve(real[0], root), anyOf: undefined, oneOf: undefined },
      nullable: true,
    };
  return { schema, nullable: true };
}

// Fields for each property of an object schema; `read()` gives the body, sending only what differs
// from the schema's defaults (server-filled values stay the server's), or throws naming the field.
// `hints`: suggestions for a text field, by name; `choices(name, schema)`: the [value, label] pairs
// a field must take one (or, for a list, some) of, or null.
export function fieldsFor(schema, root, { skip = [], hints = {}, choices = () => null } = {}) {
  const id = `f${++formCount}`;
  const object = resolve(schema, root);
  const required = new Set(object.required ?? []);
  const fields = Object.entries(object.properties ?? {})
    .filter(([name]) => !skip.includes(name))
    .map(([name, property]) =>
      field(`${id}-${name}`, name, property, root, required.has(name), { hint: hints[name], choices }),
    );
  return {
    elements: fields.map((f) => f.element),
    read() {
      const body = {};
      for (const f of fields) {
        const v = f.read();
        if (v !== undefined) body[f.name] = v;
      }
      return body;
    },
  };
}

function field(id, name, property, root, required, { hint, choices }) {
  const { schema, nullable } = unwrap(property, root);
  const options = choices(name, schema);
  const label = `${schema.title ?? words(name)}${required ? " *" : ""}`;
  const help = schema.description ? h("small", { id: `${id}-help` }, schema.description) : null;
  const described = help ? `${id}-help` : undefined;
  const control = options
    ? chooser(id, schema, options, required, described)
    : controlFor(id, schema, required, nullable, hint, described);
  const element = h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control.input,
    control.list,
    help,
  );
  return { name, element, read: () => control.read(name, schema) };
}

function controlFor(id, schema, required, nullable, hint, described) {
  const common = { id, name: id, "aria-describedby": described };
  const fallback = schema.default;
  if (schema.enum) {
    const select = h(
      "select",
      { ...common, required },
      required ? null : h("option", { value: "" }, "—"),
      schema.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === fallback }, words(v))),
    );
    return {
      input: select,
      read: () => (select.value === "" ? undefined : differs(JSON.parse(select.value), fallback)),
    };
  }
  if (schema.type === "boolean") {
    const box = h("input", { ...common, type: "checkbox", checked: fallback === true });
    return { input: box, read: () => differs(box.checked, fallback ?? false) };
  }
  if (schema.type === "integer" || schema.type === "number") {
    const input = h("input", {
      ...common,
      type: "number",
      inputmode: "numeric",
      step: schema.type === "integer" ? 1 : "any",
      min: schema.minimum,
      max: schema.maximum,
      value: fallback ?? "",
      required: required && !nullable,
    });
    return {
      input,
      read: (name) => (input.value === "" ? undefined : differs(parsedNumber(input, name), fallback)),
    };
  }
  if (schema.type === "string") {
    const listId = hint?.length ? `${id}-options` : undefined;
    const input = h("input", {
      ...common,
      type: "text",
      list: listId,
      maxlength: schema.maxLength,
      value: fallback ?? "",
      placeholder: schema.examples?.[0],
      required: required && !nullable,
      autocomplete: "off",
    });
    const list = listId
      ? h(
          "datalist",
          { id: listId },
          hint.map((option) => h("option", { value: option })),
        )
      : null;
    return { input, list, read: () => (input.value === "" ? undefined : differs(input.value, fallback)) };
  }
  // Lists, objects and unions: JSON, checked before sending.
  const area = h(
    "textarea",
    { ...common, rows: 3, placeholder: "JSON" },
    fallback === undefined ? "" : JSON.stringify(fallback),
  );
  return {
    input: area,
    read: (name) => {
      if (area.value.trim() === "") return undefined;
      try {
        return differs(JSON.parse(area.value), fallback);
      } catch {
        area.focus();
        throw new Error(`${name}: not valid JSON`);
      }
    },
  };
}

// One of the given values (a character by name...), or several for a list.
function chooser(id, schema, options, required, described) {
  const many = schema.type === "array";
  const select = h(
    "select",
    { id, name: id, multiple: many, required, "aria-describedby": described },
    many || required ? null : h("option", { value: "" }, "—"),
    options.map(([v, label]) => h("option", { value: v }, label)),
  );
  return {
    input: select,
    read: () => {
      const picked = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== "");
      if (many) return picked.length ? picked : undefined;
      return picked[0];
    },
  };
}

function parsedNumber(input, name) {
  const parsed = Number(input.value);
  if (!Number.isFinite(parsed)) {
    input.focus();
    throw new Error(`${name}: not a number`);
  }
  return parsed;
}

function differs(v, fallback) {
  return JSON.stringify(v) === JSON.stringify(fallback) ? undefined : v;
}
