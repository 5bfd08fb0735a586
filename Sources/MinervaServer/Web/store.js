// The one store the modules share, and the views derived from the state in it. Only session.js
// changes the store; it then tells the subscribers what changed.

export const store = {
  /** The app description (GET /v1/app). */
  app: null,
  /** What the server offers besides the app (GET /v1/server): `{adminAnalytics}`. */
  server: null,
  /** The session followed: `{id, token}`. */
  session: null,
  /** What its token may do (`GET …/access`): `{scope: "owner" | "read" | "write"}`, null until known. */
  access: null,
  /** The last state document applied, and `index`, its nodes and navigators by id. */
  state: null,
  index: null,
  /** The session's events as they arrived, oldest first; `truncated` when older ones are lost. */
  events: [],
  truncated: false,
  /** The deep link that rebuilds the state: a string, `null` when no route describes it,
   *  `undefined` while unknown. */
  link: undefined,
  /** How the page follows the session: "connecting", "stream", "stream+watch", "poll",
   *  "offline" or "ended". */
  updates: "connecting",
  /** The versions this page made itself by putting sample lists on nodes shown without one: a
   *  session's first nodes (a new session has no lists, so that is one change after it), or
   *  nodes another client added. */
  sampleVersions: new Set(),
  /** Whether a tap's operation is on its way. */
  busy: false,
  /** An earlier version that the timeline shows instead of the live state: `{state, index}`,
   *  or null while the views follow the session live. */
  past: null,
};

const listeners = new Set();

/**
 * Calls `listener(change)` after every change of the store. A change is one of
 * `{kind: "app"}` (the app description loaded), `{kind: "session"}` (another session: start afresh), `{kind: "state", previous, animate}`
 * (`previous`: the index of the state before), `{kind: "events", fresh, history}` (`history`: events the session had when it was opened), `{kind: "link"}`,
 * `{kind: "updates"}`, `{kind: "busy"}`, `{kind: "access"}` and `{kind: "past", previous}` (the views show another
 * version, or the live state again: `previous` is the index of what they showed before).
 */
export function subscribe(listener) {
  listeners.add(listener);
}

/** Tells every subscriber about a change (session.js only). */
export function publish(change) {
  for (const listener of listeners) listener(change);
}

/** Whether the session is open with a token that may only read it: the page offers no change. */
export function readOnly() {
  return store.access?.scope === "read";
}

/** The state the views draw, and its index: the earlier version the timeline shows, else the
 *  live state. */
export function shown() {
  return store.past ?? { state: store.state, index: store.index };
}

/** The nodes (with their parents) and navigators of a state, by id, and its compact stack. */
export function indexState(state) {
  const nodes = new Map();
  const parents = new Map();
  const walk = (node, parent) => {
    nodes.set(node.id, node);
    parents.set(node.id, parent);
    for (const child of node.children ?? []) walk(child, node.id);
  };
  walk(state.root, null);
  const navigators = new Map(state.navigators.map((navigator) => [navigator.id, navigator]));
  return { nodes, parents, navigators, compactStack: state.compactStack ?? [] };
}

/** What the app description says of a screen, or null. */
export function screenInfo(screen) {
  return store.app?.screens?.[screen] ?? null;
}

/** A screen's title (its name when the app description gives none). */
export function screenTitle(screen) {
  return screenInfo(screen)?.title ?? screen;
}

/** A node's title: the state's, which is the title in the session's own app version (a server
 *  older than titles in the state leaves it to the app description). */
export function nodeTitle(node) {
  return node.title ?? screenTitle(node.screen);
}

/** A tab's label: the title of the root of its stack. */
export function tabLabel(item) {
  const { index } = shown();
  const root = index.nodes.get(index.navigators.get(item.navigator)?.stack[0]);
  return root ? nodeTitle(root) : item.id;
}

/** The base navigators on screen: the selected tab's, or a split view's columns, or the only one. */
export function baseNavigators(state) {
  if (state.tabs) {
    const item = state.tabs.items.find((tab) => tab.id === state.tabs.selected);
    return item ? [item.navigator] : [];
  }
  return state.navigators.filter((navigator) => navigator.parent === null && navigator.id !== OVERLAY).map((navigator) => navigator.id);
}

/** The navigator of an overlay flow (a PIN lock) shown over the session's flow (`state.overlay`). */
export const OVERLAY = "overlay";

/** The navigators presented above a base one, bottom first. */
export function presentedChain(index, baseId) {
  const chain = [];
  let navigator = index.navigators.get(baseId);
  while (navigator?.presented) {
    const node = index.nodes.get(navigator.presented);
    navigator = node ? index.navigators.get(node.navigator) : null;
    if (!navigator || chain.includes(navigator.id)) break;
    chain.push(navigator.id);
  }
  return chain;
}

/** Every navigator on screen: the base ones and what they present, and an overlay's over them. */
export function visibleNavigators(state, index) {
  const bases = state.overlay ? [...baseNavigators(state), OVERLAY] : baseNavigators(state);
  return bases.flatMap((id) => [id, ...presentedChain(index, id)]);
}

const COVER_STYLES = new Set(["fullScreen", "overFullScreen", "currentContext", "overCurrentContext", "custom"]);

/** Whether a modal style covers what it is presented over, which the user cannot swipe away
 *  (else it is a sheet, or a popover). */
export const isCover = (style) => COVER_STYLES.has(style);

/** How a presented node shows: "cover", "sheet", or "popover" — which is a sheet where the
 *  width is compact, as UIKit adapts it. */
export function modalMode(node, compact) {
  const style = node?.presentation?.style;
  if (isCover(style)) return "cover";
  return style === "popover" && !compact ? "popover" : "sheet";
}

/** Whether the user may swipe a node away (or back): the node's own `dismissible` (a present's, or
 *  the app's while it is shown), else its screen's, else yes. */
export function isDismissible(node) {
  return (node.dismissible ?? screenInfo(node.screen)?.dismissible) !== false;
}

/** Whether the user may swipe a presented node away: it and every screen on its stack allow it
 *  (UIKit asks the child shown; the server refuses the swipe otherwise). */
export function swipeable(node) {
  const { index } = shown();
  const stack = index.navigators.get(node.navigator)?.stack ?? [node.id];
  return stack.every((id) => !index.nodes.has(id) || isDismissible(index.nodes.get(id)));
}

/** Whether a presented node stays inside its tab (or split column): `context` level; any other
 *  level, unknown ones too, covers the whole window. */
export const staysInContext = (node) => node?.presentation?.level === "context";

/** A detent's id: `medium`, `large`, or the id of an app's own. */
export const detentId = (detent) => (typeof detent === "string" ? detent : detent.id);

/** The detent a sheet stands at: its `selected`, else its first. */
export const selectedDetent = (sheet) => sheet.selected ?? detentId(sheet.detents[0]);

/** `push`, `present · fullScreen`, … */
export function presentationLabel(presentation) {
  if (!presentation) return "";
  return presentation.style ? `${presentation.kind} · ${presentation.style}` : presentation.kind;
}
