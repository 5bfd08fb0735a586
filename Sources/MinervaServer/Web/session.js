// The session the page shows: the app description, creating, joining or resuming the session,
// following it live, the operations that taps make, and the earlier versions the timeline shows
// and restores. The only module that changes the store.

import * as api from "./api.js";
import { follow } from "./live.js";
import { indexState, publish, readOnly, shown, store } from "./store.js";
import { showToast } from "./toast.js";

const SAVED_SESSION_KEY = "minerva.session";
/** Events kept for the inspector, as many as the server keeps at least. */
const KEPT_EVENTS = 1000;

/** Grows with every session opened: answers that arrive for an older one are dropped. */
let epoch = 0;
let follower = null;
/** The newest version the events announced; the state is fetched until it reaches it. */
let announcedVersion = 0;
/** The epoch of the state fetch in flight for `announcedVersion`, 0 when none. */
let catchingUpIn = 0;
/** The newest event when the session was opened: the events up to it are history. */
let historyUntil = 0;
/** The page's own writes in flight (sample lists): a tap waits for them. */
let ownWrites = Promise.resolve();

/** Loads the app description in use (the screens, routes and tabs the views name) and what the
 *  server offers besides. */
export async function loadApp() {
  [store.app, store.server] = await Promise.all([api.loadApp(), api.loadServer()]);
  publish({ kind: "app" });
}

/** The session saved in this tab (a reload continues it), or null. */
function savedSession() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SAVED_SESSION_KEY) ?? "null");
    return saved && typeof saved.id === "string" && typeof saved.token === "string" ? saved : null;
  } catch {
    return null;
  }
}

/** Opens `addressed` (a session named in the address, or null), else the one saved in this tab,
 *  else a new one. */
export async function openFirstSession(addressed) {
  if (addressed && await joinSession(addressed)) return true;
  const saved = savedSession();
  if (saved) {
    try {
      open(saved, await api.loadState(saved));
      return true;
    } catch (error) {
      if (error.status !== 401) showToast(`Could not resume the session: ${error.summary}`, "warn");
    }
  }
  return newSession({});
}

/** Creates a session (`{layout}` for a single-root app, `{flags}` for one of root flows) and
 *  shows it; ends the previous one when this page created it. */
export async function newSession(options) {
  let document;
  try {
    document = await api.createSession(options);
  } catch (error) {
    showToast(`New session: ${error.summary}`, "error");
    return false;
  }
  if (store.session?.created) api.deleteSession(store.session);
  open({ id: document.id, token: document.token, created: true }, document);
  return true;
}

/** Shows an existing session, as another client made it: `{id, token}`. */
export async function joinSession({ id, token }) {
  const session = { id, token, created: false };
  try {
    open(session, await api.loadState(session));
    return true;
  } catch (error) {
    const reason = error.status === 401 ? "no session has that id and token" : error.summary;
    showToast(`Could not join ${id}: ${reason}`, "error");
    return false;
  }
}

function open(session, document) {
  epoch += 1;
  follower?.stop();
  announcedVersion = 0;
  historyUntil = document.lastEvent ?? 0;
  Object.assign(store, {
    session, access: null, state: null, index: null, events: [], truncated: false, link: undefined, updates: "connecting", past: null,
    sampleVersions: new Set(),
  });
  sessionStorage.setItem(SAVED_SESSION_KEY, JSON.stringify(session));
  publish({ kind: "session" });
  applyState(document);
  const opened = epoch;
  // A session opened with a token that only reads is followed, and offers no change.
  api.loadAccess(session)
    .then((access) => {
      if (opened !== epoch) return;
      store.access = access;
      publish({ kind: "access" });
    })
    .catch(() => {}); // the follower notices a session that is gone
  follower = follow(session, {
    // A state document without `lastEvent` comes from a server whose events record only
    // removals and finished flows: the state's own version is watched as well.
    watchState: !("lastEvent" in document),
    version: () => store.state?.version ?? 0,
    onBlock: (events) => { if (opened === epoch) receiveBlock(events); },
    onState: (state) => { if (opened === epoch) applyState(state); },
    onTruncated: () => { if (opened === epoch) reload(); },
    onEnded: () => { if (opened === epoch) ended(); },
    onMode: (mode) => { if (opened === epoch) setUpdates(mode); },
  });
}

/** App descriptions by version, each read once (a promise while it is read; null when the server
 *  keeps none of that version): a session in an experiment runs its variants' app, a moved
 *  session another version's. */
const appsByVersion = new Map();
/** The version of `store.app` as it was asked for (null: GET /v1/app's, named by its `version`). */
let shownAppVersion = null;

/** Renders a state document newer than the one shown (older answers that arrive late are dropped),
 *  with the app of its version, read first when the page shows another; a read that fails is
 *  tried again by a later state, and this one is drawn with the app shown. */
function applyState(document, appChecked = false) {
  if (!document || document.id !== store.session?.id) return;
  const previous = store.state;
  if (previous && document.version <= previous.version) return;
  const version = document.appVersion;
  if (!appChecked && version && store.app && version !== (shownAppVersion ?? store.app.version)) {
    if (!appsByVersion.has(version)) {
      appsByVersion.set(version, api.loadAppVersion(version).catch((error) => (error?.status === 404 ? null : undefined)));
    }
    const own = appsByVersion.get(version);
    if (own instanceof Promise) {
      const opened = epoch;
      own.then((app) => {
        if (app === undefined) appsByVersion.delete(version);
        else appsByVersion.set(version, app);
        applyState(document, app === undefined);
        // Changes announced while the app was read wait for a state newer than this one.
        if (opened === epoch) catchUp(0);
      });
      return;
    }
    if (own) {
      store.app = own;
      shownAppVersion = version;
      publish({ kind: "app" });
    }
  }
  const previousIndex = store.index;
  store.state = document;
  store.index = indexState(document);
  publish({ kind: "state", previous: previousIndex, animate: Boolean(previous) });
  refreshLink();
}

/** One mutation's events: logged, then shown as one transition (one state fetched for them,
 *  unless the answer of the page's own operation already brought it). */
function receiveBlock(events) {
  store.events.push(...events);
  if (store.events.length > KEPT_EVENTS) store.events.splice(0, store.events.length - KEPT_EVENTS);
  publish({ kind: "events", fresh: events, history: events[events.length - 1].seq <= historyUntil });
  const version = events[events.length - 1].version;
  if (version !== undefined) catchUp(version);
}

function catchUp(version) {
  announcedVersion = Math.max(announcedVersion, version);
  if (store.busy || catchingUpIn === epoch || !store.state || store.state.version >= announcedVersion) return;
  const opened = epoch;
  catchingUpIn = opened;
  const before = store.state.version;
  api.loadState(store.session)
    .then((document) => { if (opened === epoch) applyState(document); })
    .catch(() => {}) // the follower notices a session that is gone
    .finally(() => {
      if (catchingUpIn === opened) catchingUpIn = 0;
      if (opened === epoch && store.state.version > before) catchUp(0);
    });
}

async function reload() {
  store.truncated = true;
  publish({ kind: "events", fresh: [], history: false });
  const opened = epoch;
  try {
    const document = await api.loadState(store.session);
    if (opened === epoch) applyState(document);
  } catch {
    // the follower notices a session that is gone
  }
}

function ended() {
  setUpdates("ended");
  showToast("This session has ended (deleted or expired): start a new one, or join another.", "warn");
}

function setUpdates(mode) {
  store.updates = mode;
  publish({ kind: "updates" });
}

async function refreshLink() {
  const opened = epoch;
  const { version } = store.state;
  let link;
  try {
    link = await api.loadLink(store.session);
  } catch {
    return;
  }
  if (opened !== epoch || store.state.version !== version) return;
  store.link = link;
  publish({ kind: "link" });
}

/** What a tap was aimed at: the navigation part of a state (not its lists). */
const navigationShape = (state) =>
  JSON.stringify([state.focus, state.navigators, state.tabs, state.flags, state.pending ?? null]);

/**
 * A change of the session (a navigation operation, a detent, a result taken), sent with If-Match
 * so that a tap made on a stale screen fails with 412 instead of doing the wrong thing; its
 * answer is rendered. When the 412 came only from a change the person could not have been
 * looking at (a list replaced, the navigation the same), the tap still means what it meant, and
 * it is sent once more against the new version. An operation made while the timeline shows an
 * earlier version (a deep link typed) returns the views to live first.
 * @param {string} operation the path after the session's: `navigate`, `nodes/n3/presentation`, …
 * @param {object} options `onError`, and `method` when it is not `POST`.
 * @returns the new state, or null when the operation failed (`onError` gets the error, else a toast).
 */
export async function operate(operation, body, { onError, method } = {}) {
  if (store.busy || !store.state) return null;
  if (refuseReadOnly()) return null;
  showLive();
  setBusy(true);
  const opened = epoch;
  try {
    await ownWrites;
    for (let attempt = 0; ; attempt += 1) {
      const seen = store.state;
      try {
        const document = await api.operate(store.session, operation, withSampleLists(operation, body), seen.version, method);
        if (opened === epoch) applyState(document);
        return document;
      } catch (error) {
        if (opened !== epoch) return null;
        if (error.status === 412) {
          try { applyState(await api.loadState(store.session)); } catch { /* shown below */ }
          if (attempt === 0 && navigationShape(store.state) === navigationShape(seen)) continue;
          showToast("The screen changed meanwhile (412 precondition_failed): this is the new state — tap again.", "warn");
        } else if (error.status === 401) {
          showToast("The session is gone (401 unauthorized): started a new one.", "warn");
          await newSession(store.app?.flows ? {} : { layout: store.state?.layout });
        } else if (onError) {
          onError(error);
        } else {
          showToast(error.summary, "error");
        }
        return null;
      }
    }
  } finally {
    setBusy(false);
    if (opened === epoch) catchUp(0);
  }
}

/** Says so, and is true, when the session is open read-only: the server would answer 403. */
function refuseReadOnly() {
  if (!readOnly()) return false;
  showToast("This session is open read-only: its token may follow it, not change it (a change would be 403 forbidden).", "warn");
  return true;
}

/** A link that opens this session read-only in another window (`POST …/tokens` with scope
 *  `read`; only the owner's token may): the token travels in the address's fragment. */
export async function readOnlyLink() {
  const issued = await api.issueToken(store.session, "read", "web client");
  const fields = new URLSearchParams({ session: store.session.id, token: issued.token });
  return `${location.pathname}#${fields}`;
}

/** The operations that can add nodes: they take `sampleLists`. */
const ADDING_NODES = new Set(["push", "present", "set-root", "navigate", "deep-link", "finish", "flags"]);

/** `body`, asking the server to put their screen's sample list on the nodes the operation adds
 *  (in the same change), in a session this page created of an app that has sample lists. */
function withSampleLists(operation, body) {
  const hasSamples = Object.values(store.app?.screens ?? {}).some((screen) => screen.sampleList);
  return store.session?.created && hasSamples && ADDING_NODES.has(operation) ? { ...body, sampleLists: true } : body;
}

/**
 * Puts a list on a node as the page's own change (a screen's sample list): with If-Match, and
 * only while the node still has no list, so that it never replaces a list someone else put (a
 * 412, or the node gone meanwhile, leaves it at that); the new state is fetched at once, and a
 * tap waits for both, so that the tap's If-Match names the version after it.
 */
export function putSampleList(nodeId, list) {
  const opened = epoch;
  const { session } = store;
  ownWrites = ownWrites.then(async () => {
    const node = store.index?.nodes.get(nodeId);
    if (opened !== epoch || !node || node.list) return;
    // Matching `version`, it makes the next one: marked before it is sent, so that its event,
    // which the stream may bring before the answer, is drawn marked.
    const made = store.state.version + 1;
    store.sampleVersions.add(made);
    try {
      await api.operate(session, `nodes/${encodeURIComponent(nodeId)}/list`, list, made - 1, "PUT");
      if (opened === epoch) applyState(await api.loadState(session));
    } catch {
      // the node left, or the session changed meanwhile: its list stays as it is
      store.sampleVersions.delete(made);
    }
  });
}

/** Shows `document`, the session's state at an earlier version (`GET …/versions/{v}`), instead of
 *  the live state, which is still followed meanwhile. */
export function showPast(document) {
  if (!document || document.id !== store.session?.id) return;
  const previous = shown().index;
  store.past = { state: document, index: indexState(document) };
  publish({ kind: "past", previous });
}

/** Shows the live state again (nothing happens when it is shown already). */
export function showLive() {
  if (!store.past) return;
  const previous = store.past.index;
  store.past = null;
  publish({ kind: "past", previous });
}

/**
 * Makes the state at `version` the current one again, as a new version (`POST …/restore`), then
 * shows the live state. It is sent with If-Match, so that a change made meanwhile, which the
 * person did not see, fails it with 412 rather than being undone.
 * @returns the new state (with `restored`), or null when the restore failed (`onError` gets the
 *   error, else a toast says why; the views stay on the earlier version).
 */
export async function restore(version, { onError } = {}) {
  if (store.busy || !store.state) return null;
  if (refuseReadOnly()) return null;
  setBusy(true);
  const opened = epoch;
  try {
    await ownWrites;
    const document = await api.restore(store.session, version, store.state.version);
    if (opened !== epoch) return null;
    applyState(document);
    showLive();
    return document;
  } catch (error) {
    if (opened !== epoch) return null;
    if (error.status === 412) {
      showToast(`The session changed meanwhile (412 precondition_failed): restore again to go back to version ${version} from the newest.`, "warn");
    } else if (onError) {
      onError(error);
    } else {
      showToast(error.summary, "error");
    }
    return null;
  } finally {
    setBusy(false);
    if (opened === epoch) catchUp(0);
  }
}

function setBusy(busy) {
  store.busy = busy;
  publish({ kind: "busy" });
}
