// Following a session live. Its events arrive as server-sent events, read with fetch() so that
// the token travels in the Authorization header; a dropped stream resumes with Last-Event-ID.
// Events come in blocks, one per mutation, the last one marked `final`: each block is handed on
// whole, so that it shows as one transition. When streaming fails, the state's long poll
// (`GET …?wait=25` with If-None-Match) takes over, with the events fetched after each change.

import { ApiError, authorization, loadEvents, sessionPath, waitForState } from "./api.js";
import { readEventStream } from "./sse.js";

const LONG_POLL_SECONDS = 25;
/** Streams that fail this many times in a row give way to the long poll. A server that cannot be
 *  reached is no such failure: the stream is tried again, less and less often. */
const STREAM_ATTEMPTS = 3;
const OFFLINE_RETRY_MAX_MS = 10000;
/** A stream that ends sooner than this after opening counts as a failure. */
const SHORT_LIVED_MS = 2000;
/** How long a block without its `final` event waits for more before it is handed on anyway. */
const BLOCK_GRACE_MS = 300;
/** The long poll asks at most this often (a server that ignores `wait` answers at once). */
const MIN_POLL_INTERVAL_MS = 1000;
const OFFLINE_RETRY_MS = 2000;

const sleep = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
});

/**
 * Follows `session` until `stop()` or until the session ends.
 * @param {object} options
 *   `watchState`: also long-poll the state while streaming, for a server whose event log does
 *   not yet record every change;
 *   `version()`: the state version the page shows;
 *   `onBlock(events)`: one mutation's events (a server whose events carry no `version` makes
 *   each event a block of its own);
 *   `onState(document)`: a newer state from the long poll;
 *   `onTruncated()`: events were lost: reload the state;
 *   `onEnded()`: the session was deleted or expired;
 *   `onMode(mode)`: "stream", "stream+watch", "poll" or "offline".
 * @returns {{stop: () => void}}
 */
export function follow(session, { watchState, version, onBlock, onState, onTruncated, onEnded, onMode }) {
  const abort = new AbortController();
  const { signal } = abort;
  let lastSeq = 0;
  let retryMs = 1000;
  let block = [];
  let blockTimer = 0;
  let polling = false;
  let eventsByPoll = false;
  let streamOpen = false;
  let mode = "";
  const streamMode = watchState ? "stream+watch" : "stream";
  const setMode = (next) => {
    if (next === mode) return;
    mode = next;
    onMode(next);
  };

  const stop = () => {
    clearTimeout(blockTimer);
    abort.abort();
  };
  const end = () => {
    if (signal.aborted) return;
    stop();
    onEnded();
  };

  const flush = () => {
    clearTimeout(blockTimer);
    if (!block.length) return;
    const events = block;
    block = [];
    onBlock(events);
  };

  const receive = (event) => {
    if (event.seq <= lastSeq) return;
    lastSeq = event.seq;
    if (event.version === undefined) {
      flush();
      onBlock([event]);
      return;
    }
    if (block.length && block[0].version !== event.version) flush();
    block.push(event);
    if (event.final) flush();
    else {
      clearTimeout(blockTimer);
      blockTimer = setTimeout(flush, BLOCK_GRACE_MS);
    }
  };

  const onFrame = ({ id, type, data }) => {
    if (type === "truncated") { flush(); onTruncated(); return; }
    if (type === "ended") { flush(); end(); return; }
    let event;
    try { event = JSON.parse(data); } catch { return; }
    if (!event || typeof event !== "object") return;
    event.seq ??= Number(id);
    receive(event);
  };

  async function stream() {
    let failures = 0;
    let offlineFor = 0;
    while (!signal.aborted) {
      const opened = Date.now();
      try {
        const headers = { Accept: "text/event-stream", ...authorization(session) };
        if (lastSeq > 0) headers["Last-Event-ID"] = String(lastSeq);
        const response = await fetch(sessionPath(session, "/events"), { headers, cache: "no-store", signal });
        if (response.status === 401) { end(); return; }
        if (!response.ok || !response.body || !response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
          throw new ApiError(response.status, "stream", "no event stream");
        }
        streamOpen = true;
        setMode(streamMode);
        await readEventStream(response.body, { onFrame, onRetry: (ms) => { retryMs = ms; } });
        failures = Date.now() - opened < SHORT_LIVED_MS ? failures + 1 : 0;
        offlineFor = 0;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError) {
          failures += 1;
        } else {
          setMode("offline");
          offlineFor += 1;
        }
      }
      streamOpen = false;
      if (failures >= STREAM_ATTEMPTS) {
        eventsByPoll = true;
        try { await pollEvents(); } catch { /* the long poll fetches them after the next change */ }
        startPolling();
        return;
      }
      await sleep(Math.min(retryMs * 2 ** Math.max(0, offlineFor - 1), OFFLINE_RETRY_MAX_MS), signal);
    }
  }

  /** The events after the last seen, fetched (when the stream does not bring them). */
  async function pollEvents() {
    const answer = await loadEvents(session, lastSeq);
    if (answer.truncated && lastSeq > 0) onTruncated();
    for (const event of answer.events ?? []) receive(event);
    flush();
  }

  function startPolling() {
    if (polling || signal.aborted) return;
    polling = true;
    poll();
  }

  async function poll() {
    while (!signal.aborted) {
      const asked = Date.now();
      try {
        const state = await waitForState(session, version(), LONG_POLL_SECONDS, signal);
        if (signal.aborted) return;
        if (eventsByPoll) setMode("poll");
        else if (streamOpen) setMode(streamMode);
        if (state) {
          onState(state);
          if (eventsByPoll) await pollEvents();
        }
        const elapsed = Date.now() - asked;
        if (elapsed < MIN_POLL_INTERVAL_MS) await sleep(MIN_POLL_INTERVAL_MS - elapsed, signal);
      } catch (error) {
        if (signal.aborted) return;
        if (error.status === 401) { end(); return; }
        setMode("offline");
        await sleep(OFFLINE_RETRY_MS, signal);
      }
    }
  }

  stream();
  if (watchState) startPolling();
  return { stop };
}
