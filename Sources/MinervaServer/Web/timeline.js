// The inspector's timeline: a slider over the session's versions, from the oldest the server can
// still rebuild to the current one. Resting on an earlier version shows the device and the
// inspector as they were then (`GET …/versions/{v}`, fetched once per version after a short
// pause), while the session is still followed live and new versions extend the slider. The
// version shown can be restored (`POST …/restore`), or left with "Back to live".

import { loadVersion } from "./api.js";
import { $, h, icon } from "./dom.js";
import { restore, showLive, showPast } from "./session.js";
import { store, subscribe } from "./store.js";
import { showToast } from "./toast.js";

/** A version the slider rests on this long is fetched (keys and drags pass many on their way). */
const SCRUB_PAUSE_MS = 150;
/** At most this many earlier versions are kept in the page (a version never changes). */
const CACHED_VERSIONS = 200;

const panelEl = $('[data-testid="timeline"]');
const statusEl = $('[data-testid="timeline-status"]');
const bannerEl = $('[data-testid="past-banner"]');

const range = h("input", {
  type: "range", class: "timeline-range", min: 1, max: 1, step: 1, value: 1,
  "aria-label": "Version", "data-testid": "timeline-range",
});
const previousButton = h("button", {
  type: "button", class: "btn btn-small btn-step", "aria-label": "Previous version", title: "Previous version",
  "data-testid": "timeline-previous",
}, icon("chevronLeft", "icon tiny"));
const nextButton = h("button", {
  type: "button", class: "btn btn-small btn-step", "aria-label": "Next version", title: "Next version",
  "data-testid": "timeline-next",
}, icon("chevronRight", "icon tiny"));
const restoreButton = h("button", {
  type: "button", class: "btn btn-small btn-primary", "data-testid": "timeline-restore",
  title: 'POST restore {"version": …}: the version shown becomes the current state again, as a new version',
}, "Restore this version");
const liveButton = h("button", { type: "button", class: "btn btn-small", "data-testid": "timeline-live" }, "Back to live");

/** The oldest version the server can rebuild, as far as the page knows: a 404 names a newer one. */
let oldest = 1;
/** The earlier version the slider rests on, or null while it follows the live state. */
let target = null;
/** This session's earlier versions fetched so far: version -> state document. */
let cache = new Map();
let fetchTimer = 0;

/** The session's current version: the slider's end, where it shows the live state. */
const latest = () => store.state?.version ?? 1;

/** The oldest version a `404` on an earlier version names ("…can go back to versions 204 to 1201"). */
function oldestIn(error) {
  const match = error.status === 404 ? /versions (\d+) to \d+/.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}

/** Learns from a 404 that the versions before another one are gone; returns whether it did. */
function learnOldest(error) {
  const reachable = oldestIn(error);
  if (reachable === null) return false;
  oldest = reachable;
  if (target !== null && target < oldest) scrubTo(oldest);
  else render();
  return true;
}

/** Rests the slider on `version`: the newest is the live state; an earlier one is shown at once
 *  when the page has it, else fetched once the slider has rested there a moment. */
function scrubTo(version) {
  clearTimeout(fetchTimer);
  const newest = latest();
  const wanted = Math.min(Math.max(version, oldest), newest);
  if (wanted >= newest) {
    target = null;
    showLive();
    render();
    return;
  }
  target = wanted;
  render();
  const cached = cache.get(wanted);
  if (cached) showPast(cached);
  else fetchTimer = setTimeout(() => fetchVersion(wanted), SCRUB_PAUSE_MS);
}

/** Fetches an earlier version and keeps it; shows it when the slider still rests there. */
async function fetchVersion(version) {
  const { session } = store;
  let document;
  try {
    document = await loadVersion(session, version);
  } catch (error) {
    if (session !== store.session || learnOldest(error)) return;
    showToast(`Version ${version}: ${error.summary}`, "error");
    return;
  }
  if (session !== store.session) return;
  cache.set(version, document);
  if (cache.size > CACHED_VERSIONS) cache.delete(cache.keys().next().value);
  if (target === version) showPast(document);
}

/** Leaves the earlier version without restoring it; the slider keeps the keyboard's focus. */
function backToLive() {
  scrubTo(Infinity);
  range.focus();
}

/** Restores the version shown; the toast says which version it became. */
async function restoreShown() {
  const version = store.past?.state.version;
  if (version === undefined) return;
  const document = await restore(version, {
    onError: (error) => {
      if (learnOldest(error)) showToast(`Version ${version} is no longer kept: the timeline starts at ${oldest} now.`, "warn");
      else showToast(error.summary, "error");
    },
  });
  if (!document) return;
  range.focus();
  const dropped = document.restored?.listsDropped ?? [];
  showToast(`Restored version ${version} as version ${document.version}.${dropped.length
    ? ` ${dropped.join(", ")} came back without a list: its content then is no longer kept.` : ""}`, "info");
}

/** Draws the slider, its buttons, the status and the device's banner. */
function render() {
  const newest = latest();
  const at = target ?? newest;
  const loading = target !== null && store.past?.state.version !== target;
  range.min = String(Math.min(oldest, newest));
  range.max = String(newest);
  range.value = String(at);
  range.disabled = oldest >= newest;
  range.setAttribute("aria-valuetext", target === null ? `version ${newest}, live` : `version ${target} of ${newest}`);
  previousButton.disabled = at <= oldest;
  nextButton.disabled = target === null;
  restoreButton.disabled = target === null || loading || store.busy;
  liveButton.disabled = target === null;
  panelEl.classList.toggle("is-past", target !== null);
  statusEl.textContent = target === null ? `live · version ${newest}` : `version ${target} of ${newest}${loading ? " · loading…" : ""}`;
  bannerEl.hidden = target === null;
  bannerEl.textContent = target === null ? "" : `Version ${target} of ${newest} — viewing the past`;
}

/** Draws the timeline from the store from now on, and takes its slider, buttons and keys. */
export function startTimeline() {
  $(".timeline-body", panelEl).append(
    h("div", { class: "timeline-scrub" }, previousButton, range, nextButton),
    h("div", { class: "timeline-actions" }, restoreButton, liveButton));
  range.addEventListener("input", () => scrubTo(Number(range.value)));
  previousButton.addEventListener("click", () => scrubTo((target ?? latest()) - 1));
  nextButton.addEventListener("click", () => scrubTo((target ?? latest()) + 1));
  liveButton.addEventListener("click", backToLive);
  restoreButton.addEventListener("click", restoreShown);
  panelEl.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && target !== null) backToLive();
  });
  subscribe((change) => {
    if (change.kind === "session") {
      clearTimeout(fetchTimer);
      oldest = 1;
      target = null;
      cache = new Map();
    } else if (change.kind === "past" && !store.past) {
      clearTimeout(fetchTimer); // back to live: by a tap, a deep link or a restore
      target = null;
    } else if (!["state", "past", "busy"].includes(change.kind)) {
      return;
    }
    render();
  });
  render();
}
