// The top bar: the app's name, the deep-link bar with the link of what is shown now, and the
// session: its id and version, a new one, or joining one that another client made.

import { $ } from "./dom.js";
import { joinSession, newSession, operate, readOnlyLink } from "./session.js";
import { readOnly, store, subscribe } from "./store.js";
import { showToast } from "./toast.js";

const el = {
  appName: $('[data-testid="app-name"]'),
  deeplinkForm: $('[data-testid="deeplink-form"]'),
  deeplinkInput: $('[data-testid="deeplink-input"]'),
  deeplinkScheme: $('[data-testid="deeplink-scheme"]'),
  deeplinkError: $('[data-testid="deeplink-error"]'),
  currentLink: $('[data-testid="current-link"]'),
  sessionId: $('[data-testid="session-id"]'),
  version: $('[data-testid="session-version"]'),
  layoutSelect: $('[data-testid="layout-select"]'),
  returningToggle: $('[data-testid="returning-toggle"]'),
  returningUser: $('[data-testid="returning-user"]'),
  newSession: $('[data-testid="new-session"]'),
  join: $('[data-testid="join"]'),
  joinForm: $('[data-testid="join-form"]'),
  watchLink: $('[data-testid="watch-link"]'),
  readOnlyBadge: $('[data-testid="read-only-badge"]'),
  shareReadOnly: $('[data-testid="share-read-only"]'),
};

function showDeeplinkError(message) {
  el.deeplinkError.textContent = message;
  el.deeplinkError.hidden = false;
}

function renderApp() {
  const { app } = store;
  el.appName.textContent = app.name ?? "app";
  el.appName.title = `App "${app.name}": ${Object.keys(app.screens ?? {}).length} screens, ${(app.routes ?? []).length} routes`;
  if (app.scheme) el.deeplinkScheme.textContent = `${app.scheme}://`;
  const examples = (app.routes ?? []).map((route) => route.path.replace(/:([A-Za-z_]\w*)/g, (_, name) => (/id$/i.test(name) ? "7" : "1")));
  if (examples.length) el.deeplinkInput.placeholder = examples.slice(0, 3).join("   ");
  // An app of root flows says in each flow's root whether it is split; it may start signed in.
  // A tab bar at the root is never split (`422`): then stack is the one layout, nothing to choose.
  el.layoutSelect.hidden = Boolean(app.flows) || Boolean(app.root?.tabs);
  if (el.layoutSelect.hidden) el.layoutSelect.value = "stack";
  el.returningToggle.hidden = !returningFlags().length;
}

/** The flags of a returning user: every flag a launch rule needs clear to hold back (onboarded,
 *  signedIn), so that a session starts in the app's last flow. */
function returningFlags() {
  return [...new Set((store.app?.launch ?? []).map((rule) => rule.unless).filter(Boolean))];
}

/** What the next session is made with. */
function nextSession() {
  if (store.app?.flows) return { flags: el.returningUser.checked ? returningFlags() : [] };
  return { layout: el.layoutSelect.value };
}

function renderSession() {
  const { session } = store;
  el.sessionId.textContent = session.id;
  el.sessionId.title = `Session ${session.id} (kept in this tab: a reload continues it)`;
  // The token travels in the address's fragment, which browsers never send to a server.
  const fields = new URLSearchParams({ session: session.id, token: session.token });
  el.watchLink.href = `${location.pathname}#${fields}`;
  el.deeplinkError.hidden = true;
}

/** The read-only badge of a session open with a token that only reads, and the button that
 *  makes such a link, for the owner's page only. */
function renderAccess() {
  el.readOnlyBadge.hidden = !readOnly();
  el.shareReadOnly.hidden = store.access?.scope !== "owner";
  el.deeplinkInput.disabled = readOnly();
}

function renderLink() {
  const { link } = store;
  el.currentLink.textContent = link === undefined ? "…" : link ?? "no route";
  el.currentLink.classList.toggle("is-none", !link);
  el.currentLink.disabled = !link;
}

function bind() {
  el.newSession.addEventListener("click", () => newSession(nextSession()));
  el.deeplinkForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const url = el.deeplinkInput.value.trim();
    if (!url) {
      showDeeplinkError("Type a link such as /users/42.");
      return;
    }
    el.deeplinkError.hidden = true;
    if (await operate("deep-link", { url }, { onError: (error) => showDeeplinkError(error.summary) })) {
      el.deeplinkInput.value = "";
    }
  });
  el.deeplinkInput.addEventListener("input", () => { el.deeplinkError.hidden = true; });
  el.currentLink.addEventListener("click", () => {
    if (!store.link) return;
    el.deeplinkInput.value = store.link;
    el.deeplinkInput.focus();
  });
  el.shareReadOnly.addEventListener("click", async () => {
    try {
      const link = await readOnlyLink();
      el.shareReadOnly.dataset.link = link;
      window.open(link, "_blank", "noopener");
    } catch (error) {
      showToast(`Read-only link: ${error.summary}`, "error");
    }
  });
  el.joinForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(el.joinForm);
    const id = String(fields.get("session")).trim();
    const token = String(fields.get("token")).trim();
    if (await joinSession({ id, token })) {
      el.joinForm.reset();
      el.join.open = false;
    }
  });
}

/** Draws the top bar from the store from now on. */
export function startTopbar() {
  bind();
  subscribe((change) => {
    if (change.kind === "app") {
      renderApp();
    } else if (change.kind === "session") {
      renderSession();
      renderLink();
      renderAccess();
    } else if (change.kind === "access") {
      renderAccess();
    } else if (change.kind === "state") {
      el.version.textContent = `v${store.state.version}`;
      if (!store.app?.flows) el.layoutSelect.value = store.state.layout;
    } else if (change.kind === "link") {
      renderLink();
    }
  });
}
