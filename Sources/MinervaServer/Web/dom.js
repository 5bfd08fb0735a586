// DOM helpers: building elements, icons, and playing CSS animations. Knows nothing of Minerva.

const REDUCED_MOTION = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Whether the person asked for less motion: animations are skipped. */
export const reducedMotion = () => REDUCED_MOTION;

/** The first element `selector` finds under `root`. */
export const $ = (selector, root = document) => root.querySelector(selector);

/** `h("div", {class: "x", onclick: f}, child, "text", [more])`: an element with attributes,
 *  listeners (`on…` functions) and children (nodes, text, nested arrays; null and false skipped). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  return append(node, children);
}

/** Appends children as `h` takes them. */
export function append(node, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** `svg("rect", {x: 1})`: an SVG element with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const ICONS = {
  chevronLeft: "M15 5l-7 7 7 7",
  chevronRight: "M9 5l7 7-7 7",
  home: "M3.5 11L12 4l8.5 7M6 9.5V20h4.5v-5.5h3V20H18V9.5",
  account: "M12 12.5a4 4 0 100-8 4 4 0 000 8zM4.5 20.5c.8-3.6 3.9-5.5 7.5-5.5s6.7 1.9 7.5 5.5",
  grid: "M4.5 4.5h6v6h-6zM13.5 4.5h6v6h-6zM4.5 13.5h6v6h-6zM13.5 13.5h6v6h-6z",
  lock: "M7 11V8a5 5 0 0110 0v3M5.5 11h13v9h-13z",
  check: "M5 12.5l4.5 4.5L19 7",
  link: "M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1",
};

/** Whether there is an icon of this name. */
export const hasIcon = (name) => Object.hasOwn(ICONS, name);

/** An inline SVG icon (a grid when the name is unknown). */
export function icon(name, cls = "icon") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", cls);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", hasIcon(name) ? ICONS[name] : ICONS.grid);
  svg.append(path);
  return svg;
}

/** The animation each element plays now: a newer `play` or `stopAnimation` supersedes it. */
const playing = new WeakMap();

/** Plays a CSS animation class on a node; `done` runs when it ends (or after a timeout). */
export function play(node, cls, done) {
  if (REDUCED_MOTION) { done?.(); return; }
  const token = {};
  playing.set(node, token);
  node.classList.add(cls);
  const finish = () => {
    if (playing.get(node) !== token) return;
    playing.delete(node);
    node.classList.remove(cls);
    node.removeEventListener("animationend", onEnd);
    done?.();
  };
  const onEnd = (event) => { if (event.target === node) finish(); };
  node.addEventListener("animationend", onEnd);
  setTimeout(finish, 900);
}

/** Stops any animation `play` started on the node (its `done` is not run). */
export function stopAnimation(node) {
  playing.delete(node);
  for (const cls of [...node.classList]) if (/^(enter|exit)-/.test(cls)) node.classList.remove(cls);
}

/** A pointer that moves less than this (CSS pixels) between press and release is a tap. */
const TAP_SLOP = 5;

/** Swallows the click that a browser sends after a drag. */
function swallowNextClick() {
  const swallow = (event) => { event.preventDefault(); event.stopPropagation(); };
  window.addEventListener("click", swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
}

/**
 * Follows a pointer pressed on `element` and dragged. `onStart(event)` says whether to follow it;
 * then `onMove({dx, dy})` while it moves and `onEnd({dx, dy}, cancelled)` when it is let go get
 * how far it went from where it was pressed (viewport pixels). A pointer that barely moves is a
 * tap: it is left to `click`, and a drag never ends in one.
 */
export function onDrag(element, { onStart, onMove, onEnd }) {
  element.addEventListener("pointerdown", (down) => {
    if (down.button !== 0 || !down.isPrimary || !onStart(down)) return;
    let moved = false;
    const delta = (event) => ({ dx: event.clientX - down.clientX, dy: event.clientY - down.clientY });
    const move = (event) => {
      if (event.pointerId !== down.pointerId) return;
      const way = delta(event);
      moved ||= Math.hypot(way.dx, way.dy) >= TAP_SLOP;
      if (moved) onMove(way);
    };
    const up = (event) => {
      if (event.pointerId !== down.pointerId) return;
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!moved) return;
      swallowNextClick();
      onEnd(delta(event), event.type === "pointercancel");
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  });
}

/** How many viewport pixels one of `element`'s own CSS pixels takes (CSS zoom scales both). */
export const zoomOf = (element) => element.getBoundingClientRect().width / element.offsetWidth || 1;

/** Where `element` is inside `container`: [x, y, width, height] in the container's own CSS pixels. */
export function rectWithin(element, container) {
  const outer = container.getBoundingClientRect();
  const inner = element.getBoundingClientRect();
  const zoom = zoomOf(container);
  return [inner.left - outer.left, inner.top - outer.top, inner.width, inner.height].map((value) => Math.round(value / zoom * 10) / 10);
}

/** A stable hue (0–359) for a text, for avatars and glyphs. */
export function hashHue(text) {
  let hash = 0;
  for (const char of String(text)) hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return hash % 360;
}

/** `key: value, …` for a params object. */
export function formatParams(params) {
  return Object.entries(params ?? {})
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`).join(", ");
}
