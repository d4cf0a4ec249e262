// The table's only way to the server: the public HTTP API with the member's bearer token, and the
// campaign's live stream read with fetch (EventSource cannot send Authorization; docs/stream.md).

const TOKEN_KEY = "chronicle.token";

export const session = {
  // sessionStorage: the token lives as long as the tab, never in a URL, a cookie or localStorage.
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set token(value) {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
};

// A token handed over in a link's fragment (#token=...): the browser never sends a fragment to the
// server; take it into the session and wipe it from the address bar and the history entry.
export function takeTokenFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  if (!token) return null;
  params.delete("token");
  const rest = params.toString();
  history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  return token;
}

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body?.error ?? {};
    const field = detail.field ? ` (${detail.field})` : "";
    super(`${status}: ${detail.message ?? "request failed"}${field}`);
    this.status = status;
    this.detail = detail;
  }
}

export async function call(method, path, body, { token = session.token } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store", // a 304 the browser's cache answered would hide a change
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, parsed);
  return { status: response.status, body: parsed };
}

export async function get(path) {
  return (await call("GET", path)).body;
}

// Every item of a paginated list, following `next_after` (docs/front-ends.md, "Lists").
export async function listAll(path) {
  const items = [];
  let after = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page = await get(after === null ? path : `${path}${sep}after=${after}`);
    items.push(...page.items);
    after = page.next_after;
  } while (after !== null);
  return items;
}

// Follows the campaign's stream until `signal` aborts, resuming after a dropped connection with
// Last-Event-ID so that every entry arrives once, in order. `onEntry(entry)` per log entry.
export async function follow(campaignId, onEntry, { signal, onState = () => {} }) {
  let lastId = null;
  let retry = 1000;
  while (!signal.aborted) {
    try {
      const headers = { Authorization: `Bearer ${session.token}` };
      if (lastId !== null) headers["Last-Event-ID"] = lastId;
      else headers["Last-Event-ID"] = String(await currentPosition());
      const response = await fetch(`/v1/campaigns/${campaignId}/stream?heartbeat=15`, {
        headers,
        signal,
        cache: "no-store",
      });
      if (!response.ok)
        throw Object.assign(new Error(`stream ${response.status}`), { fatal: response.status < 500 });
      onState("live");
      for await (const event of serverSentEvents(response, (ms) => (retry = ms))) {
        onEntry(JSON.parse(event.data));
        lastId = event.id; // only once the entry was handled
      }
    } catch (error) {
      if (signal.aborted || error.fatal) {
        onState(signal.aborted ? "stopped" : "failed");
        return;
      }
    }
    onState("reconnecting");
    await new Promise((resolve) => setTimeout(resolve, retry));
  }
}

// The log's position now: the stream then sends only what happens from here on.
async function currentPosition() {
  const health = await get("/health");
  return health.position;
}

async function* serverSentEvents(response, setRetry) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = {};
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (line === "") {
        if (event.data !== undefined) yield event;
        event = {};
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        const field = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (name === "retry") setRetry(Number(field));
        else event[name] = field;
      }
    }
  }
}
