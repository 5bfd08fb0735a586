// Minerva Server's web client: renders the session's state document in a phone-like frame
// and reports taps as the API's POST operations. Everything it shows comes from the server:
// the app description (GET /v1/app), the state (GET /v1/sessions/{id}, and the answer of every
// mutation) and the event log (GET …/events?after=N, polled every second).

const STORE_KEY = "minerva.session";
const POLL_MS = 1000;
const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

const ui = {
  app: null,          // the app description
  session: null,      // {id, token}
  state: null,        // the last applied state document
  index: null,        // nodes, parents and navigators of ui.state by id
  events: [],
  lastSeq: 0,
  truncated: false,
  link: undefined,    // the current deep link (string), null when no route describes the state
  busy: false,
  epoch: 0,           // grows with every new session: answers for an older one are dropped
  pollTimer: 0,
  toastTimer: 0,
};

const $ = (selector, root = document) => root.querySelector(selector);

const el = {
  device: $('[data-testid="device"]'),
  layers: $('[data-testid="layers"]'),
  toast: $('[data-testid="toast"]'),
  caption: $('[data-testid="stage-caption"]'),
  tree: $('[data-testid="inspector-tree"]'),
  navigators: $('[data-testid="inspector-navigators"]'),
  sessionPanel: $('[data-testid="inspector-session"]'),
  eventLog: $('[data-testid="event-log"]'),
  eventCount: $('[data-testid="event-count"]'),
  appName: $('[data-testid="app-name"]'),
  sessionId: $('[data-testid="session-id"]'),
  version: $('[data-testid="session-version"]'),
  layoutSelect: $('[data-testid="layout-select"]'),
  newSession: $('[data-testid="new-session"]'),
  deeplinkForm: $('[data-testid="deeplink-form"]'),
  deeplinkInput: $('[data-testid="deeplink-input"]'),
  deeplinkScheme: $('[data-testid="deeplink-scheme"]'),
  deeplinkError: $('[data-testid="deeplink-error"]'),
  currentLink: $('[data-testid="current-link"]'),
};

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** h("div", {class: "x", onclick: f}, child, "text", [more]) */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const ICONS = {
  chevronLeft: "M15 5l-7 7 7 7",
  chevronRight: "M9 5l7 7-7 7",
  close: "M6 6l12 12M18 6L6 18",
  home: "M3.5 11L12 4l8.5 7M6 9.5V20h4.5v-5.5h3V20H18V9.5",
  account: "M12 12.5a4 4 0 100-8 4 4 0 000 8zM4.5 20.5c.8-3.6 3.9-5.5 7.5-5.5s6.7 1.9 7.5 5.5",
  grid: "M4.5 4.5h6v6h-6zM13.5 4.5h6v6h-6zM4.5 13.5h6v6h-6zM13.5 13.5h6v6h-6z",
  lock: "M7 11V8a5 5 0 0110 0v3M5.5 11h13v9h-13z",
  arrowRight: "M5 12h14M13 6l6 6-6 6",
  sheet: "M4 8h16v12H4zM7 5h10",
  cover: "M4 4h16v16H4z",
  push: "M4 12h11M11 7l5 5-5 5M20 5v14",
  link: "M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1",
  check: "M5 12.5l4.5 4.5L19 7",
  flag: "M5 21V4M5 4h11l-2 4 2 4H5",
};

function icon(name, cls = "icon") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name] ?? ICONS.grid);
  svg.append(path);
  return svg;
}

/** Plays a CSS animation class on a node; `done` runs when it ends (or after a timeout). */
function play(node, cls, done) {
  if (REDUCED_MOTION) { done?.(); return; }
  const token = {};
  node._anim = token;
  node.classList.add(cls);
  const finish = () => {
    if (node._anim !== token) return;
    node._anim = null;
    node.classList.remove(cls);
    node.removeEventListener("animationend", onEnd);
    done?.();
  };
  const onEnd = (event) => { if (event.target === node) finish(); };
  node.addEventListener("animationend", onEnd);
  setTimeout(finish, 900);
}

/** Stops any animation `play` started on the node (its `done` is not run). */
function stopAnimation(node) {
  node._anim = null;
  for (const cls of [...node.classList]) if (/^(enter|exit)-/.test(cls)) node.classList.remove(cls);
}

function hashHue(text) {
  let hash = 0;
  for (const char of String(text)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return hash % 360;
}

function jsonEqual(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return typeof value === "number" ? String(Number(value)) : JSON.stringify(value);
}

function formatParams(params) {
  const entries = Object.entries(params ?? {});
  return entries.map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ");
}

// ---------------------------------------------------------------------------------------------
// The API

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
  get summary() {
    return this.status ? `${this.status} ${this.code}: ${this.message}` : this.message;
  }
}

async function request(method, path, { body, auth = true, ifMatch } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && ui.session) headers.Authorization = `Bearer ${ui.session.token}`;
  if (ifMatch !== undefined) headers["If-Match"] = `"${ifMatch}"`;
  let response;
  try {
    response = await fetch(path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached.");
  }
  const text = await response.text();
  let document = null;
  if (text) {
    try { document = JSON.parse(text); } catch { document = null; }
  }
  if (!response.ok) {
    const error = document?.error;
    throw new ApiError(response.status, error?.code ?? "error", error?.message ?? response.statusText);
  }
  return document;
}

const sessionPath = (suffix = "") => `/v1/sessions/${encodeURIComponent(ui.session.id)}${suffix}`;

/** What a tap was aimed at: the navigation part of a state (not its lists). */
const navigationShape = (state) =>
  JSON.stringify([state.focus, state.navigators, state.tabs, state.flags, state.pending ?? null]);

/**
 * A navigation operation: POST with If-Match, so a tap made on a stale screen fails with 412
 * instead of doing the wrong thing; then renders the answer. When the 412 came only from a change
 * the person could not have been looking at (a list replaced, the navigation the same), the tap
 * still means what it meant, and it is sent once more against the new version.
 */
async function mutate(operation, body, { onError } = {}) {
  if (ui.busy || !ui.state) return null;
  ui.busy = true;
  el.device.classList.add("is-busy");
  const epoch = ui.epoch;
  try {
    for (let attempt = 0; ; attempt += 1) {
      const seen = ui.state;
      try {
        const document = await request("POST", sessionPath(`/${operation}`), { body, ifMatch: seen.version });
        if (epoch === ui.epoch) {
          applyState(document);
          pollEvents().catch(() => {});
        }
        return document;
      } catch (error) {
        if (epoch !== ui.epoch) return null;
        if (error.status === 412) {
          await refreshState().catch(() => {});
          if (attempt === 0 && ui.state && navigationShape(ui.state) === navigationShape(seen)) continue;
          showToast("The screen changed meanwhile (412 precondition_failed): this is the new state — tap again.", "warn");
        } else if (error.status === 401) {
          await sessionLost();
        } else if (onError) {
          onError(error);
        } else {
          showToast(error.summary, "error");
        }
        return null;
      }
    }
  } finally {
    ui.busy = false;
    el.device.classList.remove("is-busy");
  }
}

// ---------------------------------------------------------------------------------------------
// Sessions

function storedSession() {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? "null");
    return stored && typeof stored.id === "string" && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

async function newSession(layout) {
  const old = ui.session;
  const body = layout && layout !== "stack" ? { layout } : {};
  let document;
  try {
    document = await request("POST", "/v1/sessions", { body, auth: false });
  } catch (error) {
    showToast(`New session: ${error.summary}`, "error");
    return false;
  }
  if (old) {
    // The old session is abandoned: end it rather than leave it to expire.
    fetch(`/v1/sessions/${encodeURIComponent(old.id)}`, {
      method: "DELETE", headers: { Authorization: `Bearer ${old.token}` },
    }).catch(() => {});
  }
  ui.session = { id: document.id, token: document.token };
  sessionStorage.setItem(STORE_KEY, JSON.stringify(ui.session));
  startSession(document);
  return true;
}

function startSession(document) {
  ui.epoch += 1;
  ui.state = null;
  ui.index = null;
  ui.events = [];
  ui.lastSeq = 0;
  ui.truncated = false;
  ui.link = undefined;
  resetDevice();
  el.eventLog.replaceChildren();
  renderEventCount();
  el.deeplinkError.hidden = true;
  applyState(document);
  pollEvents().catch(() => {});
}

async function sessionLost() {
  showToast("The session is gone (401 unauthorized): started a new one.", "warn");
  await newSession(ui.state?.layout);
}

async function refreshState() {
  const epoch = ui.epoch;
  const document = await request("GET", sessionPath());
  if (epoch === ui.epoch) applyState(document);
}

async function pollEvents() {
  const epoch = ui.epoch;
  const answer = await request("GET", sessionPath(`/events?after=${ui.lastSeq}`));
  if (epoch !== ui.epoch) return;
  if (answer.truncated) ui.truncated = true;
  const fresh = (answer.events ?? []).filter((event) => event.seq > ui.lastSeq);
  if (!fresh.length) return;
  ui.events.push(...fresh);
  ui.lastSeq = fresh[fresh.length - 1].seq;
  renderEvents(fresh);
}

/** Every second: new events, and the state when its version moved (lists=none is the cheap probe). */
async function pollOnce() {
  if (!ui.session || !ui.state) return;
  const epoch = ui.epoch;
  await pollEvents();
  const probe = await request("GET", sessionPath("?lists=none"));
  if (epoch !== ui.epoch || !ui.state) return;
  if (probe.version !== ui.state.version) await refreshState();
}

function schedulePoll(delay = POLL_MS) {
  clearTimeout(ui.pollTimer);
  ui.pollTimer = setTimeout(async () => {
    try {
      await pollOnce();
      el.device.classList.remove("is-offline");
    } catch (error) {
      if (error.status === 401) await sessionLost();
      else el.device.classList.add("is-offline");
    }
    schedulePoll();
  }, delay);
}

async function refreshLink() {
  const epoch = ui.epoch;
  const version = ui.state.version;
  let link = null;
  try {
    link = (await request("GET", sessionPath("/link"))).url;
  } catch (error) {
    if (error.status !== 404) return;
  }
  if (epoch !== ui.epoch || !ui.state || ui.state.version !== version) return;
  ui.link = link;
  renderLink();
}

// ---------------------------------------------------------------------------------------------
// The state

function indexState(state) {
  const nodes = new Map();
  const parents = new Map();
  const walk = (node, parent) => {
    nodes.set(node.id, node);
    parents.set(node.id, parent);
    for (const child of node.children ?? []) walk(child, node.id);
  };
  walk(state.root, null);
  const navigators = new Map(state.navigators.map((navigator) => [navigator.id, navigator]));
  return { nodes, parents, navigators };
}

function applyState(document) {
  if (!document || !ui.session || document.id !== ui.session.id) return;
  const previous = ui.state;
  if (previous && document.version <= previous.version) return; // an answer that arrived late
  const previousIndex = ui.index;
  ui.state = document;
  ui.index = indexState(document);
  renderDevice(previousIndex, Boolean(previous));
  renderInspector();
  renderHeader();
  refreshLink();
}

function screenInfo(screen) {
  return ui.app?.screens?.[screen] ?? null;
}

function screenTitle(screen) {
  return screenInfo(screen)?.title ?? screen;
}

/** The base navigators on screen: the selected tab's, or primary and detail, or the only one. */
function baseNavigators(state) {
  if (state.tabs) {
    const item = state.tabs.items.find((tab) => tab.id === state.tabs.selected);
    return item ? [item.navigator] : [];
  }
  return state.navigators.filter((navigator) => navigator.parent === null).map((navigator) => navigator.id);
}

/** The navigators presented above a base one, bottom first. */
function presentedChain(baseId) {
  const chain = [];
  let navigator = ui.index.navigators.get(baseId);
  while (navigator?.presented) {
    const node = ui.index.nodes.get(navigator.presented);
    navigator = node ? ui.index.navigators.get(node.navigator) : null;
    if (!navigator || chain.includes(navigator.id)) break;
    chain.push(navigator.id);
  }
  return chain;
}

const isSheet = (style) => style === "pageSheet" || style === "formSheet" || style === "automatic" || !style;

// ---------------------------------------------------------------------------------------------
// The device

const dev = {
  baseLayer: null,
  baseKey: "",
  tabBar: null,
  stackViews: new Map(),       // navigator id -> .stack-view
  presentedLayers: new Map(),  // navigator id -> .layer
  pages: new Map(),            // node id -> .page
};

function resetDevice() {
  el.layers.replaceChildren();
  dev.baseLayer = null;
  dev.baseKey = "";
  dev.tabBar = null;
  dev.stackViews.clear();
  dev.presentedLayers.clear();
  dev.pages.clear();
}

/** Scales the device down (CSS zoom) when the window is too small for it, and stacks the
 *  inspector's panels when it is too narrow for two columns. */
function fitDevice() {
  const stage = el.device.parentElement;
  const tablet = el.device.classList.contains("tablet");
  const natural = tablet ? { width: 780, height: 560 } : { width: 362, height: 748 };
  const stacked = window.matchMedia("(max-width: 1100px)").matches;
  const height = stacked ? window.innerHeight - 60 : stage.clientHeight - el.caption.offsetHeight - 16;
  const width = stacked ? window.innerWidth - 40 : Infinity;
  const zoom = Math.max(0.5, Math.min(1, height / natural.height, width / natural.width));
  el.device.style.zoom = String(Math.round(zoom * 1000) / 1000);
  const inspector = $(".inspector");
  inspector.classList.toggle("is-narrow", inspector.clientWidth < 660);
}

function renderDevice(previousIndex, animate) {
  const { state, index } = ui;
  el.device.dataset.layout = state.layout;
  if (el.device.classList.contains("tablet") !== (state.layout === "split")) {
    el.device.classList.toggle("tablet", state.layout === "split");
    fitDevice();
  }

  // The base layer: one stack view (or primary | detail), and the tab bar.
  const bases = baseNavigators(state);
  const baseKey = `${state.layout}|${state.tabs ? "tabs" : "notabs"}`;
  if (dev.baseKey !== baseKey) {
    dev.baseKey = baseKey;
    dev.tabBar = state.tabs ? h("nav", { class: "tab-bar", "data-testid": "tab-bar" }) : null;
    dev.baseLayer = h("section", { class: "layer layer-base", "data-testid": "layer-base" },
      h("div", { class: state.layout === "split" ? "base-content split" : "base-content" }), dev.tabBar);
    el.layers.prepend(dev.baseLayer);
    for (const stale of [...el.layers.children]) if (stale !== dev.baseLayer) stale.remove();
    dev.presentedLayers.clear();
    animate = false;
  }
  const content = dev.baseLayer.firstElementChild;
  if (state.layout === "split") {
    const columns = bases.map((id) => {
      const view = stackView(id);
      const column = view.parentElement?.classList.contains("column") ? view.parentElement
        : h("div", { class: "column", "data-column": id }, view);
      return column;
    });
    if (columns.some((column, i) => content.children[i] !== column) || content.children.length !== columns.length) {
      content.replaceChildren(...columns);
    }
    for (const id of bases) {
      const column = stackView(id).parentElement;
      const navigator = index.navigators.get(id);
      column.classList.toggle("is-focus", navigator.stack.includes(state.focus) ||
        presentedChain(id).some((nav) => index.navigators.get(nav)?.stack.includes(state.focus)));
      column.classList.toggle("is-empty", navigator.stack.length === 0);
    }
  } else {
    const view = bases.length ? stackView(bases[0]) : null;
    const current = content.firstElementChild;
    if (view && current !== view) {
      content.replaceChildren(view);
      if (current && animate) play(view, "enter-tab");
    }
  }
  for (const id of bases) updateStackView(id, previousIndex, animate);
  if (dev.tabBar) renderTabBar();

  // Presented layers, bottom first.
  const chain = bases.flatMap((id) => presentedChain(id));
  const wanted = new Set(chain);
  for (const [id, layer] of dev.presentedLayers) {
    if (wanted.has(id)) continue;
    dev.presentedLayers.delete(id);
    if (index.navigators.has(id) || !animate) {
      layer.remove(); // still presented, but on a tab that is not selected
    } else {
      layer.classList.add("exiting");
      layer.setAttribute("inert", "");
      stripTestIds(layer);
      play(layer, isSheet(layer.dataset.style) ? "exit-sheet" : "exit-cover", () => layer.remove());
    }
  }
  let cursor = dev.baseLayer;
  for (const id of chain) {
    let layer = dev.presentedLayers.get(id);
    const isNew = !layer;
    if (isNew) {
      const root = index.nodes.get(index.navigators.get(id).stack[0]);
      const style = root?.presentation?.style ?? "automatic";
      layer = h("section", {
        class: `layer layer-presented ${isSheet(style) ? "is-sheet" : "is-cover"} style-${style}`,
        "data-navigator": id, "data-style": style,
      }, h("div", { class: "backdrop" }), h("div", { class: "card" }, stackView(id)));
      dev.presentedLayers.set(id, layer);
    }
    if (cursor.nextElementSibling !== layer) cursor.after(layer);
    cursor = layer;
    updateStackView(id, previousIndex, animate && !isNew);
    // A navigator presented just now slides in; one shown again by a tab switch just appears.
    if (isNew && animate && !previousIndex?.navigators.has(id)) {
      play(layer, isSheet(layer.dataset.style) ? "enter-sheet" : "enter-cover");
    }
  }

  // Only the top layer takes taps; a sheet above recesses the layer below it.
  const stacked = [dev.baseLayer, ...chain.map((id) => dev.presentedLayers.get(id))];
  stacked.forEach((layer, i) => {
    const above = stacked[i + 1];
    layer.toggleAttribute("inert", Boolean(above));
    layer.classList.toggle("recessed", Boolean(above) && isSheet(above.dataset.style));
    layer.classList.toggle("covered", Boolean(above) && !isSheet(above.dataset.style));
  });

  for (const id of dev.pages.keys()) if (!index.nodes.has(id)) dev.pages.delete(id);
  for (const id of dev.stackViews.keys()) if (!index.navigators.has(id)) dev.stackViews.delete(id);

  assignTestIds();
  el.device.dataset.focus = state.focus ?? "";
  el.device.dataset.version = String(state.version);
  renderCaption();
}

function stackView(navigatorId) {
  let view = dev.stackViews.get(navigatorId);
  if (!view) {
    view = h("div", { class: "stack-view", "data-navigator": navigatorId });
    view._top = undefined;
    dev.stackViews.set(navigatorId, view);
  }
  return view;
}

function updateStackView(navigatorId, previousIndex, animate) {
  const view = stackView(navigatorId);
  const navigator = ui.index.navigators.get(navigatorId);
  const top = navigator.stack[navigator.stack.length - 1] ?? null;
  const oldTop = view._top;
  if (top === oldTop) {
    if (top) updatePage(top);
    return;
  }
  view._top = top;
  const oldPage = oldTop ? [...view.children].find((c) => c.dataset.nodeId === oldTop && !c.classList.contains("exiting")) : null;
  let newPage;
  if (top) {
    newPage = page(top);
    updatePage(top);
  } else {
    newPage = h("div", { class: "page page-empty" },
      h("div", { class: "empty-note" }, icon("grid", "icon empty-icon"), h("p", {}, "Nothing selected"),
        h("p", { class: "muted" }, "Navigate from the primary column to show a detail.")));
  }
  for (const child of [...view.children]) if (child.classList.contains("page-empty") && child !== newPage) child.remove();
  if (newPage.parentElement !== view || view.lastElementChild !== newPage) view.append(newPage);

  if (!oldPage) return;
  const previousNavigator = previousIndex?.navigators.get(navigatorId);
  if (!animate || !previousNavigator || !top) {
    oldPage.remove();
    return;
  }
  let kind = previousNavigator.stack.includes(top) ? "pop" : "push";
  const topNode = ui.index.nodes.get(top);
  if (topNode?.presentation?.kind === "detail" && navigator.stack.length === 1) kind = "fade";
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
  for (const node of root.querySelectorAll("[data-testid]")) {
    if (/^(nav-title|back-button|close-button)$/.test(node.dataset.testid)) node.removeAttribute("data-testid");
  }
}

/** nav-title, back-button and close-button name the focused screen's navigation bar only. */
function assignTestIds() {
  for (const node of el.layers.querySelectorAll("[data-role]")) node.removeAttribute("data-testid");
  const focusPage = dev.pages.get(ui.state.focus);
  if (!focusPage || focusPage.classList.contains("exiting")) return;
  for (const node of focusPage.querySelectorAll(":scope > .nav-bar [data-role]")) {
    node.dataset.testid = node.dataset.role;
  }
  for (const page of dev.pages.values()) page.classList.toggle("is-focus", page === focusPage);
}

// --- Pages

function page(nodeId) {
  let pageEl = dev.pages.get(nodeId);
  if (pageEl) {
    stopAnimation(pageEl);
    pageEl.classList.remove("exiting");
    pageEl.removeAttribute("inert");
    return pageEl;
  }
  const node = ui.index.nodes.get(nodeId);
  const info = screenInfo(node.screen);
  const title = screenTitle(node.screen);

  const navBar = h("header", { class: "nav-bar" },
    h("div", { class: "nav-leading" }),
    h("h1", { class: "nav-title", "data-role": "nav-title" }, title),
    h("div", { class: "nav-trailing" }));

  const hue = hashHue(node.screen);
  const params = Object.entries(node.params ?? {});
  const hero = h("div", { class: "hero", style: `--hue:${hue}` },
    h("div", { class: "hero-avatar" }, title.slice(0, 1).toUpperCase()),
    h("div", { class: "hero-text" },
      h("div", { class: "hero-title" }, title,
        params.length ? h("span", { class: "hero-param" }, ` ${params.map(([, v]) => String(v)).join(" · ")}`) : null),
      h("div", { class: "hero-sub" },
        h("code", {}, node.screen), h("span", { class: "dot" }, "·"), h("span", {}, node.id),
        h("span", { class: "dot" }, "·"), h("span", {}, presentationLabel(node.presentation)))),
    params.length ? h("dl", { class: "hero-params" },
      params.map(([k, v]) => h("div", { class: "param" }, h("dt", {}, k), h("dd", {}, typeof v === "string" ? v : JSON.stringify(v)))))
      : null);

  const banner = h("div", { class: "pending-banner", hidden: true });
  const listEl = h("div", { class: "list", hidden: true });
  const listFooter = h("div", { class: "list-footer", hidden: true });
  const goto = gotoPanel(nodeId);
  const finish = node.presentation?.kind === "present" ? finishPanel(nodeId) : null;

  const body = h("div", { class: "page-body" }, hero, banner, listEl, listFooter, finish, goto,
    info?.requires ? h("p", { class: "page-note" }, icon("lock", "icon tiny"), ` guarded by the ${info.requires} flag`) : null);

  pageEl = h("article", {
    class: "page", "data-node-id": nodeId, "data-screen": node.screen,
    onclick: (event) => onPageClick(event, nodeId),
    onkeydown: (event) => {
      if ((event.key === "Enter" || event.key === " ") && event.target.classList?.contains("cell")) {
        event.preventDefault();
        onPageClick(event, nodeId);
      }
    },
  }, navBar, body);
  Object.assign(pageEl, {
    _navBar: navBar, _banner: banner, _listEl: listEl, _listFooter: listFooter, _goto: goto,
    _list: null, _rows: new Map(), _sections: new Map(), _rendered: false,
  });
  dev.pages.set(nodeId, pageEl);
  return pageEl;
}

function presentationLabel(presentation) {
  if (!presentation) return "";
  return presentation.style ? `${presentation.kind} · ${presentation.style}` : presentation.kind;
}

function updatePage(nodeId) {
  const pageEl = dev.pages.get(nodeId);
  const node = ui.index.nodes.get(nodeId);
  if (!pageEl || !node) return;
  const navigator = ui.index.navigators.get(node.navigator);
  const position = navigator ? navigator.stack.indexOf(nodeId) : -1;

  // Navigation bar: back when the stack has more below, close at the root of a presented navigator.
  const leading = pageEl._navBar.querySelector(".nav-leading");
  const trailing = pageEl._navBar.querySelector(".nav-trailing");
  const leadingKey = position > 0 ? `back:${navigator.stack[position - 1]}` : navigator?.parent ? "close" : "";
  if (leading.dataset.key !== leadingKey) {
    leading.dataset.key = leadingKey;
    leading.replaceChildren();
    if (position > 0) {
      const below = ui.index.nodes.get(navigator.stack[position - 1]);
      leading.append(h("button", {
        type: "button", class: "nav-button back", "data-role": "back-button",
        title: `POST pop {"navigator": "${navigator.id}"}`,
        onclick: () => mutate("pop", { navigator: navigator.id }),
      }, icon("chevronLeft", "icon chevron"), h("span", {}, below ? screenTitle(below.screen) : "Back")));
    } else if (navigator?.parent) {
      leading.append(h("button", {
        type: "button", class: "nav-button close", "data-role": "close-button",
        title: `POST dismiss {"node": "${nodeId}"}`,
        onclick: () => mutate("dismiss", { node: nodeId }),
      }, "Close"));
    }
  }
  const trailingKey = navigator ? `${navigator.id}:${navigator.stack.length}` : "";
  if (trailing.dataset.key !== trailingKey) {
    trailing.dataset.key = trailingKey;
    trailing.replaceChildren(navigator ? h("span", { class: "nav-depth", title: `navigator ${navigator.id}: ${navigator.stack.length} on its stack` },
      `${position + 1}/${navigator.stack.length}`) : "");
  }

  // Pending target behind a guard: say what finishing this flow resumes.
  const pending = ui.state.pending;
  const waiting = pending && pending.flow === nodeId ? pending.steps ?? [] : null;
  pageEl._banner.hidden = !waiting;
  if (waiting) {
    pageEl._banner.replaceChildren(icon("lock", "icon tiny"),
      h("span", {}, "Finish with success to continue to ",
        h("b", {}, waiting.map((step) => screenTitle(step.screen)).join(" › ") || "the target"), "."));
  }

  renderList(pageEl, node);
  const goto = pageEl._goto;
  if (!goto._touched && goto._auto !== !node.list) {
    goto._auto = !node.list;
    goto.open = goto._auto;
  }
  pageEl._rendered = true;
}

function onPageClick(event, nodeId) {
  const cell = event.target.closest?.(".cell.tappable");
  if (!cell || !cell._navigate) return;
  const { screen, params } = cell._navigate;
  mutate("navigate", params ? { from: nodeId, screen, params } : { from: nodeId, screen });
}

function gotoPanel(nodeId) {
  const screens = Object.entries(ui.app?.screens ?? {});
  const details = h("details", { class: "goto", "data-testid": "goto-panel" },
    h("summary", {}, h("span", {}, "Go to…"), h("span", { class: "summary-hint" }, "POST navigate")));
  details.addEventListener("toggle", () => { if (details.open !== details._auto) details._touched = true; });
  const list = h("div", { class: "goto-list" });
  for (const [name, info] of screens) {
    const params = info.params ?? [];
    const how = info.presentation === "present" ? `present · ${info.style ?? "automatic"}` : "push";
    const item = h("div", { class: "goto-item" });
    const form = params.length ? h("form", { class: "param-form", hidden: true, autocomplete: "off" },
      params.map((param) => h("label", { class: "param-field" }, h("span", {}, param),
        h("input", { name: param, required: true, placeholder: param, "data-testid": `param-${name}-${param}` }))),
      h("div", { class: "param-actions" },
        h("button", { type: "button", class: "btn btn-small", onclick: () => { form.hidden = true; } }, "Cancel"),
        h("button", { type: "submit", class: "btn btn-small btn-primary" }, "Go"))) : null;
    const button = h("button", {
      type: "button", class: "goto-button", "data-testid": `goto-${name}`,
      onclick: () => {
        if (form) {
          form.hidden = !form.hidden;
          if (!form.hidden) form.querySelector("input")?.focus();
        } else {
          mutate("navigate", { from: nodeId, screen: name });
        }
      },
    },
    h("span", { class: "goto-glyph", style: `--hue:${hashHue(name)}` }, (info.title ?? name).slice(0, 1).toUpperCase()),
    h("span", { class: "goto-title" }, info.title ?? name,
      params.length ? h("span", { class: "goto-params" }, ` (${params.join(", ")})`) : null),
    h("span", { class: "goto-how" }, info.requires ? icon("lock", "icon tiny") : null, how),
    icon("chevronRight", "icon chevron"));
    if (form) {
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const values = Object.fromEntries(new FormData(form).entries());
        const done = await mutate("navigate", { from: nodeId, screen: name, params: values });
        if (done) { form.reset(); form.hidden = true; }
      });
    }
    append(item, [button, form]);
    list.append(item);
  }
  details.append(list);
  return details;
}

function finishPanel(nodeId) {
  const finish = (status) => mutate("finish", { node: nodeId, result: { status } });
  return h("div", { class: "finish" },
    h("p", { class: "finish-note" }, "This screen is the root of a presented flow. Finishing it hands a result to the screen that showed it."),
    h("div", { class: "finish-actions" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "finish-success", onclick: () => finish("success") },
        icon("check", "icon tiny"), "Finish (success)"),
      h("button", { type: "button", class: "btn", "data-testid": "finish-cancelled", onclick: () => finish("cancelled") },
        "Finish (cancelled)")));
}

// --- Lists

function describeContent(content) {
  if (content === null || typeof content !== "object" || Array.isArray(content)) {
    return typeof content === "string" || typeof content === "number" ? { title: String(content), extras: [] } : { json: content, extras: [] };
  }
  const pick = (keys) => {
    for (const key of keys) {
      const value = content[key];
      if (typeof value === "string" || typeof value === "number") return [key, String(value)];
    }
    return [null, null];
  };
  const [titleKey, title] = pick(["title", "name", "text", "label"]);
  const [subtitleKey, subtitle] = pick(["subtitle", "detail", "description", "email", "handle", "caption", "value"]);
  const extras = [];
  for (const [key, value] of Object.entries(content)) {
    if (key === titleKey || key === subtitleKey || key === "navigate") continue;
    if (value === true) extras.push(key);
    else if (typeof value === "string" || typeof value === "number") extras.push(`${key} ${value}`);
  }
  if (title === null) {
    const { navigate, ...rest } = content;
    return { json: rest, extras: [] };
  }
  return { title, subtitle, extras };
}

function fillCell(cell, item) {
  cell._item = item;
  const content = item.content;
  const navigate = content && typeof content === "object" && content.navigate && typeof content.navigate.screen === "string"
    ? content.navigate : null;
  cell._navigate = navigate;
  cell.dataset.testid = `cell-${item.id}`;
  cell.dataset.itemId = item.id;
  cell.dataset.kind = item.kind ?? "";
  cell.classList.toggle("tappable", Boolean(navigate));
  if (navigate) {
    cell.setAttribute("role", "button");
    cell.setAttribute("tabindex", "0");
    cell.title = `POST navigate ${JSON.stringify({ screen: navigate.screen, params: navigate.params ?? {} })}`;
  } else {
    cell.removeAttribute("role");
    cell.removeAttribute("tabindex");
    cell.removeAttribute("title");
  }
  const { title, subtitle, extras, json } = describeContent(content);
  const main = json !== undefined
    ? h("div", { class: "cell-main" }, h("code", { class: "cell-json" }, JSON.stringify(json)))
    : h("div", { class: "cell-main" },
      h("div", { class: "cell-title" }, title,
        extras.map((extra) => h("span", { class: extra === "verified" ? "cell-flag verified" : "cell-flag" },
          extra === "verified" ? icon("check", "icon tiny") : extra))),
      subtitle ? h("div", { class: "cell-subtitle" }, subtitle) : null);
  const avatarText = (title ?? item.kind ?? "?").trim().slice(0, 1).toUpperCase() || "?";
  cell.replaceChildren();
  append(cell, [
    h("div", { class: "cell-avatar", style: `--hue:${hashHue(item.kind === "user" ? title ?? item.id : item.kind ?? item.id)}` }, avatarText),
    main,
    navigate ? h("span", { class: "cell-target" }, screenTitle(navigate.screen)) : (item.kind ? h("span", { class: "cell-kind" }, item.kind) : null),
    navigate ? icon("chevronRight", "icon chevron") : null]);
}

function renderList(pageEl, node) {
  const list = node.list ?? null;
  const slot = pageEl._listEl;
  const previous = pageEl._list;
  if (!list) {
    if (previous) {
      slot.replaceChildren();
      pageEl._rows = new Map();
      pageEl._sections = new Map();
      pageEl._list = null;
    }
    slot.hidden = true;
    pageEl._listFooter.hidden = true;
    return;
  }
  if (previous && previous.version === list.version) return;
  slot.hidden = false;
  const animate = pageEl._rendered && pageEl.isConnected && !REDUCED_MOTION;

  // First: where every row is now.
  const slotRect = slot.getBoundingClientRect();
  const first = new Map();
  if (animate) for (const [id, row] of pageEl._rows) first.set(id, row.getBoundingClientRect());

  const oldItems = new Map();
  for (const section of previous?.sections ?? []) for (const item of section.items) oldItems.set(item.id, item);
  const newIds = new Set();
  for (const section of list.sections) for (const item of section.items) newIds.add(item.id);
  const moved = new Set();
  const diff = list.diff;
  if (previous && diff && diff.from === previous.version) {
    for (const move of diff.items?.moved ?? []) {
      const item = list.sections[move.to.section]?.items[move.to.item];
      if (item) moved.add(item.id);
    }
  }

  // Deleted rows leave as ghosts where they stood.
  const ghosts = [];
  if (animate) {
    for (const [id, row] of pageEl._rows) {
      if (newIds.has(id)) continue;
      const rect = first.get(id);
      const ghost = row.cloneNode(true);
      ghost.removeAttribute("data-testid");
      ghost.classList.add("ghost");
      Object.assign(ghost.style, {
        top: `${rect.top - slotRect.top}px`, left: `${rect.left - slotRect.left}px`,
        width: `${rect.width}px`, height: `${rect.height}px`,
      });
      ghosts.push(ghost);
    }
  }

  // Build: rows and sections are reused by id.
  const rows = new Map();
  const sections = new Map();
  const updated = new Set();
  const sectionEls = list.sections.map((section) => {
    let sectionEl = pageEl._sections.get(section.id);
    const isNewSection = !sectionEl;
    if (!sectionEl) {
      sectionEl = h("section", { class: "list-section", "data-section-id": section.id },
        h("h3", { class: "section-header" }), h("div", { class: "section-rows" }));
      sectionEl._isNew = true;
    }
    sectionEl.firstElementChild.textContent = section.title ?? section.id;
    const rowEls = section.items.map((item) => {
      let row = pageEl._rows.get(item.id);
      const old = oldItems.get(item.id);
      if (!row) {
        row = h("div", { class: "cell" });
        fillCell(row, item);
      } else if (!old || old.kind !== item.kind || !jsonEqual(old.content, item.content)) {
        fillCell(row, item);
        updated.add(item.id);
      }
      rows.set(item.id, row);
      return row;
    });
    sectionEl.lastElementChild.replaceChildren(...rowEls);
    sectionEl._isNew = isNewSection;
    sections.set(section.id, sectionEl);
    return sectionEl;
  });
  slot.replaceChildren(...sectionEls, ...ghosts);
  pageEl._rows = rows;
  pageEl._sections = sections;
  pageEl._list = { version: list.version, sections: list.sections };

  // Last, invert, play.
  if (animate) {
    for (const [id, row] of rows) {
      if (!oldItems.has(id)) {
        play(row, "row-enter");
        continue;
      }
      const from = first.get(id);
      const to = row.getBoundingClientRect();
      const dx = from.left - to.left;
      const dy = from.top - to.top;
      if (dx || dy) {
        row.style.transition = "none";
        row.style.transform = `translate(${dx}px, ${dy}px)`;
        void row.offsetWidth;
        row.style.transition = "transform 460ms cubic-bezier(.2,.8,.2,1)";
        row.style.transform = "";
        row.addEventListener("transitionend", () => { row.style.transition = ""; }, { once: true });
      }
      if (moved.has(id)) play(row, "row-moved");
      else if (updated.has(id)) play(row, "row-updated");
    }
    for (const ghost of ghosts) play(ghost, "row-exit", () => ghost.remove());
    for (const sectionEl of sectionEls) if (sectionEl._isNew && previous) play(sectionEl.firstElementChild, "row-enter");
  }

  // What changed, as the server's diff says it.
  const count = list.sections.reduce((n, section) => n + section.items.length, 0);
  const parts = [`list v${list.version}`, `${count} ${count === 1 ? "item" : "items"}`];
  if (diff) {
    const items = diff.items ?? {};
    const sectionsDiff = diff.sections ?? {};
    const changes = [
      ["+", (items.inserted?.length ?? 0) + (sectionsDiff.inserted?.length ?? 0), "ins"],
      ["−", (items.deleted?.length ?? 0) + (sectionsDiff.deleted?.length ?? 0), "del"],
      ["⇅", (items.moved?.length ?? 0) + (sectionsDiff.moved?.length ?? 0), "mov"],
      ["~", items.updated?.length ?? 0, "upd"],
    ].filter(([, n]) => n > 0);
    pageEl._listFooter.replaceChildren(h("span", {}, parts.join(" · ")),
      h("span", { class: "diff-chips" }, `diff v${diff.from}→v${diff.to}`,
        changes.map(([sign, n, cls]) => h("span", { class: `diff-chip ${cls}` }, `${sign}${n}`))));
  } else {
    pageEl._listFooter.replaceChildren(h("span", {}, parts.join(" · ")));
  }
  pageEl._listFooter.hidden = false;
}

// --- Tab bar

function tabLabel(tabId) {
  const tab = ui.app?.root?.tabs?.find((item) => item.id === tabId);
  return tab ? screenTitle(tab.screen) : tabId;
}

function renderTabBar() {
  const tabs = ui.state.tabs;
  const key = JSON.stringify(tabs);
  if (dev.tabBar._key === key) return;
  dev.tabBar._key = key;
  dev.tabBar.replaceChildren(...tabs.items.map((item) => {
    const selected = item.id === tabs.selected;
    return h("button", {
      type: "button", class: selected ? "tab is-selected" : "tab", "data-testid": `tab-${item.id}`,
      "aria-pressed": String(selected), title: selected ? `POST pop {"navigator": "${item.navigator}", "toRoot": true}` : `POST select-tab {"tab": "${item.id}"}`,
      onclick: () => {
        if (!selected) {
          mutate("select-tab", { tab: item.id });
        } else if ((ui.index.navigators.get(item.navigator)?.stack.length ?? 0) > 1) {
          mutate("pop", { navigator: item.navigator, toRoot: true }); // as iOS does on a second tap
        }
      },
    }, icon(ICONS[item.id] ? item.id : "grid", "icon tab-icon"), h("span", {}, tabLabel(item.id)));
  }));
}

// ---------------------------------------------------------------------------------------------
// Chrome: header, caption, toast, inspector

function renderHeader() {
  el.sessionId.textContent = ui.session.id;
  el.sessionId.title = `Session ${ui.session.id} (kept in sessionStorage: a reload continues it)`;
  el.version.textContent = `v${ui.state.version}`;
  el.layoutSelect.value = ui.state.layout;
}

function renderLink() {
  const link = ui.link;
  el.currentLink.textContent = link ?? "no route";
  el.currentLink.classList.toggle("is-none", !link);
  el.currentLink.disabled = !link;
  renderSessionPanel();
}

function renderCaption() {
  const node = ui.index.nodes.get(ui.state.focus);
  const navigator = node ? ui.index.navigators.get(node.navigator) : null;
  el.caption.replaceChildren();
  append(el.caption, [
    h("span", { class: "muted" }, "focus "), h("b", {}, ui.state.focus ?? "—"),
    node ? [" ", h("code", {}, node.screen), node.params && Object.keys(node.params).length ? ` (${formatParams(node.params)})` : ""] : "",
    navigator ? [h("span", { class: "muted" }, " on "), h("code", {}, navigator.id)] : ""]);
}

function showToast(message, tone = "error") {
  el.toast.textContent = message;
  el.toast.dataset.tone = tone;
  el.toast.hidden = false;
  play(el.toast, "enter-toast");
  clearTimeout(ui.toastTimer);
  ui.toastTimer = setTimeout(() => { el.toast.hidden = true; }, 4500);
}

function renderInspector() {
  renderTree();
  renderNavigators();
  renderSessionPanel();
}

function renderTree() {
  const { state } = ui;
  const row = (node) => {
    const p = node.presentation ?? {};
    const isFocus = node.id === state.focus;
    const listInfo = node.list ? h("span", { class: "badge badge-list", title: "list version" }, `list v${node.list.version ?? "?"}`) : null;
    return h("li", { class: "tree-item" },
      h("div", { class: isFocus ? "tree-row is-focus" : "tree-row", "data-tree-node": node.id },
        h("span", { class: "tree-id" }, node.id),
        h("span", { class: "tree-screen" }, node.screen),
        Object.keys(node.params ?? {}).length ? h("span", { class: "tree-params" }, formatParams(node.params)) : null,
        h("span", { class: `badge kind-${p.kind}` }, p.kind ?? "?"),
        p.style ? h("span", { class: "badge badge-style" }, p.style) : null,
        node.navigator ? h("span", { class: "badge badge-nav" }, node.navigator) : null,
        listInfo,
        isFocus ? h("span", { class: "badge badge-focus" }, "focus") : null),
      node.children?.length ? h("ul", { class: "tree" }, node.children.map(row)) : null);
  };
  el.tree.replaceChildren(h("ul", { class: "tree tree-root" }, row(state.root)));
}

function renderNavigators() {
  const { state, index } = ui;
  const visible = new Set(baseNavigators(state).flatMap((id) => [id, ...presentedChain(id)]));
  el.navigators.replaceChildren(h("div", { class: "nav-table" }, state.navigators.map((navigator) => {
    const tags = [];
    if (navigator.parent === null) tags.push(state.tabs ? "tab" : "base");
    else tags.push(`presented by ${navigator.parent}`);
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

function renderSessionPanel() {
  const { state } = ui;
  if (!state) return;
  const pending = state.pending;
  const rows = [
    ["layout", h("code", {}, state.layout)],
    ["version", h("code", {}, String(state.version))],
    ["focus", h("code", {}, state.focus ?? "—")],
    state.tabs ? ["tab", h("code", {}, state.tabs.selected)] : null,
    ["link", ui.link ? h("code", {}, ui.link) : h("span", { class: "muted" }, ui.link === null ? "none (404)" : "…")],
    ["flags", (state.flags ?? []).length ? state.flags.map((flag) => h("span", { class: "badge badge-flag" }, flag))
      : h("span", { class: "muted" }, "none")],
    ["pending", pending
      ? h("span", {}, (pending.steps ?? []).map((step, i) => [i ? " › " : "", h("code", {}, step.screen),
        step.params && Object.keys(step.params).length ? ` (${formatParams(step.params)})` : ""]),
      pending.flow ? h("span", { class: "muted" }, ` after flow ${pending.flow}`) : null)
      : h("span", { class: "muted" }, "none")],
  ].filter(Boolean);
  el.sessionPanel.replaceChildren(h("dl", { class: "kv" },
    rows.map(([key, value]) => h("div", { class: "kv-row", "data-kv": key }, h("dt", {}, key), h("dd", {}, value)))));
}

function eventItem(event) {
  const finished = event.type === "finished";
  const detail = finished
    ? h("span", { class: `badge result-${event.result?.status ?? "none"}`, title: JSON.stringify(event.result ?? null) },
      event.result?.status ?? "—")
    : event.reason ? h("span", { class: `badge reason reason-${event.reason}` }, event.reason) : h("span");
  return h("li", { class: `event event-${event.type}`, "data-seq": event.seq },
    h("span", { class: "event-seq" }, `#${event.seq}`),
    h("span", { class: "event-type" }, event.type),
    h("span", { class: "event-node" }, h("b", {}, event.node), " ", event.screen,
      finished && event.parent ? h("span", { class: "muted" }, " → ", h("b", {}, event.parent)) : null),
    detail);
}

function renderEvents(fresh) {
  for (const event of fresh) {
    const item = eventItem(event);
    el.eventLog.prepend(item);
    if (ui.events.length > fresh.length) play(item, "row-enter");
  }
  while (el.eventLog.children.length > 300) el.eventLog.lastElementChild.remove();
  renderEventCount();
}

function renderEventCount() {
  el.eventCount.textContent = `${ui.events.length} ${ui.events.length === 1 ? "event" : "events"}${ui.truncated ? " (truncated)" : ""}`;
  if (!ui.events.length && !el.eventLog.children.length) {
    el.eventLog.dataset.empty = "No events yet: every node that leaves the tree, and every finished flow, is logged here.";
  } else {
    delete el.eventLog.dataset.empty;
  }
}

// ---------------------------------------------------------------------------------------------
// Start

function bindChrome() {
  const resize = new ResizeObserver(() => fitDevice());
  resize.observe(el.device.parentElement);
  resize.observe($(".inspector"));
  fitDevice();
  el.newSession.addEventListener("click", () => newSession(el.layoutSelect.value));
  el.deeplinkForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const url = el.deeplinkInput.value.trim();
    if (!url) {
      showDeeplinkError("Type a link such as /users/42.");
      return;
    }
    el.deeplinkError.hidden = true;
    const done = await mutate("deep-link", { url }, { onError: (error) => showDeeplinkError(error.summary) });
    if (done) el.deeplinkInput.value = "";
  });
  el.deeplinkInput.addEventListener("input", () => { el.deeplinkError.hidden = true; });
  el.toast.addEventListener("click", () => { el.toast.hidden = true; });
  el.currentLink.addEventListener("click", () => {
    if (!ui.link) return;
    el.deeplinkInput.value = ui.link;
    el.deeplinkInput.focus();
  });
}

function showDeeplinkError(message) {
  el.deeplinkError.textContent = message;
  el.deeplinkError.hidden = false;
}

function renderApp() {
  const app = ui.app;
  el.appName.textContent = app.name ?? "app";
  el.appName.title = `App "${app.name}": ${Object.keys(app.screens ?? {}).length} screens, ${(app.routes ?? []).length} routes`;
  if (app.scheme) el.deeplinkScheme.textContent = `${app.scheme}://`;
  const examples = (app.routes ?? []).map((route) => route.path.replace(/:([A-Za-z_]\w*)/g, (_, name) => (/id$/i.test(name) ? "7" : "1")));
  if (examples.length) el.deeplinkInput.placeholder = examples.slice(0, 3).join("   ");
}

async function boot() {
  bindChrome();
  try {
    ui.app = await request("GET", "/v1/app", { auth: false });
  } catch (error) {
    el.caption.textContent = `Cannot load the app description: ${error.summary}`;
    return;
  }
  renderApp();
  const stored = storedSession();
  if (stored) {
    ui.session = stored;
    try {
      startSession(await request("GET", sessionPath()));
    } catch (error) {
      ui.session = null;
      if (error.status !== 401) showToast(`Could not resume the session: ${error.summary}`, "warn");
    }
  }
  if (!ui.state && !(await newSession("stack"))) {
    el.caption.textContent = "Could not create a session.";
  }
  document.documentElement.dataset.ready = "true";
  schedulePoll();
}

boot();
