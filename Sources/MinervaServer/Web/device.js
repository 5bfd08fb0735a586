// The device: the focused navigation state drawn as a phone (a tablet in split layout). A base
// layer holds the visible stack (or primary | detail) and the tab bar; each presented navigator
// is a layer above it. Pages slide as stacks push and pop, modals rise and fall by style. An
// earlier version that the timeline shows is drawn the same way, muted and out of reach of taps.

import { $, append, formatParams, h, hasIcon, icon, play, stopAnimation } from "./dom.js";
import { screenPage } from "./screen.js";
import { operate } from "./session.js";
import { baseNavigators, isSheet, presentedChain, shown, store, subscribe, tabLabel } from "./store.js";

const deviceEl = $('[data-testid="device"]');
const layersEl = $('[data-testid="layers"]');
const captionEl = $('[data-testid="stage-caption"]');

/** The drawn device, rebuilt for each session. */
let view = emptyView();

function emptyView() {
  return {
    baseLayer: null,
    /** layout and tabs of the base layer: when they change it is built again. */
    baseKey: "",
    tabBar: null,
    tabBarKey: "",
    /** navigator id -> {element, top}: the stack view and the node on top of it. */
    stacks: new Map(),
    /** navigator id -> layer element. */
    presentedLayers: new Map(),
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
  const height = narrow ? window.innerHeight - 60 : stage.clientHeight - captionEl.offsetHeight - 16;
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

function stackView(navigatorId) {
  let stack = view.stacks.get(navigatorId);
  if (!stack) {
    stack = { element: h("div", { class: "stack-view", "data-navigator": navigatorId }), top: undefined };
    view.stacks.set(navigatorId, stack);
  }
  return stack.element;
}

const emptyDetail = () => h("div", { class: "page page-empty" },
  h("div", { class: "empty-note" }, icon("grid", "icon empty-icon"), h("p", {}, "Nothing selected"),
    h("p", { class: "muted" }, "Navigate from the primary column to show a detail.")));

/** Shows the top of a navigator's stack; a new top slides in (push) or the old one out (pop). */
function updateStack(navigatorId, previous, animate) {
  const element = stackView(navigatorId);
  const stack = view.stacks.get(navigatorId);
  const navigator = shown().index.navigators.get(navigatorId);
  const top = navigator.stack[navigator.stack.length - 1] ?? null;
  const oldTop = stack.top;
  if (top === oldTop) {
    if (top) view.pages.get(top)?.update();
    return;
  }
  stack.top = top;
  const oldPage = oldTop ? view.pages.get(oldTop)?.element : null;
  let newPage;
  if (top) {
    const topPage = page(top);
    topPage.update();
    newPage = topPage.element;
  } else {
    newPage = emptyDetail();
  }
  for (const child of [...element.children]) if (child.classList.contains("page-empty") && child !== newPage) child.remove();
  if (newPage.parentElement !== element || element.lastElementChild !== newPage) element.append(newPage);

  if (!oldPage || oldPage.parentElement !== element) return;
  const previousNavigator = previous?.navigators.get(navigatorId);
  if (!animate || !previousNavigator || !top) {
    oldPage.remove();
    return;
  }
  let kind = previousNavigator.stack.includes(top) ? "pop" : "push";
  if (shown().index.nodes.get(top)?.presentation?.kind === "detail" && navigator.stack.length === 1) kind = "fade";
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
  const key = JSON.stringify(tabs);
  if (view.tabBarKey === key) return;
  view.tabBarKey = key;
  view.tabBar.replaceChildren(...tabs.items.map((item) => {
    const selected = item.id === tabs.selected;
    return h("button", {
      type: "button", class: selected ? "tab is-selected" : "tab", "data-testid": `tab-${item.id}`, "aria-pressed": String(selected),
      title: selected ? `POST pop {"navigator": "${item.navigator}", "toRoot": true}` : `POST select-tab {"tab": "${item.id}"}`,
      onclick: () => {
        if (!selected) operate("select-tab", { tab: item.id });
        // A second tap on the selected tab pops it to its root, as iOS does.
        else if ((shown().index.navigators.get(item.navigator)?.stack.length ?? 0) > 1) operate("pop", { navigator: item.navigator, toRoot: true });
      },
    }, icon(hasIcon(item.id) ? item.id : "grid", "icon tab-icon"), h("span", {}, tabLabel(item.id)));
  }));
}

/** The base layer: one stack view (or primary | detail columns) and the tab bar. */
function renderBase(bases, previous, animate) {
  const { state, index } = shown();
  const content = view.baseLayer.firstElementChild;
  if (state.layout === "split") {
    const columns = bases.map((id) => {
      const element = stackView(id);
      return element.parentElement?.classList.contains("column") ? element.parentElement
        : h("div", { class: "column", "data-column": id }, element);
    });
    if (columns.length !== content.children.length || columns.some((column, i) => content.children[i] !== column)) {
      content.replaceChildren(...columns);
    }
    for (const id of bases) {
      const column = stackView(id).parentElement;
      const navigator = index.navigators.get(id);
      const holdsFocus = [id, ...presentedChain(index, id)].some((nav) => index.navigators.get(nav)?.stack.includes(state.focus));
      column.classList.toggle("is-focus", holdsFocus);
      column.classList.toggle("is-empty", navigator.stack.length === 0);
    }
  } else {
    const element = bases.length ? stackView(bases[0]) : null;
    const current = content.firstElementChild;
    if (element && current !== element) {
      content.replaceChildren(element);
      if (current && animate) play(element, "enter-tab");
    }
  }
  for (const id of bases) updateStack(id, previous, animate);
  if (view.tabBar) renderTabBar();
}

/** The presented layers, bottom first: new ones rise, dismissed ones fall. */
function renderPresented(chain, previous, animate) {
  const { index } = shown();
  const wanted = new Set(chain);
  for (const [id, layer] of view.presentedLayers) {
    if (wanted.has(id)) continue;
    view.presentedLayers.delete(id);
    if (index.navigators.has(id) || !animate) {
      layer.remove(); // still presented, but on a tab that is not selected
      continue;
    }
    layer.classList.add("exiting");
    layer.setAttribute("inert", "");
    stripTestIds(layer);
    play(layer, isSheet(layer.dataset.style) ? "exit-sheet" : "exit-cover", () => layer.remove());
  }
  let cursor = view.baseLayer;
  for (const id of chain) {
    let layer = view.presentedLayers.get(id);
    const isNew = !layer;
    if (isNew) {
      const root = index.nodes.get(index.navigators.get(id).stack[0]);
      const style = root?.presentation?.style ?? "automatic";
      layer = h("section", {
        class: `layer layer-presented ${isSheet(style) ? "is-sheet" : "is-cover"} style-${style}`,
        "data-navigator": id, "data-style": style,
      }, h("div", { class: "backdrop" }), h("div", { class: "card" }, stackView(id)));
      view.presentedLayers.set(id, layer);
    }
    if (cursor.nextElementSibling !== layer) cursor.after(layer);
    cursor = layer;
    updateStack(id, previous, animate && !isNew);
    // A navigator presented just now rises; one shown again by a tab switch just appears.
    if (isNew && animate && !previous?.navigators.has(id)) {
      play(layer, isSheet(layer.dataset.style) ? "enter-sheet" : "enter-cover");
    }
  }

  // Only the top layer takes taps; a sheet above recesses the layer below it.
  const stacked = [view.baseLayer, ...chain.map((id) => view.presentedLayers.get(id))];
  stacked.forEach((layer, i) => {
    const above = stacked[i + 1];
    layer.toggleAttribute("inert", Boolean(above));
    layer.classList.toggle("recessed", Boolean(above) && isSheet(above.dataset.style));
    layer.classList.toggle("covered", Boolean(above) && !isSheet(above.dataset.style));
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

/** Draws the state shown (live, or the timeline's earlier version); `previous` is the index of
 *  the state drawn before (for transitions). */
function render(previous, animate) {
  const { state, index } = shown();
  deviceEl.classList.toggle("is-past", Boolean(store.past));
  layersEl.toggleAttribute("inert", Boolean(store.past));
  deviceEl.dataset.layout = state.layout;
  if (deviceEl.classList.contains("tablet") !== (state.layout === "split")) {
    deviceEl.classList.toggle("tablet", state.layout === "split");
    fitDevice();
  }
  const baseKey = `${state.flow}|${state.layout}|${state.tabs ? "tabs" : "notabs"}`;
  if (view.baseKey !== baseKey) {
    // A switch of root flows (onboarding → sign-in → main) replaces the whole base.
    const switched = animate && view.baseKey !== undefined && !view.baseKey.startsWith(`${state.flow}|`);
    view.baseKey = baseKey;
    view.tabBar = state.tabs ? h("nav", { class: "tab-bar", "data-testid": "tab-bar" }) : null;
    view.tabBarKey = "";
    view.baseLayer = h("section", { class: "layer layer-base", "data-testid": "layer-base" },
      h("div", { class: state.layout === "split" ? "base-content split" : "base-content" }), view.tabBar);
    layersEl.replaceChildren(view.baseLayer);
    view.presentedLayers.clear();
    if (switched) play(view.baseLayer, "enter-flow");
    animate = false;
  }
  const bases = baseNavigators(state);
  renderBase(bases, previous, animate);
  renderPresented(bases.flatMap((id) => presentedChain(index, id)), previous, animate);

  for (const id of view.pages.keys()) if (!index.nodes.has(id)) view.pages.delete(id);
  for (const id of view.stacks.keys()) if (!index.navigators.has(id)) view.stacks.delete(id);
  assignTestIds();
  deviceEl.dataset.focus = state.focus ?? "";
  deviceEl.dataset.version = String(state.version);
  renderCaption();
}

/** Draws the device from the store from now on. */
export function startDevice() {
  new ResizeObserver(fitDevice).observe(deviceEl.parentElement);
  fitDevice();
  subscribe((change) => {
    if (change.kind === "session") {
      view = emptyView();
      layersEl.replaceChildren();
    } else if (change.kind === "state") {
      if (!store.past) render(change.previous, change.animate);
    } else if (change.kind === "past") {
      render(change.previous, true);
    } else if (change.kind === "busy") {
      deviceEl.classList.toggle("is-busy", store.busy);
    } else if (change.kind === "updates") {
      deviceEl.classList.toggle("is-offline", store.updates === "offline");
    }
  });
}
