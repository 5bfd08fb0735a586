// One screen on the device: a node's page with its navigation bar (back or close), what the node
// is, its list, the flow it may finish, and the app's screens to go to. A pushed page goes back
// by its back button or by a swipe from its left edge.

import { append, h, hashHue, icon, onDrag, rectWithin, zoomOf } from "./dom.js";
import { screensOfFlow } from "./flows.js";
import { listView } from "./list.js";
import { operate } from "./session.js";
import { isCover, isDismissible, nodeTitle, presentationLabel, screenInfo, screenTitle, shown, store, swipeable } from "./store.js";

/** A swipe back starts this close to a page's left edge, and pops once it is past this share of
 *  its width. */
const EDGE = 24;
const SWIPE_BACK = 0.35;

/**
 * Goes to `screen` from a node (`POST navigate`). A popover needs an anchor, where it points:
 * `anchor` names the list cell or the control tapped.
 */
function navigate(from, screen, params, anchor) {
  const body = { from, screen };
  if (params) body.params = params;
  if (screenInfo(screen)?.style === "popover") body.anchor = anchor;
  return operate("navigate", body);
}

/** A control as a popover's anchor: its name and where it is on the device screen. */
function controlAnchor(control) {
  return { element: control.dataset.anchor, rect: rectWithin(control, control.closest(".device-screen")) };
}

function hero(node) {
  const title = nodeTitle(node);
  const params = Object.entries(node.params ?? {});
  const show = (value) => (typeof value === "string" ? value : JSON.stringify(value));
  return h("div", { class: "hero", style: `--hue:${hashHue(node.screen)}` },
    h("div", { class: "hero-avatar" }, title.slice(0, 1).toUpperCase()),
    h("div", { class: "hero-text" },
      h("div", { class: "hero-title" }, title,
        params.length ? h("span", { class: "hero-param" }, ` ${params.map(([, value]) => String(value)).join(" · ")}`) : null),
      h("div", { class: "hero-sub" },
        h("code", {}, node.screen), h("span", { class: "dot" }, "·"), h("span", {}, node.id),
        h("span", { class: "dot" }, "·"), h("span", {}, presentationLabel(node.presentation)))),
    params.length ? h("dl", { class: "hero-params" },
      params.map(([key, value]) => h("div", { class: "param" }, h("dt", {}, key), h("dd", {}, show(value))))) : null);
}

/** "Go to…", closed until opened: the screens of the node's flow (every screen of an app without
 *  root flows), navigated to from this node (asking for params first). */
function gotoPanel(nodeId) {
  const flow = shown().state.flow;
  const offered = screensOfFlow(store.app, flow);
  const details = h("details", { class: "goto", "data-testid": "goto-panel" },
    h("summary", {}, h("span", {}, "Go to…"),
      h("span", { class: "summary-hint" }, offered ? `POST navigate · ${flow} flow` : "POST navigate")));
  const list = h("div", { class: "goto-list" });
  for (const [name, info] of Object.entries(store.app?.screens ?? {})) {
    if (offered && !offered.has(name)) continue;
    const params = info.params ?? [];
    const how = info.presentation === "present" ? `present · ${info.style ?? "automatic"}` : "push";
    const form = params.length ? h("form", { class: "param-form", hidden: true, autocomplete: "off" },
      params.map((param) => h("label", { class: "param-field" }, h("span", {}, param),
        h("input", { name: param, required: true, placeholder: param, "data-testid": `param-${name}-${param}` }))),
      h("div", { class: "param-actions" },
        h("button", { type: "button", class: "btn btn-small", onclick: () => { form.hidden = true; } }, "Cancel"),
        h("button", { type: "submit", class: "btn btn-small btn-primary" }, "Go"))) : null;
    form?.addEventListener("submit", async (event) => {
      event.preventDefault();
      const values = Object.fromEntries(new FormData(form).entries());
      if (await navigate(nodeId, name, values, controlAnchor(button))) {
        form.reset();
        form.hidden = true;
      }
    });
    const button = h("button", {
      type: "button", class: "goto-button", "data-testid": `goto-${name}`, "data-anchor": `goto-${name}`,
      onclick: () => {
        if (!form) {
          navigate(nodeId, name, null, controlAnchor(button));
          return;
        }
        form.hidden = !form.hidden;
        if (!form.hidden) form.querySelector("input")?.focus();
      },
    },
    h("span", { class: "goto-glyph", style: `--hue:${hashHue(name)}` }, (info.title ?? name).slice(0, 1).toUpperCase()),
    h("span", { class: "goto-title" }, info.title ?? name,
      params.length ? h("span", { class: "goto-params" }, ` (${params.join(", ")})`) : null),
    h("span", { class: "goto-how" }, info.requires ? icon("lock", "icon tiny") : null, how),
    icon("chevronRight", "icon chevron"));
    list.append(append(h("div", { class: "goto-item" }), [button, form]));
  }
  details.append(list);
  return details;
}

/** Finishing a presented flow hands its result to the screen that showed it; finishing the
 *  root of a root flow that completes a flag (onboarding, sign-in) sets it, and the session
 *  moves on to the flow its launch rules choose then. */
function finishPanel(nodeId, completes, flow) {
  const finish = (status) => operate("finish", { node: nodeId, result: { status } });
  const note = completes
    ? `This screen is a root of the ${flow} flow, which completes the ${completes} flag: finishing it sets the flag, and the app moves on to the flow its launch rules choose then.`
    : "This screen is the root of a presented flow. Finishing it hands a result to the screen that showed it.";
  return h("div", { class: "finish" },
    h("p", { class: "finish-note" }, note),
    h("div", { class: "finish-actions" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "finish-success", onclick: () => finish("success") },
        icon("check", "icon tiny"), completes ? `Finish (${completes})` : "Finish (success)"),
      completes ? null : h("button", { type: "button", class: "btn", "data-testid": "finish-cancelled", onclick: () => finish("cancelled") },
        "Finish (cancelled)")));
}

/** The flag a finish of this node sets: a base root of a flow, or the root of an overlay, that
 *  declares `completes`. */
function completedFlag(node) {
  const { state } = shown();
  if (node.presentation?.kind === "overlay") return store.app?.flows?.[state.overlay]?.completes ?? null;
  if (!["root", "tab"].includes(node.presentation?.kind)) return null;
  return store.app?.flows?.[state.flow]?.completes ?? null;
}

/** An overlay that completes no flag leaves when its launch rule no longer holds: the change of
 *  flags that ends it (a lock's `locked` cleared, as the app does once the PIN is right). */
function overlayPanel() {
  const { state } = shown();
  const rule = store.app?.launch?.find((each) => each.flow === state.overlay);
  if (!rule) return null;
  const body = rule.if ? { clear: [rule.if] } : { set: [rule.unless] };
  const label = rule.if ? `Unlock (clear ${rule.if})` : `Unlock (set ${rule.unless})`;
  return h("div", { class: "finish" },
    h("p", { class: "finish-note" },
      `This screen is the ${state.overlay} overlay, over the ${state.flow} flow, which waits beneath it as it is; it leaves once its launch rule no longer holds.`),
    h("div", { class: "finish-actions" },
      h("button", { type: "button", class: "btn btn-primary", "data-testid": "overlay-leave", onclick: () => operate("flags", body) },
        icon("check", "icon tiny"), label)));
}

/** How the person closes a presented root: a cover by its Close button, the app's own dismiss; a
 *  sheet or popover by a swipe, which its Close button stands for (`interactive`) — none while it
 *  or a screen on its stack says it is not dismissible. */
function closeKind(node) {
  if (isCover(node.presentation?.style)) return "close";
  return swipeable(node) ? "swipe" : "none";
}

function backButton(node, below) {
  return h("button", {
    type: "button", class: "nav-button back", "data-role": "back-button",
    title: `POST pop {"navigator": "${node.navigator}"}`,
    onclick: () => operate("pop", { navigator: node.navigator }),
  }, icon("chevronLeft", "icon chevron"), h("span", {}, below ? nodeTitle(below) : "Back"));
}

function closeButton(node, kind) {
  if (kind === "none") return null;
  const body = kind === "swipe" ? { node: node.id, interactive: true } : { node: node.id };
  return h("button", {
    type: "button", class: "nav-button close", "data-role": "close-button",
    title: `POST dismiss ${JSON.stringify(body)}${kind === "swipe" ? ": as a swipe down would" : ""}`,
    onclick: () => operate("dismiss", body),
  }, "Close");
}

/** A pushed page follows a drag from its left edge; let go past SWIPE_BACK of its width, it is
 *  popped as the user's swipe (`interactive`). `canSwipe()` names the navigator it pops, or null
 *  while it cannot go back. */
function swipeBack(element, canSwipe) {
  let navigator = null;
  onDrag(element, {
    onStart: (event) => {
      navigator = canSwipe();
      return Boolean(navigator) && (event.clientX - element.getBoundingClientRect().left) / zoomOf(element) < EDGE;
    },
    onMove: ({ dx }) => { element.style.transform = `translateX(${Math.max(0, dx / zoomOf(element))}px)`; },
    onEnd: ({ dx }, cancelled) => {
      element.style.transform = "";
      if (!cancelled && dx / zoomOf(element) > element.offsetWidth * SWIPE_BACK) operate("pop", { navigator, interactive: true });
    },
  });
}

/**
 * The page of node `nodeId` (as it stands in the state shown: live, or an earlier version).
 * @returns {{element: Element, update: (stack: {ids: string[], name: string}) => void}} `update`
 *   draws what changed since, on the stack it is shown in (a navigator's, or the compact one of a
 *   split view, across its columns).
 */
export function screenPage(nodeId) {
  const node = shown().index.nodes.get(nodeId);
  const leading = h("div", { class: "nav-leading" });
  const trailing = h("div", { class: "nav-trailing" });
  const title = h("h1", { class: "nav-title", "data-role": "nav-title" }, nodeTitle(node));
  const navBar = h("header", { class: "nav-bar" }, leading, title, trailing);
  const banner = h("div", { class: "pending-banner", hidden: true });
  const list = listView({ onNavigate: ({ screen, params }, item) => navigate(nodeId, screen, params, { item }) });
  const goto = gotoPanel(nodeId);
  const requires = screenInfo(node.screen)?.requires;
  const completes = completedFlag(node);
  const overlayRoot = node.presentation?.kind === "overlay" && !completes;
  const body = h("div", { class: "page-body" }, hero(node), banner, list.list, list.footer,
    node.presentation?.kind === "present" || completes
      ? finishPanel(nodeId, completes, node.presentation?.kind === "overlay" ? shown().state.overlay : shown().state.flow)
      : overlayRoot ? overlayPanel() : null, goto,
    requires ? h("p", { class: "page-note" }, icon("lock", "icon tiny"), ` guarded by the ${requires} flag`) : null);
  const element = h("article", { class: "page", "data-node-id": nodeId, "data-screen": node.screen }, navBar, body);

  let leadingKey = null;
  let trailingKey = null;
  /** The navigator a swipe from the left edge pops, while this page is on top of a stack above another. */
  let swipePops = null;
  swipeBack(element, () => swipePops);

  function updateNavBar(current, stack) {
    const position = stack.ids.indexOf(nodeId);
    const presented = position === 0 && Boolean(shown().index.navigators.get(current.navigator)?.parent);
    const below = position > 0 ? stack.ids[position - 1] : null;
    const key = below ? `back:${below}` : presented ? `close:${closeKind(current)}` : "";
    swipePops = below && position === stack.ids.length - 1 && isDismissible(current) ? current.navigator : null;
    if (key !== leadingKey) {
      leadingKey = key;
      leading.replaceChildren();
      if (below) leading.append(backButton(current, shown().index.nodes.get(below)));
      else if (presented) append(leading, closeButton(current, closeKind(current)));
    }
    const depthKey = `${stack.name}:${position}/${stack.ids.length}`;
    if (depthKey !== trailingKey) {
      trailingKey = depthKey;
      trailing.replaceChildren(h("span", {
        class: "nav-depth", title: `${stack.name}: ${stack.ids.length} on its stack`,
      }, `${position + 1}/${stack.ids.length}`));
    }
  }

  function update(stack) {
    const current = shown().index.nodes.get(nodeId);
    if (!current) return;
    title.textContent = nodeTitle(current);
    updateNavBar(current, stack);

    // A guarded target waits for this flow: say what finishing it resumes. A deep link that
    // waits for a later root flow shows on the focused screen.
    const { pending, focus } = shown().state;
    const waiting = pending && pending.flow === nodeId ? pending.steps ?? [] : null;
    const link = pending?.operation === "deepLink" && focus === nodeId ? pending : null;
    banner.hidden = !waiting && !link;
    banner.dataset.testid = link ? "pending-link-banner" : "pending-banner";
    if (waiting) {
      banner.replaceChildren(icon("lock", "icon tiny"),
        h("span", {}, "Finish with success to continue to ",
          h("b", {}, waiting.map((step) => screenTitle(step.screen)).join(" › ") || "the target"), "."));
    } else if (link) {
      banner.replaceChildren(icon("link", "icon tiny"),
        h("span", {}, "The link ", h("b", {}, link.url), shown().state.overlay && link.flow === shown().state.flow
          ? ` waits for the ${shown().state.overlay} overlay to leave: it opens then.`
          : ` waits for the ${link.flow} flow: it opens when the session gets there.`));
    }

    list.render(current.list ?? null);
  }

  return { element, update };
}
