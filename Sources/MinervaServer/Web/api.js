// The HTTP API: JSON requests, errors as ApiError, and the paths of a session. The token travels
// only in the Authorization header, never in a URL.

/** A failed request: `status` 0 when the server could not be reached. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** `412 precondition_failed: …`, for people. */
  get summary() {
    return this.status ? `${this.status} ${this.code}: ${this.message}` : this.message;
  }
}

/** The headers every call for `session` carries. */
export function authorization(session) {
  return { Authorization: `Bearer ${session.token}` };
}

/** `/v1/sessions/{id}` and what follows it. */
export function sessionPath(session, suffix = "") {
  return `/v1/sessions/${encodeURIComponent(session.id)}${suffix}`;
}

/**
 * A JSON request. Resolves to `{status, document}`; throws ApiError for any status that is
 * not 2xx or 304 (304 has no document).
 * @param {object} options `body` (sent as JSON), `session` (its token is sent), `headers`, `signal`.
 */
async function request(method, path, { body, session, headers = {}, signal } = {}) {
  const allHeaders = { Accept: "application/json", ...headers };
  if (body !== undefined) allHeaders["Content-Type"] = "application/json";
  if (session) Object.assign(allHeaders, authorization(session));
  let response;
  try {
    response = await fetch(path, {
      method, headers: allHeaders, cache: "no-store", signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "network", "The server cannot be reached.");
  }
  const text = await response.text();
  let document = null;
  if (text) {
    try { document = JSON.parse(text); } catch { document = null; }
  }
  if (!response.ok && response.status !== 304) {
    const error = document?.error;
    throw new ApiError(response.status, error?.code ?? "error", error?.message ?? response.statusText);
  }
  return { status: response.status, document };
}

/** The app description in use. */
export async function loadApp() {
  return (await request("GET", "/v1/app")).document;
}

/** The app description of one version: the app a session that says `appVersion` runs (a variant's,
 *  in an experiment). */
export async function loadAppVersion(version) {
  return (await request("GET", `/v1/app/versions/${encodeURIComponent(version)}`)).document;
}

/** What the server offers besides the app: `{adminAnalytics}`. */
export async function loadServer() {
  return (await request("GET", "/v1/server")).document;
}

/** A new session; its answer is the state document with `id` and `token`. */
export async function createSession({ layout, flags } = {}) {
  const body = {};
  if (layout && layout !== "stack") body.layout = layout;
  if (flags?.length) body.flags = flags;
  return (await request("POST", "/v1/sessions", { body })).document;
}

/** Ends a session; failures are ignored (it expires anyway). */
export function deleteSession(session) {
  fetch(sessionPath(session), { method: "DELETE", headers: authorization(session) }).catch(() => {});
}

/** The session's state document. */
export async function loadState(session) {
  return (await request("GET", sessionPath(session), { session })).document;
}

/**
 * The state once its version differs from `version`, or `null` when `seconds` passed first
 * (`GET …?wait=S` with `If-None-Match`).
 */
export async function waitForState(session, version, seconds, signal) {
  const { status, document } = await request("GET", sessionPath(session, `?wait=${seconds}`), {
    session, signal, headers: { "If-None-Match": `"${version}"` },
  });
  return status === 304 ? null : document;
}

/** The events after `seq`: `{events, last, truncated?}`. */
export async function loadEvents(session, seq) {
  return (await request("GET", sessionPath(session, `/events?after=${seq}`), { session })).document;
}

/**
 * The deep link that rebuilds the current state, or `null` when no route describes it. A server
 * older than the contract answers that with `404`, which means the same.
 */
export async function loadLink(session) {
  try {
    return (await request("GET", sessionPath(session, "/link"), { session })).document?.url ?? null;
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

/** A change of the session (`POST …/{operation}`, or another `method` on that path) made on the
 *  state of `version`: its answer. */
export async function operate(session, operation, body, version, method = "POST") {
  const headers = { "If-Match": `"${version}"` };
  return (await request(method, sessionPath(session, `/${operation}`), { body, session, headers })).document;
}

/** What the session's token may do (`GET …/access`): `{scope: "owner" | "read" | "write", token?}`. */
export async function loadAccess(session) {
  return (await request("GET", sessionPath(session, "/access"), { session })).document;
}

/** A new extra token of the session (`POST …/tokens`, owner only): `{id, token, scope, …}`. */
export async function issueToken(session, scope, label) {
  return (await request("POST", sessionPath(session, "/tokens"), { body: { scope, label }, session })).document;
}

/** The state document as it was at an earlier `version` (`GET …/versions/{v}`). */
export async function loadVersion(session, version) {
  return (await request("GET", sessionPath(session, `/versions/${version}`), { session })).document;
}

/** A fresh `Idempotency-Key`: 32 random hex digits (`crypto.randomUUID` needs a secure origin). */
function idempotencyKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Makes the state at `version` the current one again (`POST …/restore`), made on the state of
 * `current` and under a key of its own: its answer, the new state with `restored`.
 */
export async function restore(session, version, current) {
  const headers = { "If-Match": `"${current}"`, "Idempotency-Key": idempotencyKey() };
  return (await request("POST", sessionPath(session, "/restore"), { body: { version }, session, headers })).document;
}

/** A document of an admin path (`/v1/admin/…`) with the admin token, or throws `{status, message}`. */
export async function loadAdmin(path, token) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json", Authorization: `Bearer ${token}` }, cache: "no-store" });
  } catch {
    throw { status: 0, message: "The server cannot be reached." };
  }
  const document = await response.json().catch(() => null);
  if (!response.ok) throw { status: response.status, message: document?.error?.message ?? response.statusText };
  return document;
}
