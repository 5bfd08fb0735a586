// Minerva Server's web client. It renders a session's state document in a phone-like frame,
// reports taps as the API's operations and follows the session live; everything it shows comes
// from the server. This module starts it: the views, the app description, then the session.

import { startAnalytics } from "./analytics.js";
import { startDevice } from "./device.js";
import { $ } from "./dom.js";
import { startInspector } from "./inspector.js";
import { startSamples } from "./samples.js";
import { joinSession, loadApp, openFirstSession } from "./session.js";
import { startTimeline } from "./timeline.js";
import { store } from "./store.js";
import { startTopbar } from "./topbar.js";

/** `#session=ID&token=…` in the page's address, or null. Browsers never send the fragment to a
 *  server, so the token stays out of every URL that travels. */
function sessionInAddress() {
  const fields = new URLSearchParams(location.hash.slice(1));
  const id = fields.get("session");
  const token = fields.get("token");
  return id && token ? { id, token } : null;
}

/** Takes `#session=…&token=…` out of the address once read, so that the token does not linger. */
function forgetAddressedSession() {
  history.replaceState(null, "", location.pathname + location.search);
}

async function start() {
  startDevice();
  startInspector();
  startTimeline();
  startTopbar();
  startSamples();
  try {
    await loadApp();
  } catch (error) {
    $('[data-testid="stage-caption"]').textContent = `Cannot load the app description: ${error.summary}`;
    return;
  }
  // The Analytics button only where the admin paths answer: nothing to try on other servers.
  if (store.server.adminAnalytics) startAnalytics(store.app);
  const addressed = sessionInAddress();
  if (addressed) forgetAddressedSession();
  const opened = await openFirstSession(addressed);
  if (!opened) $('[data-testid="stage-caption"]').textContent = "Could not create a session.";
  window.addEventListener("hashchange", async () => {
    const addressed = sessionInAddress();
    if (!addressed) return;
    forgetAddressedSession();
    await joinSession(addressed);
  });
  document.documentElement.dataset.ready = "true";
}

start();
