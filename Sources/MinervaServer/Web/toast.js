// The device's toast: one short message at a time, about what a tap or the session did.

import { $, play } from "./dom.js";

const SHOWN_MS = 4500;
const toast = $('[data-testid="toast"]');
let hideTimer = 0;

toast.addEventListener("click", () => { toast.hidden = true; });

/** Shows `message`; `tone` is "error", "warn" or "info". */
export function showToast(message, tone = "error") {
  toast.textContent = message;
  toast.dataset.tone = tone;
  toast.hidden = false;
  play(toast, "enter-toast");
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { toast.hidden = true; }, SHOWN_MS);
}
