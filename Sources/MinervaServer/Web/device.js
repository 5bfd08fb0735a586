// The device: the focused navigation state drawn as a phone (a tablet for a split view in
// columns). A base layer holds the visible stack (or the split view's columns, or the one stack
// a compact split view shows) and the tab bar; each presented navigator is a layer above it: a
// window-level one over the whole device, a context-level one inside its tab or column. Pages
// slide as stacks push and pop, modals rise and fall by style, a sheet stands at its detent and
// a popover points at its anchor. An earlier version that the timeline shows is drawn the same
// way, muted and out of reach of taps. An overlay flow (a PIN lock) is a layer over all of it,
// the flow beneath drawn as it stays, out of reach of taps.

import { $, append, formatParams, h, hasIcon, icon, onDrag, play, rectWithin, stopAnimation, zoomOf } from "./dom.js";
import { screenPage } from "./screen.js";
import { operate } from "./session.js";
import {
  baseNavigators, detentId, modalMode, OVERLAY, presentedChain, readOnly, selectedDetent, shown, staysInContext, store, subscribe, swipeable,
  tabLabel,
} from "./store.js";

const deviceEl = $('[data-testid="device"]');
const layersEl = $('[data-testid="layers"]');
const captionEl = $('[data-testid="stage-caption"]');
const sizeClassEl = $('[data-testid="size-class"]');
const displayModeEl = $('[data-testid="display-mode"]');
const displayModeSelect = $('[data-testid="display-mode-select"]');
const lockButton = $('[data-testid="overlay-lock"]');
/** A split view's display modes (`POST …/display-mode`); the `two…` ones need three columns. */
const DISPLAY_MODES = ["automatic", "secondaryOnly", "oneBesideSecondary", "oneOverSecondary",
  "twoBesideSecondary", "twoOverSecondary", "twoDisplaceSecondary"];

/** Narrower than this, the page shows a split view as one stack, whatever its size class. */
const NARROW = window.matchMedia("(max-width: 699px)");
/** The key of the one stack that a split view shows when compact (its `compactStack`). */
const COMPACT = "compact";
const MODES = ["sheet", "popover", "cover"];
/** A sheet pulled down this share of its height below its lowest detent is swiped away. */
const DISMISS_PULL = 0.3;
/** A popover's card (its height shrinks to the room beside its anchor), the room it keeps from the
 *  screen's edges (more at the top, for the status bar) and the length of its arrow (device pixels). */
const POPOVER = { width: 300, height: 360, minHeight: 160, margin: 12, marginTop: 32, arrow: 10 };

/** The drawn device, rebuilt for each session. */
let view = emptyView();

function emptyView() {
  return {
    baseLayer: null,
    /** flow, layout, tabs and columns of the base layer: when they change it is built again. */
    baseKey: "",
    /** Whether the split view shows as one stack. */
    oneStack: false,
    tabBar: null,
    tabBarKey: "",
    /** navigator id (or COMPACT) -> {element, top}: the stack view and the node on top of it. */
    stacks: new Map(),
    /** navigator id -> layer element. */
    presentedLayers: new Map(),
    /** The overlay flow's layer over the whole device, while one is shown. */
    overlayLayer: null,
    /** node id -> its page ({element, update}). */
    pages: new Map(),
  };
}

/** Scales the device down (CSS zoom) when the window is too small for it. */
function fitDevice() {
  const stage = deviceEl.parentElement;
  const tablet = deviceEl.classList.contains("tablet");
  const natural = tablet ? { width: 780, height: 560 } : { width: 362, height: 748 };
  const narrow = window.matchMedia("(max-width: 1100px)").matches;
  const below = captionEl.offsetHeight + (sizeClassEl.hidden ? 0 : sizeClassEl.offsetHeight + 12)
    + (lockButton.hidden ? 0 : lockButton.offsetHeight + 12);
  const height = narrow ? window.innerHeight - 60 : stage.clientHeight - below - 16;
  const width = narrow ? stage.clientWidth : Infinity;
  const zoom = Math.max(0.4, Math.min(1, height / natural.height, width / natural.width));
  deviceEl.style.zoom = String(Math.round(zoom * 1000) / 1000);
}

/** The page of a node: the one drawn already (called back if it was leaving), or a new one. */
function page(nodeId) {
  const drawn = view.pages.get(nodeId);
  if (drawn) {
    stopAnimation(drawn.element);
    drawn.element.classList.remove("exiting");
    drawn.element.removeAttribute("inert");
    return drawn;
  }
  const created = screenPage(nodeId);
  view.pages.set(nodeId, created);
  return created;
}

/** The stack a base navigator is drawn in: its own, or the compact one. */
const keyOf = (navigatorId) =>
  (view.oneStack && navigatorId !== OVERLAY && shown().index.navigators.get(navigatorId)?.parent === null ? COMPACT : navigatorId);

/** The node ids of a stack, bottom first, in a state's index. */
const stackIds = (index, key) => (key === COMPACT ? index.compactStack : index.navigators.get(key)?.stack ?? []);

function stackView(key) {
  let stack = view.stacks.get(key);
  if (!stack) {
    stack = { element: h("div", { class: "stack-view", "data-navigator": key }), top: undefined };
    view.stacks.set(key, stack);
  }
  return stack.element;
}

const emptyColumn = () => h("div", { class: "page page-empty" },
  h("div", { class: "empty-note" }, icon("grid", "icon empty-icon"), h("p", {}, "Nothing selected"),
    h("p", { class: "muted" }, "Navigate from the column before it to fill this one.")));

/** How the top of a stack changed: "push", "pop", or "fade" (a column's new root). */
function transitionKind(key, before, ids, top) {
  const kind = shown().index.nodes.get(top)?.presentation?.kind;
  if (key !== COMPACT && (kind === "detail" || kind === "supplementary") && ids.length === 1) return "fade";
  return before.includes(top) ? "pop" : "push";
}

/** Shows the top of a stack; a new top slides in (push) or the old one out (pop). */
function updateStack(key, previous, animate) {
  const element = stackView(key);
  const stack = view.stacks.get(key);
  const ids = stackIds(shown().index, key);
  const context = { ids, name: key === COMPACT ? "the compact stack" : `navigator ${key}` };
  const top = ids[ids.length - 1] ?? null;
  const oldTop = stack.top;
  if (top === oldTop) {
    if (top) view.pages.get(top)?.update(context);
    return;
  }
  stack.top = top;
  const oldPage = oldTop ? view.pages.get(oldTop)?.element : null;
  let newPage;
  if (top) {
    const topPage = page(top);
    topPage.update(context);
    newPage = topPage.element;
  } else {
    newPage = emptyColumn();
  }
  for (const child of [...element.children]) if (child.classList.contains("page-empty") && child !== newPage) child.remove();
  if (newPage.parentElement !== element || element.lastElementChild !== newPage) element.append(newPage);

  if (!oldPage || oldPage.parentElement !== element) return;
  const before = previous && (key === COMPACT || previous.navigators.has(key)) ? stackIds(previous, key) : null;
  if (!animate || !before || !top) {
    oldPage.remove();
    return;
  }
  const kind = transitionKind(key, before, ids, top);
  oldPage.classList.add("exiting");
  oldPage.setAttribute("inert", "");
  stripTestIds(oldPage);
  play(oldPage, `exit-${kind}`, () => {
    oldPage.remove();
    oldPage.classList.remove("exiting");
    oldPage.removeAttribute("inert");
  });
  play(newPage, `enter-${kind}`);
}

function stripTestIds(root) {
  for (const node of root.querySelectorAll("[data-role]")) node.removeAttribute("data-testid");
}

/** nav-title, back-button and close-button name the focused screen's navigation bar only. */
function assignTestIds() {
  stripTestIds(layersEl);
  const focusPage = view.pages.get(shown().state.focus)?.element;
  for (const { element } of view.pages.values()) element.classList.toggle("is-focus", element === focusPage);
  if (!focusPage || focusPage.classList.contains("exiting")) return;
  for (const node of focusPage.querySelectorAll(":scope > .nav-bar [data-role]")) node.dataset.testid = node.dataset.role;
}

function renderTabBar() {
  const { tabs } = shown().state;
  const labels = tabs.items.map(tabLabel);
  const key = JSON.stringify([tabs, labels]);
  if (view.tabBarKey === key) return;
  view.tabBarKey = key;
  view.tabBar.replaceChildren(...tabs.items.map((item, i) => {
    const selected = item.id === tabs.selected;
    return h("button", {
      type: "button", class: selected ? "tab is-selected" : "tab", "data-testid": `tab-${item.id}`, "aria-pressed": String(selected),
      title: selected ? `POST pop {"navigator": "${item.navigator}", "toRoot": true}` : `POST select-tab {"tab": "${item.id}"}`,
      onclick: () => {
        if (!selected) operate("select-tab", { tab: item.id });
        // A second tap on the selected tab pops it to its root, as iOS does.
        else if ((shown().index.navigators.get(item.navigator)?.stack.length ?? 0) > 1) operate("pop", { navigator: item.navigator, toRoot: true });
      },
    }, icon(hasIcon(item.id) ? item.id : "grid", "icon tab-icon"), h("span", {}, labels[i]));
  }));
}

/** Where a display mode puts a split view's column `i` of `count` (the last is `detail`):
 *  "shown" beside the others, "over" laid over `detail`, or "hidden". An unknown mode shows all. */
function columnPlacement(mode, i, count) {
  const detail = count - 1;
  switch (mode) {
    case "secondaryOnly": return i === detail ? "shown" : "hidden";
    case "oneBesideSecondary": return i >= count - 2 ? "shown" : "hidden";
    case "oneOverSecondary": return i === detail ? "shown" : i === count - 2 ? "over" : "hidden";
    case "twoOverSecondary": return i === detail ? "shown" : "over";
    default: return "shown";
  }
}

/** The split view's columns, side by side as its display mode says; the one holding the focus is marked. */
function renderColumns(content, bases) {
  const { state, index } = shown();
  const columns = bases.map((id) => {
    const element = stackView(id);
    return element.parentElement?.classList.contains("column") ? element.parentElement
      : h("div", { class: "column", "data-column": id }, element);
  });
  if (columns.length !== content.children.length || columns.some((column, i) => content.children[i] !== column)) {
    content.replaceChildren(...columns);
  }
  content.dataset.columns = String(columns.length);
  const mode = state.displayMode ?? "automatic";
  content.dataset.displayMode = mode;
  content.toggleAttribute("data-over", bases.some((_, i) => columnPlacement(mode, i, bases.length) === "over"));
  for (const [i, id] of bases.entries()) {
    const column = stackView(id).parentElement;
    const placement = columnPlacement(mode, i, bases.length);
    column.classList.toggle("is-hidden", placement === "hidden");
    column.classList.toggle("is-over", placement === "over");
    const holdsFocus = [id, ...presentedChain(index, id)].some((nav) => index.navigators.get(nav)?.stack.includes(state.focus));
    column.classList.toggle("is-focus", holdsFocus);
    column.classList.toggle("is-empty", index.navigators.get(id).stack.length === 0);
  }
}

/** The base layer: one stack view (or the split view's columns) and the tab bar. */
function renderBase(bases, previous, animate) {
  const content = view.baseLayer.querySelector(":scope > .base-content");
  const columns = shown().state.layout === "split" && !view.oneStack;
  const keys = columns ? bases : [view.oneStack ? COMPACT : bases[0]].filter(Boolean);
  if (columns) {
    renderColumns(content, bases);
  } else if (keys.length) {
    const element = stackView(keys[0]);
    const current = content.firstElementChild;
    if (current !== element) {
      content.replaceChildren(element);
      if (current && animate) play(element, "enter-tab");
    }
  }
  for (const key of keys) updateStack(key, previous, animate);
  if (view.tabBar) renderTabBar();
}

/** The root node of a presented navigator, in the state shown. */
function rootOf(navigatorId) {
  const { index } = shown();
  return index.nodes.get(index.navigators.get(navigatorId)?.stack[0]) ?? null;
}

const cardOf = (layer) => layer.querySelector(":scope > .card");

/** A layer for a presented navigator; `isNew` when it was made just now. */
function presentedLayer(navigatorId) {
  const drawn = view.presentedLayers.get(navigatorId);
  if (drawn) return { layer: drawn, isNew: false };
  const style = rootOf(navigatorId)?.presentation?.style ?? "automatic";
  const layer = h("section", { class: `layer layer-presented style-${style}`, "data-navigator": navigatorId, "data-style": style });
  const grabber = h("button", {
    type: "button", class: "grabber", "data-testid": "sheet-grabber", hidden: true,
    onclick: () => cycleDetent(layer),
  });
  append(layer, [
    h("div", { class: "backdrop", onclick: () => tapOutside(layer) }),
    h("div", { class: "popover-arrow" }),
    h("div", { class: "card" }, grabber, stackView(navigatorId))]);
  dragSheet(layer);
  view.presentedLayers.set(navigatorId, layer);
  return { layer, isNew: true };
}

/** Where a sheet's card stands at each of its detents: `{id, top}`, its top edge in the layer's
 *  pixels. Medium is half the screen, large all of it but a strip, an app's own detent its height
 *  in points on this device (`--pt`). */
function detentStops(layer, sheet) {
  const height = layer.offsetHeight;
  const style = getComputedStyle(layer);
  const largeTop = parseFloat(style.getPropertyValue("--large-top"));
  const pt = parseFloat(style.getPropertyValue("--pt"));
  return sheet.detents.map((detent) => {
    const id = detentId(detent);
    const top = id === "medium" ? height / 2 : typeof detent === "string" ? largeTop : height - detent.height * pt;
    return { id, top: Math.max(top, largeTop) };
  });
}

/** Stands a sheet's card at `detent` (its selected one unless given): dimmed below up to
 *  `undimmedUpTo`, and full-height at large (or without detents, where it recesses what is below). */
function standAtDetent(layer, node, detent = node.sheet ? selectedDetent(node.sheet) : "large") {
  const card = cardOf(layer);
  const { sheet } = node;
  layer.dataset.detent = detent;
  layer.classList.toggle("has-detents", Boolean(sheet));
  layer.classList.toggle("is-full", detent === "large");
  if (!sheet) {
    card.style.top = "";
    layer.classList.remove("is-undimmed");
    return;
  }
  const stops = detentStops(layer, sheet);
  const stop = stops.find((each) => each.id === detent) ?? stops[0];
  card.style.top = `${stop.top}px`;
  const undimmed = stops.find((each) => each.id === sheet.undimmedUpTo);
  layer.classList.toggle("is-undimmed", Boolean(undimmed) && stop.top >= undimmed.top);
}

/** Asks for another detent (`POST …/presentation`): the card goes there at once, and back to the
 *  state's detent when the server refuses. */
async function selectDetent(layer, node, detent) {
  if (detent === selectedDetent(node.sheet)) {
    standAtDetent(layer, node);
    return;
  }
  standAtDetent(layer, node, detent);
  const answer = await operate(`nodes/${encodeURIComponent(node.id)}/presentation`, { selected: detent });
  const now = rootOf(layer.dataset.navigator);
  if (!answer && now?.sheet && layer.dataset.mode === "sheet") standAtDetent(layer, now);
}

/** A tap on the grabber: the next taller detent, after the tallest the shortest, as UIKit's. */
function cycleDetent(layer) {
  const node = rootOf(layer.dataset.navigator);
  if (!node?.sheet) return;
  const stops = detentStops(layer, node.sheet).sort((a, b) => b.top - a.top);
  const at = stops.findIndex((stop) => stop.id === selectedDetent(node.sheet));
  selectDetent(layer, node, stops[(at + 1) % stops.length].id);
}

/** The user's swipe or tap that closes a presented node: `dismiss` with `interactive` (never while
 *  it or a screen on its stack says it is not dismissible). */
function dismissByUser(node) {
  if (!swipeable(node)) return;
  operate("dismiss", { node: node.id, interactive: true });
}

/** A sheet follows a drag of its grabber or navigation bar: let go, it stands at the nearest
 *  detent, or leaves when pulled well below the lowest (unless it is not dismissible). */
function dragSheet(layer) {
  const card = cardOf(layer);
  let start = 0;
  onDrag(card, {
    onStart: (event) => {
      const handle = event.target.closest(".grabber, .nav-bar");
      if (layer.dataset.mode !== "sheet" || !handle || event.target.closest("button:not(.grabber), input, a")) return false;
      start = card.offsetTop;
      return true;
    },
    onMove: ({ dy }) => {
      layer.classList.add("is-dragging");
      card.style.top = `${Math.max(start + dy / zoomOf(layer), 0)}px`;
    },
    onEnd: ({ dy }, cancelled) => {
      layer.classList.remove("is-dragging");
      const node = rootOf(layer.dataset.navigator);
      if (node) settleSheet(layer, node, start, cancelled ? start : start + dy / zoomOf(layer));
    },
  });
}

/** Where a sheet dragged from `start` to `top` goes. */
function settleSheet(layer, node, start, top) {
  const stops = node.sheet ? detentStops(layer, node.sheet) : [{ id: null, top: start }];
  const lowest = Math.max(...stops.map((stop) => stop.top));
  if (top > lowest + (layer.offsetHeight - lowest) * DISMISS_PULL && swipeable(node)) {
    dismissByUser(node);
    return;
  }
  const nearest = stops.reduce((best, stop) => (Math.abs(stop.top - top) < Math.abs(best.top - top) ? stop : best));
  if (node.sheet) selectDetent(layer, node, nearest.id);
  else standAtDetent(layer, node);
}

/** A tap beside a popover, or on the dimmed screen above a sheet short of large, closes it. */
function tapOutside(layer) {
  const node = rootOf(layer.dataset.navigator);
  const { mode, detent } = layer.dataset;
  const shortSheet = mode === "sheet" && detent !== "large" && !layer.classList.contains("is-undimmed");
  if (node && (mode === "popover" || shortSheet)) dismissByUser(node);
}

/** Where a popover points, in the layer's pixels: the cell or control it names on the page that
 *  presented it, else the rect its client gave, else nothing (a deep link's popover). */
function anchorRect(layer, node) {
  const { anchor } = node;
  const presenter = view.pages.get(shown().index.parents.get(node.id))?.element;
  const selector = anchor?.item ? `[data-item-id="${CSS.escape(anchor.item)}"]`
    : anchor?.element ? `[data-anchor="${CSS.escape(anchor.element)}"]` : null;
  const target = selector ? presenter?.querySelector(selector) : null;
  if (target?.getClientRects().length) return rectWithin(target, layer);
  return anchor?.rect ?? null;
}

/** Puts a popover's card beside its anchor, on the side with more room (below when it fits),
 *  with its arrow pointing at it; without an anchor it stands in the middle. */
function placePopover(layer, node) {
  const card = cardOf(layer);
  const arrow = layer.querySelector(":scope > .popover-arrow");
  const { offsetWidth: width, offsetHeight: height } = layer;
  const { margin, marginTop, arrow: gap } = POPOVER;
  const cardWidth = Math.min(POPOVER.width, width - 2 * margin);
  const [x, y, w, hgt] = anchorRect(layer, node) ?? [width / 2, (height - POPOVER.height) / 2 - gap, 0, 0];
  const roomBelow = height - margin - (y + hgt + gap);
  const roomAbove = y - gap - marginTop;
  const below = roomBelow >= POPOVER.height || roomBelow >= roomAbove;
  const cardHeight = Math.max(Math.min(POPOVER.height, below ? roomBelow : roomAbove), POPOVER.minHeight);
  const top = Math.min(Math.max(below ? y + hgt + gap : y - gap - cardHeight, marginTop), height - margin - cardHeight);
  const left = Math.min(Math.max(x + w / 2 - cardWidth / 2, margin), width - margin - cardWidth);
  Object.assign(card.style, { left: `${left}px`, top: `${top}px`, width: `${cardWidth}px`, height: `${cardHeight}px` });
  Object.assign(arrow.style, {
    left: `${Math.min(Math.max(x + w / 2, left + 20), left + cardWidth - 20)}px`,
    top: `${below ? top : top + cardHeight}px`,
  });
  layer.dataset.arrow = below ? "up" : "down";
}

/** Draws a presented layer as its node says: a sheet, a popover or a cover, at its level. */
function shapeLayer(layer, node, compact) {
  const mode = modalMode(node, compact);
  layer.dataset.mode = mode;
  for (const each of MODES) layer.classList.toggle(`is-${each}`, each === mode);
  layer.classList.toggle("is-context", staysInContext(node));
  const card = cardOf(layer);
  card.querySelector(":scope > .grabber").hidden = !(mode === "sheet" && node.sheet?.grabber);
  if (mode !== "popover") for (const property of ["left", "width", "height"]) card.style[property] = "";
  if (mode === "sheet") {
    standAtDetent(layer, node);
  } else {
    card.style.top = "";
    delete layer.dataset.detent;
  }
}

/** Takes away the presented layers no longer shown: dismissed ones fall, those of a tab that is
 *  not selected just go. */
function removeLayers(wanted, animate) {
  const { index } = shown();
  for (const [id, layer] of view.presentedLayers) {
    if (wanted.has(id)) continue;
    view.presentedLayers.delete(id);
    if (index.navigators.has(id) || !animate) {
      layer.remove();
      continue;
    }
    layer.classList.add("exiting");
    layer.setAttribute("inert", "");
    stripTestIds(layer);
    play(layer, `exit-${layer.dataset.mode}`, () => layer.remove());
  }
}

/** The presented layers of each base navigator, bottom first: a window-level one above the whole
 *  device, a context-level one inside what presents it (its tab, its column, its modal). */
function renderPresented(chains, compact, previous, animate) {
  removeLayers(new Set(chains.flatMap((chain) => chain.slice(1))), animate);
  const windowLayers = [];
  const popovers = [];
  for (const chain of chains) {
    let host = stackView(keyOf(chain[0])).parentElement;
    // The overlay stands above everything drawn before it; what it presents at window level, above it.
    if (chain[0] === OVERLAY) windowLayers.push(view.overlayLayer);
    for (const id of chain.slice(1)) {
      const node = rootOf(id);
      const { layer, isNew } = presentedLayer(id);
      if (staysInContext(node)) {
        if (layer.parentElement !== host || host.lastElementChild !== layer) host.append(layer);
      } else {
        const below = windowLayers[windowLayers.length - 1] ?? view.baseLayer;
        if (below.nextElementSibling !== layer) below.after(layer);
        windowLayers.push(layer);
      }
      updateStack(id, previous, animate && !isNew);
      shapeLayer(layer, node, compact);
      if (layer.dataset.mode === "popover") popovers.push([layer, node]);
      // A navigator presented just now rises; one shown again by a tab switch just appears.
      if (isNew && animate && !previous?.navigators.has(id)) play(layer, `enter-${layer.dataset.mode}`);
      host = cardOf(layer);
    }
  }
  for (const [layer, node] of popovers) placePopover(layer, node);
  guardLayers(chains, windowLayers);
}

/** The overlay flow's layer, over the base layer and every presentation of the flow beneath: made
 *  when an overlay comes (rising), taken away when it leaves (falling). */
function renderOverlay(state, previous, animate) {
  if (!state.overlay) {
    const layer = view.overlayLayer;
    view.overlayLayer = null;
    view.stacks.delete(OVERLAY);
    if (!layer) return;
    layer.setAttribute("inert", "");
    stripTestIds(layer);
    if (animate) play(layer, "exit-overlay", () => layer.remove());
    else layer.remove();
    return;
  }
  if (!view.overlayLayer) {
    view.overlayLayer = h("section", { class: "layer layer-overlay is-cover", "data-testid": "overlay-layer", "data-overlay": state.overlay },
      h("div", { class: "card" }, stackView(OVERLAY)));
    if (animate) play(view.overlayLayer, "enter-overlay");
  }
  view.overlayLayer.dataset.overlay = state.overlay;
  // Above the flow's layers; what the overlay presents at window level goes above it.
  if (!view.overlayLayer.isConnected) layersEl.append(view.overlayLayer);
  updateStack(OVERLAY, previous, animate);
}

/** Only what is on top takes taps: no stack under a presentation, nothing under a window-level
 *  one — the tab bar among it, as UIKit lets no tab be tapped under a sheet or a cover. A sheet at
 *  full height recesses what is below it. */
function guardLayers(chains, windowLayers) {
  const covered = new Set(chains.flatMap((chain) => chain.slice(0, -1).map(keyOf)));
  for (const [key, { element }] of view.stacks) element.toggleAttribute("inert", covered.has(key));
  const stacked = [view.baseLayer, ...windowLayers];
  stacked.forEach((layer, i) => {
    const above = stacked[i + 1];
    layer.toggleAttribute("inert", Boolean(above));
    layer.classList.toggle("recessed", Boolean(above?.classList.contains("is-sheet") && above.classList.contains("is-full")));
    layer.classList.toggle("covered", Boolean(above?.classList.contains("is-cover")));
  });
}

function renderCaption() {
  const { state, index } = shown();
  const node = index.nodes.get(state.focus);
  const navigator = node ? index.navigators.get(node.navigator) : null;
  captionEl.replaceChildren();
  append(captionEl, [
    h("span", { class: "muted" }, "focus "), h("b", {}, state.focus ?? "—"),
    node ? [" ", h("code", {}, node.screen), Object.keys(node.params ?? {}).length ? ` (${formatParams(node.params)})` : ""] : "",
    navigator ? [h("span", { class: "muted" }, " on "), h("code", {}, navigator.id)] : ""]);
}

/** The size-class switch of a split view (`POST …/size-class`), pressed at the session's. */
function renderSizeClass() {
  const { state } = shown();
  // The size class matters to a split view and to tabs that adapt to a sidebar.
  const root = store.app?.flows?.[state.flow]?.root ?? store.app?.root;
  const hidden = state.layout !== "split" && !(state.tabs && root?.sidebar);
  if (sizeClassEl.hidden !== hidden) {
    sizeClassEl.hidden = hidden;
    fitDevice();
  }
  for (const button of sizeClassEl.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.sizeClass === (state.sizeClass ?? "regular")));
    button.disabled = Boolean(store.past) || readOnly();
  }
}

/** The display-mode picker of a split view shown in columns (`POST …/display-mode`), at the session's. */
function renderDisplayMode() {
  const { state, index } = shown();
  const hidden = state.layout !== "split" || view.oneStack;
  if (displayModeEl.hidden !== hidden) {
    displayModeEl.hidden = hidden;
    fitDevice();
  }
  if (hidden) return;
  const three = index.navigators.has("supplementary");
  const modes = DISPLAY_MODES.filter((mode) => three || !mode.startsWith("two"));
  if (displayModeSelect.options.length !== modes.length) {
    displayModeSelect.replaceChildren(...modes.map((mode) => h("option", { value: mode }, mode)));
  }
  displayModeSelect.value = state.displayMode ?? "automatic";
  displayModeSelect.disabled = Boolean(store.past) || readOnly();
}

/** What the launch rules choose for `flags`: `{flow, overlay}` (the first rule that holds; an
 *  overlay's is shown over the first non-overlay one that holds). */
function launchFor(flags) {
  const flows = store.app?.flows ?? {};
  const holding = (store.app?.launch ?? []).filter((rule) =>
    (!rule.if || flags.includes(rule.if)) && !(rule.unless && flags.includes(rule.unless)));
  const first = holding[0];
  return { flow: holding.find((rule) => !flows[rule.flow]?.overlay)?.flow, overlay: flows[first?.flow]?.overlay ? first.flow : null };
}

/** The change of one flag that brings an overlay over the flow shown (a lock after
 *  backgrounding: `{set: ["locked"]}`), or null. */
function lockChange(state) {
  if (state.overlay) return null;
  for (const rule of store.app?.launch ?? []) {
    if (!store.app.flows?.[rule.flow]?.overlay) continue;
    const change = rule.if && !state.flags.includes(rule.if) ? { set: [rule.if] }
      : rule.unless && state.flags.includes(rule.unless) ? { clear: [rule.unless] } : null;
    if (!change) continue;
    const flags = change.set ? [...state.flags, ...change.set] : state.flags.filter((flag) => flag !== change.clear[0]);
    const chosen = launchFor(flags);
    if (chosen.overlay === rule.flow && chosen.flow === state.flow) return change;
  }
  return null;
}

/** The Lock button: shown where one flag brings an overlay over the flow shown. */
function renderLock() {
  const change = lockChange(shown().state);
  const hidden = !change || Boolean(store.past);
  if (lockButton.hidden !== hidden) {
    lockButton.hidden = hidden;
    fitDevice();
  }
  if (hidden) return;
  lockButton.textContent = change.set ? `Lock (set ${change.set[0]})` : `Lock (clear ${change.clear[0]})`;
  lockButton.disabled = readOnly();
  lockButton.onclick = () => operate("flags", change);
}

/** Builds the base layer again: another flow, layout, tab bar or sidebar, or columns for one stack. */
function rebuildBase(state, baseKey, animate) {
  // A switch of root flows (onboarding → sign-in → main) plays as one.
  const switched = animate && view.baseKey !== "" && !view.baseKey.startsWith(`${state.flow}|`);
  view.baseKey = baseKey;
  // Tabs that adapt to a sidebar list them down the left at regular width (tabs.form), the
  // same tabs and stacks as the bar at the bottom.
  const sidebar = state.tabs?.form === "sidebar";
  view.tabBar = state.tabs
    ? h("nav", { class: sidebar ? "tab-bar tab-sidebar" : "tab-bar", "data-testid": "tab-bar", "data-form": state.tabs.form ?? "tabBar" })
    : null;
  view.tabBarKey = "";
  const content = h("div", { class: state.layout === "split" && !view.oneStack ? "base-content split" : "base-content" });
  view.baseLayer = h("section", { class: sidebar ? "layer layer-base has-sidebar" : "layer layer-base", "data-testid": "layer-base" },
    ...(sidebar ? [view.tabBar, content] : [content, view.tabBar]));
  layersEl.replaceChildren(view.baseLayer);
  view.presentedLayers.clear();
  view.stacks.clear();
  view.overlayLayer = null;
  if (switched) play(view.baseLayer, "enter-flow");
}

/** Draws the state shown (live, or the timeline's earlier version); `previous` is the index of
 *  the state drawn before (for transitions). */
function render(previous, animate) {
  const { state, index } = shown();
  const split = state.layout === "split";
  view.oneStack = split && (state.collapsed === true || NARROW.matches);
  const sidebar = state.tabs?.form === "sidebar";
  deviceEl.classList.toggle("is-past", Boolean(store.past));
  // An earlier version, or a session open read-only, is shown but not tapped.
  layersEl.toggleAttribute("inert", Boolean(store.past) || readOnly());
  deviceEl.classList.toggle("is-read-only", readOnly());
  deviceEl.dataset.layout = state.layout;
  const tablet = (split && !view.oneStack) || sidebar;
  if (deviceEl.classList.contains("tablet") !== tablet) {
    deviceEl.classList.toggle("tablet", tablet);
    fitDevice();
  }
  const tabsKey = state.tabs ? state.tabs.form ?? "tabBar" : "notabs";
  const baseKey = `${state.flow}|${state.layout}|${tabsKey}|${view.oneStack ? "one" : "columns"}`;
  if (view.baseKey !== baseKey) {
    rebuildBase(state, baseKey, animate);
    animate = false;
  }
  const bases = baseNavigators(state);
  renderBase(bases, previous, animate);
  renderOverlay(state, previous, animate);
  const chains = bases.map((id) => [id, ...presentedChain(index, id)]);
  if (state.overlay) chains.push([OVERLAY, ...presentedChain(index, OVERLAY)]);
  renderPresented(chains, !split || view.oneStack, previous, animate);

  for (const id of view.pages.keys()) if (!index.nodes.has(id)) view.pages.delete(id);
  for (const id of view.stacks.keys()) if (id !== COMPACT && !index.navigators.has(id)) view.stacks.delete(id);
  assignTestIds();
  deviceEl.dataset.focus = state.focus ?? "";
  deviceEl.dataset.version = String(state.version);
  renderCaption();
  renderSizeClass();
  renderDisplayMode();
  renderLock();
}

/** Draws the device from the store from now on. */
export function startDevice() {
  new ResizeObserver(fitDevice).observe(deviceEl.parentElement);
  fitDevice();
  for (const button of sizeClassEl.querySelectorAll("button")) {
    button.addEventListener("click", () => operate("size-class", { horizontal: button.dataset.sizeClass }));
  }
  displayModeSelect.addEventListener("change", () => operate("display-mode", { mode: displayModeSelect.value }));
  NARROW.addEventListener("change", () => { if (store.state) render(null, false); });
  subscribe((change) => {
    if (change.kind === "session") {
      view = emptyView();
      layersEl.replaceChildren();
    } else if (change.kind === "state") {
      if (!store.past) render(change.previous, change.animate);
    } else if (change.kind === "past") {
      render(change.previous, true);
    } else if (change.kind === "access") {
      if (store.state) render(null, false);
    } else if (change.kind === "busy") {
      deviceEl.classList.toggle("is-busy", store.busy);
    } else if (change.kind === "updates") {
      deviceEl.classList.toggle("is-offline", store.updates === "offline");
    }
  });
}
