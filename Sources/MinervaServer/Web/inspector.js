// The inspector beside the device: the coordinator tree (with each node's UI state and the
// results it holds, which can be taken), the navigators, the session and its event log, all
// drawn from the store. The tree, the navigators and the session show the state the device
// shows: live, or the earlier version the timeline shows (muted, as the past).

import { $, formatParams, h, icon, play } from "./dom.js";
import { operate } from "./session.js";
import { isDismissible, nodeTitle, screenTitle, selectedDetent, shown, store, subscribe, visibleNavigators } from "./store.js";

/** The event log shows this many of the newest events. */
const SHOWN_EVENTS = 300;
/** Narrower than this, the inspector's two columns stack. */
const TWO_COLUMNS_MIN_WIDTH = 660;

const inspectorEl = $(".inspector");
const treeEl = $('[data-testid="inspector-tree"]');
const navigatorsEl = $('[data-testid="inspector-navigators"]');
const sessionEl = $('[data-testid="inspector-session"]');
const eventLogEl = $('[data-testid="event-log"]');
const eventCountEl = $('[data-testid="event-count"]');

const UPDATES = {
  connecting: "connecting…",
  stream: "server-sent events",
  "stream+watch": "server-sent events + state long poll",
  poll: "long poll (GET ?wait=)",
  offline: "offline: retrying",
  ended: "ended: the session is gone",
};

/** How a presented node is shown: its level, its sheet's detent, its anchor, whether the user
 *  may swipe it away. */
function presentedBadges(node) {
  const { level } = node.presentation ?? {};
  const { sheet, anchor } = node;
  return [
    level ? h("span", { class: `badge level-${level}`, title: level === "context" ? "stays inside its tab" : "covers the window" }, level) : null,
    sheet ? h("span", { class: "badge badge-sheet", title: `detents ${JSON.stringify(sheet.detents)}` },
      `detent ${selectedDetent(sheet)}`) : null,
    anchor ? h("span", { class: "badge badge-anchor", title: JSON.stringify(anchor) }, `anchor ${anchor.item ?? anchor.element}`) : null,
    isDismissible(node) ? null : h("span", { class: "badge", title: "the user may not swipe it away (nor back)" }, "not dismissible")];
}

/** A result the node holds, said in words ("result for Home: cancelled"), and a button to take
 *  it (`DELETE …/results/{screen}`), as the node's screen would once it has read it. */
function heldResult(node, screen, result) {
  const path = `nodes/${encodeURIComponent(node.id)}/results/${encodeURIComponent(screen)}`;
  const holder = nodeTitle(node);
  return h("div", {
    class: "tree-detail", "data-testid": `result-${node.id}-${screen}`,
    title: `The ${screenTitle(screen)} flow ended ${result.status}; ${holder} holds its result until its screen has read it and takes it.`,
  },
  h("span", { class: "result-says" }, "result for ", h("b", {}, holder), " from ", h("code", {}, screen), ": ",
    h("span", { class: `badge result-${result.status}` }, result.status),
    result.value === undefined ? null : [" ", h("code", { class: "tree-json" }, JSON.stringify(result.value))], " —"),
  h("button", {
    type: "button", class: "btn btn-small btn-take", "data-testid": `take-result-${node.id}-${screen}`,
    title: `DELETE …/${path}`, disabled: Boolean(store.past),
    onclick: () => operate(path, undefined, { method: "DELETE" }),
  }, "take it"));
}

/** A node's UI state and the results it holds, under its row. */
function nodeDetails(node) {
  const results = Object.entries(node.results ?? {});
  if (!node.ui && !results.length) return null;
  const ui = node.ui ? JSON.stringify(node.ui) : null;
  return h("div", { class: "tree-details" },
    ui ? h("div", { class: "tree-detail", "data-testid": `ui-${node.id}` },
      h("span", { class: "muted" }, "ui "), h("code", { class: "tree-json", title: ui }, ui)) : null,
    results.map(([screen, result]) => heldResult(node, screen, result)));
}

function renderTree() {
  const { state } = shown();
  const row = (node) => {
    const presentation = node.presentation ?? {};
    const isFocus = node.id === state.focus;
    return h("li", { class: "tree-item" },
      h("div", { class: isFocus ? "tree-row is-focus" : "tree-row", "data-tree-node": node.id },
        h("span", { class: "tree-id" }, node.id),
        h("span", { class: "tree-screen" }, node.screen),
        Object.keys(node.params ?? {}).length ? h("span", { class: "tree-params" }, formatParams(node.params)) : null,
        h("span", { class: `badge kind-${presentation.kind}` }, presentation.kind ?? "?"),
        presentation.style ? h("span", { class: "badge badge-style" }, presentation.style) : null,
        presentedBadges(node),
        node.navigator ? h("span", { class: "badge badge-nav" }, node.navigator) : null,
        node.list ? h("span", { class: "badge badge-list", title: "list version" }, `list v${node.list.version ?? "?"}`) : null,
        isFocus ? h("span", { class: "badge badge-focus" }, "focus") : null),
      nodeDetails(node),
      node.children?.length ? h("ul", { class: "tree" }, node.children.map(row)) : null);
  };
  treeEl.replaceChildren(h("ul", { class: "tree tree-root" }, row(state.root)));
}

function renderNavigators() {
  const { state, index } = shown();
  const visible = new Set(visibleNavigators(state, index));
  navigatorsEl.replaceChildren(h("div", { class: "nav-table" }, state.navigators.map((navigator) => {
    const base = navigator.id === "overlay" ? "overlay" : state.tabs ? "tab" : "base";
    const tags = [navigator.parent === null ? base : `presented by ${navigator.parent}`];
    if (navigator.embedded) tags.push("embedded");
    return h("div", { class: visible.has(navigator.id) ? "nav-row is-visible" : "nav-row", "data-navigator-row": navigator.id },
      h("div", { class: "nav-row-head" },
        h("span", { class: "nav-id" }, navigator.id),
        tags.map((tag) => h("span", { class: "badge" }, tag)),
        navigator.presented ? h("span", { class: "badge badge-presents" }, `presents ${navigator.presented}`) : null),
      h("div", { class: "nav-stack" }, navigator.stack.length
        ? navigator.stack.map((id, i) => [
          i ? icon("chevronRight", "icon tiny sep") : null,
          h("span", { class: id === state.focus ? "stack-chip is-focus" : "stack-chip" },
            h("b", {}, id), " ", index.nodes.get(id)?.screen ?? "?")])
        : h("span", { class: "muted" }, "empty")));
  })));
}

const steps = (list) => (list ?? []).map((step, i) => [i ? " › " : "", h("code", {}, step.screen),
  Object.keys(step.params ?? {}).length ? ` (${formatParams(step.params)})` : ""]);

/** The layout of what the device shows: a tab bar of stacks, a split view, or one stack (the
 *  session's `layout` is `stack` for tabs too: each tab is a stack). */
function layoutShown(state) {
  if (state.tabs) {
    return [h("code", { "data-testid": "layout" }, "tabs"),
      h("span", { class: "muted" }, ` · ${state.tabs.items.length} tabs, each a stack${state.tabs.form === "sidebar" ? ", shown as a sidebar" : ""}`)];
  }
  return h("code", { "data-testid": "layout" }, state.layout);
}

function renderSession() {
  const { state } = shown();
  const { link } = store;
  if (!state) return;
  const none = (text = "none") => h("span", { class: "muted" }, text);
  const rows = [
    ["layout", layoutShown(state)],
    ["flow", h("code", { "data-testid": "flow" }, state.flow ?? "—")],
    ["version", h("code", {}, String(state.version))],
    ["app", [h("code", { title: state.appVersion }, state.appVersion ? state.appVersion.slice(0, 12) : "—"),
      state.unknownScreens ? h("span", { class: "badge" }, ` shows ${state.unknownScreens.join(", ")}, no longer declared`) : null]],
    ["focus", h("code", {}, state.focus ?? "—")],
    state.tabs ? ["tab", h("code", {}, state.tabs.selected)] : null,
    state.layout === "split" && state.sizeClass ? ["size class", h("code", { "data-testid": "size-class-state" },
      state.collapsed ? `${state.sizeClass} · collapsed` : state.sizeClass)] : null,
    state.layout === "split" && state.displayMode ? ["display mode", h("code", { "data-testid": "display-mode-state" }, state.displayMode)] : null,
    state.layout === "split" && state.compactStack ? ["compact stack",
      h("code", { "data-testid": "compact-stack", title: "what a compact device shows as one stack" }, state.compactStack.join(" › "))] : null,
    ["link", store.past ? none("known for the live state only") // GET …/link describes the live state
      : link ? h("code", {}, link) : none(link === null ? "no route describes it" : "…")],
    ["flags", state.flags?.length ? state.flags.map((flag) => h("span", { class: "badge badge-flag" }, flag)) : none()],
    ["pending", state.pending?.operation === "deepLink"
      ? h("span", { "data-testid": "pending-link" }, h("code", {}, state.pending.url), none(` waits for flow ${state.pending.flow}`))
      : state.pending
        ? h("span", {}, steps(state.pending.steps), state.pending.flow ? none(` after flow ${state.pending.flow}`) : null)
        : none()],
    state.overlay ? ["overlay", h("span", { "data-testid": "overlay-flow" }, h("b", {}, state.overlay),
      none(` over flow ${state.flow}, which waits as it is`))] : null,
    state.heldLinks?.length ? ["held links", h("span", { "data-testid": "held-links" },
      state.heldLinks.map((url) => h("code", {}, url)), none(" wait for the focus to leave"))] : null,
    state.experiments ? ["experiments", h("span", { "data-testid": "experiments" },
      Object.entries(state.experiments).map(([key, membership]) => h("span", { class: "badge", title: membership.exposedAt
        ? `exposed ${membership.exposedAt}` : "not exposed yet: no screen where the variants differ was shown" },
      `${key}: ${membership.variant}${membership.exposedAt ? " · exposed" : ""}`)))] : null,
    ["updates", h("span", { "data-testid": "updates" }, UPDATES[store.updates] ?? store.updates)],
  ].filter(Boolean);
  sessionEl.replaceChildren(h("dl", { class: "kv" },
    rows.map(([key, value]) => h("div", { class: "kv-row", "data-kv": key }, h("dt", {}, key), h("dd", {}, value)))));
}

/** What an event says, after its type: its subject and a badge. */
function describeEvent(event) {
  const node = event.node ? [h("b", {}, event.node), " ", event.screen ?? ""] : [];
  switch (event.type) {
    case "removed":
      return [node, h("span", { class: `badge reason reason-${event.reason}` }, event.reason)];
    case "finished":
      return [[node, event.parent ? h("span", { class: "muted" }, " → ", h("b", {}, event.parent)) : null],
        h("span", { class: `badge result-${event.result?.status ?? "none"}`, title: JSON.stringify(event.result ?? null) },
          [event.result?.status ?? "—", event.result?.cause, event.result?.interactive ? "interactive" : null].filter(Boolean).join(" · "))];
    case "added":
      return [[node, event.navigator ? h("span", { class: "muted" }, " on ", event.navigator) : null],
        h("span", { class: `badge kind-${event.presentation?.kind}` }, event.presentation?.kind ?? "added")];
    case "listChanged":
      return [[h("b", {}, event.node), store.sampleVersions.has(event.version) ? h("span", {
        class: "muted", "data-testid": "sample-list-note",
        title: "This page put the sample list of a screen it shows without one: a new session has no lists, so its first screens get theirs one change after it. The page's own taps ask the server to put a screen's sample list in the change that adds its node (sampleLists).",
      }, " sample list, put by this page") : null],
      h("span", { class: "badge badge-list" }, `list v${event.from}→v${event.list}`)];
    case "tabSelected":
      return [h("b", {}, event.tab), h("span")];
    case "flagsChanged":
      return [event.flags?.length ? event.flags.join(", ") : h("span", { class: "muted" }, "none"), h("span")];
    case "heldLinksChanged":
      return [event.links?.length ? event.links.join("  ") : h("span", { class: "muted" }, "none held"), h("span", { class: "badge" }, "held links")];
    case "pendingChanged":
      if (event.pending?.operation === "deepLink") {
        return [[event.pending.url, h("span", { class: "muted" }, " for ", event.pending.flow)], h("span", { class: "badge" }, "link")];
      }
      return [event.pending ? steps(event.pending.steps) : h("span", { class: "muted" }, "dropped"),
        event.pending ? h("span", { class: "badge" }, event.pending.operation) : h("span")];
    case "flowChanged":
      return [[event.from, " → ", h("b", {}, event.to)], h("span", { class: "badge badge-flow" }, "flow")];
    case "overlayChanged":
      return [event.overlay ? h("b", {}, event.overlay) : h("span", { class: "muted" }, "gone"), h("span", { class: "badge badge-flow" }, "overlay")];
    case "paramsChanged":
      return [[h("b", {}, event.node), " ", JSON.stringify(event.params ?? {})], h("span", { class: "badge" }, "params")];
    case "sizeClassChanged":
      return [event.horizontal, h("span", { class: "badge" }, "size class")];
    case "displayModeChanged":
      return [event.mode, h("span", { class: "badge" }, "display mode")];
    case "presentationChanged":
      return [[h("b", {}, event.node), event.selected === undefined ? "" : ` detent ${event.selected}`,
        event.dismissible === undefined ? "" : event.dismissible ? " dismissible" : " not dismissible"],
      h("span", { class: "badge" }, "presentation")];
    case "uiChanged":
      return [[h("b", {}, event.node), " ", JSON.stringify(event.ui ?? {})], h("span", { class: "badge" }, "ui")];
    case "resultConsumed":
      return [[h("b", {}, event.node), " ", event.screen], h("span", { class: "badge" }, "taken")];
    case "stackChanged":
      return [[h("b", {}, event.navigator), " ", (event.stack ?? []).join(" · ")], h("span", { class: "badge" }, "reordered")];
    case "appChanged":
      return [h("span", { title: `${event.from} → ${event.to}` }, `${event.from.slice(0, 8) || "—"} → ${event.to.slice(0, 8)}`),
        h("span", { class: "badge" }, "app")];
    case "exposed":
      return [[h("b", {}, event.experiment), " ", event.variant], h("span", { class: "badge" }, "exposed")];
    case "unchanged":
      return [h("span", { class: "muted" }, `change ${event.deviceSeq} of ${event.device} changed nothing`), h("span", { class: "badge" }, "no change")];
    default:
      return [node, h("span")];
  }
}

function eventItem(event) {
  const [subject, badge] = describeEvent(event);
  return h("li", {
    class: event.final ? `event event-${event.type} is-final` : `event event-${event.type}`,
    "data-seq": event.seq, "data-version": event.version, title: event.version === undefined ? null : `version ${event.version}${event.at ? ` at ${event.at}` : ""}`,
  },
  h("span", { class: "event-seq" }, `#${event.seq}`),
  h("span", { class: "event-type" }, event.type),
  h("span", { class: "event-node" }, subject),
  badge);
}

function renderEventCount() {
  const count = store.events.length;
  eventCountEl.textContent = `${count} ${count === 1 ? "event" : "events"}${store.truncated ? " (truncated)" : ""}`;
  eventLogEl.dataset.empty = "No events yet: every change of the session is logged here as it happens.";
}

/** Logs events at the top; new ones (not the history a session had when it was opened) slide in. */
function renderEvents(fresh, history) {
  const animate = !history && store.events.length > fresh.length;
  for (const event of fresh) {
    const item = eventItem(event);
    eventLogEl.prepend(item);
    if (animate) play(item, "row-enter");
  }
  while (eventLogEl.children.length > SHOWN_EVENTS) eventLogEl.lastElementChild.remove();
  renderEventCount();
  if (store.past) markFutureEvents();
}

/** While an earlier version is shown, the events after it are dimmed: they have not happened yet. */
function markFutureEvents() {
  const version = store.past?.state.version ?? Infinity;
  for (const item of eventLogEl.children) item.classList.toggle("is-future", Number(item.dataset.version) > version);
}

/** Draws the inspector from the store from now on. */
export function startInspector() {
  new ResizeObserver(() => {
    inspectorEl.classList.toggle("is-narrow", inspectorEl.clientWidth < TWO_COLUMNS_MIN_WIDTH);
  }).observe(inspectorEl);
  subscribe((change) => {
    if (change.kind === "session") {
      eventLogEl.replaceChildren();
      renderEventCount();
    } else if (change.kind === "state" || change.kind === "past") {
      if (change.kind === "state" && store.past) return; // the earlier version stays shown
      inspectorEl.classList.toggle("is-past", Boolean(store.past));
      renderTree();
      renderNavigators();
      renderSession();
      if (change.kind === "past") markFutureEvents();
    } else if (change.kind === "events") {
      renderEvents(change.fresh, change.history);
    } else if (change.kind === "link" || change.kind === "updates") {
      renderSession();
    }
  });
}
