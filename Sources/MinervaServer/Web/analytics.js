// The Analytics view: the admin reports of /v1/admin/analytics/ over every session — a funnel
// chart and the screens table, both drawn as SVG — and the app's experiments (experiments.js).
// It asks for the admin token once (kept for this tab only, in sessionStorage) and sends it only
// in the Authorization header.

import { loadAdmin } from "./api.js";
import { $, h, svg } from "./dom.js";
import { experimentsPanel } from "./experiments.js";

const TOKEN_KEY = "minerva.adminToken";
const EXIT_COLORS = {
  pop: "var(--blue)", dismiss: "var(--purple)", finish: "var(--green)", deepLink: "var(--teal)",
  setRoot: "#5b8def", ancestorRemoved: "#a0a6b6", expired: "var(--orange)", deleted: "var(--red)", active: "#c9cdd8",
};

/** A report, or throws `{status, message}`. */
const report = (name, query, token) => loadAdmin(`/v1/admin/analytics/${name}${query}`, token);

/** The funnel as horizontal bars, one per step, with the share of the first step and, between
 *  steps, how many stopped and how (most common ways first). */
function funnelChart(funnel) {
  const width = 640;
  const rowHeight = 58;
  const top = funnel.steps[0]?.sessions || 1;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${funnel.steps.length * rowHeight + 8}`, role: "img", class: "analytics-funnel",
    "data-testid": "analytics-funnel", "aria-label": "Funnel",
  });
  funnel.steps.forEach((step, index) => {
    const y = index * rowHeight + 4;
    const barWidth = Math.max(2, ((width - 200) * step.sessions) / top);
    const share = Math.round((100 * step.sessions) / top);
    chart.append(
      svg("text", { x: 0, y: y + 20, class: "funnel-screen" }, step.screen),
      svg("rect", { x: 120, y: y + 4, width: width - 200, height: 24, rx: 6, class: "funnel-track" }),
      svg("rect", {
        x: 120, y: y + 4, width: barWidth, height: 24, rx: 6, class: "funnel-bar",
        "data-testid": "funnel-bar", "data-screen": step.screen, "data-sessions": step.sessions,
      }),
      svg("text", { x: width - 72, y: y + 21, class: "funnel-count" }, `${step.sessions} · ${share}%`),
    );
    if (index < funnel.steps.length - 1 && step.stopped > 0) {
      const ways = step.exits.slice(0, 3).map((exit) => `${exit.sessions} ${exit.reason} on ${exit.screen}`).join(", ");
      chart.append(svg("text", { x: 120, y: y + 46, class: "funnel-drop" }, `↳ ${step.stopped} stopped: ${ways}`));
    }
  });
  return chart;
}

/** A stacked bar of a screen's exits by reason. */
function exitBar(exits) {
  const total = Object.values(exits).reduce((sum, count) => sum + count, 0);
  const bar = svg("svg", { viewBox: "0 0 120 12", class: "exit-bar", "aria-hidden": "true" });
  let x = 0;
  for (const [reason, count] of Object.entries(exits)) {
    const width = total ? (120 * count) / total : 0;
    bar.append(svg("rect", { x, y: 0, width, height: 12, fill: EXIT_COLORS[reason] ?? "var(--ink-3)" }, svg("title", {}, `${reason}: ${count}`)));
    x += width;
  }
  return bar;
}

/** Seconds for people: `—`, `240 ms`, `12.5 s`, `3.2 min`. */
const seconds = (value) =>
  value === null ? "—" : value < 1 ? `${Math.round(value * 1000)} ms` : value < 60 ? `${value.toFixed(1)} s` : `${(value / 60).toFixed(1)} min`;

/** The screens table: shown, sessions, exits (a bar and the counts), time on screen. */
function screensTable(screens) {
  return h("table", { class: "analytics-table", "data-testid": "analytics-screens" },
    h("thead", {}, h("tr", {}, ["Screen", "Shown", "Sessions", "Exits", "", "Median", "p90"].map((title) => h("th", {}, title)))),
    h("tbody", {}, screens.map((row) => h("tr", { "data-screen": row.screen },
      h("td", { class: "mono" }, row.screen),
      h("td", { class: "num", "data-testid": "screen-shown" }, row.shown),
      h("td", { class: "num" }, row.sessions),
      h("td", {}, exitBar(row.exits)),
      h("td", { class: "exit-counts", "data-testid": "screen-exits" },
        Object.entries(row.exits).map(([reason, count]) => `${reason} ${count}`).join(" · ") || "—"),
      h("td", { class: "num" }, seconds(row.timeOnScreen.median)),
      h("td", { class: "num" }, seconds(row.timeOnScreen.p90)),
    ))));
}

/** The colours of the exit reasons that `screens` has, as a key under the table. */
function exitLegend(screens) {
  const reasons = [...new Set(screens.flatMap((row) => Object.keys(row.exits)))].sort();
  return h("p", { class: "exit-legend", "data-testid": "analytics-legend" }, reasons.map((reason) => h("span", {},
    svg("svg", { viewBox: "0 0 10 10", class: "exit-swatch", "aria-hidden": "true" }, svg("rect", { width: 10, height: 10, rx: 2, fill: EXIT_COLORS[reason] ?? "var(--ink-3)" })),
    reason)));
}

/** The steps a funnel starts with: home, profile, followers when the app has them, else its first screens. */
function defaultSteps(app) {
  const screens = Object.keys(app?.screens ?? {});
  const demo = ["home", "profile", "followers"];
  return (demo.every((screen) => screens.includes(screen)) ? demo : screens.slice(0, 3)).join(",");
}

/** Builds the view (hidden) and the top bar's button that opens it (on a server whose admin
 *  paths answer: `GET /v1/server` says so). */
export function startAnalytics(app) {
  const message = h("p", { class: "analytics-message", "data-testid": "analytics-message", role: "alert", hidden: true });
  const tokenForm = h("form", { class: "analytics-token", "data-testid": "analytics-token-form", autocomplete: "off", hidden: true },
    h("label", {}, h("span", {}, "Admin token"),
      h("input", { name: "token", type: "password", required: true, spellcheck: "false", "data-testid": "analytics-token" })),
    h("button", { type: "submit", class: "btn btn-primary", "data-testid": "analytics-token-go" }, "Show analytics"),
    h("span", { class: "muted" }, "The server's --admin-token; asked once, kept for this tab."));
  const stepsForm = h("form", { class: "analytics-steps", "data-testid": "analytics-steps-form", autocomplete: "off" },
    h("label", {}, h("span", {}, "Funnel"),
      h("input", { name: "steps", value: defaultSteps(app), spellcheck: "false", "data-testid": "analytics-steps" })),
    h("label", {}, h("span", {}, "within"), h("input", { name: "within", value: "30m", size: 5, "data-testid": "analytics-within" })),
    h("button", { type: "submit", class: "btn" }, "Update"));
  const experiments = experimentsPanel(app);
  const funnelHolder = h("div", { class: "analytics-chart" });
  const tableHolder = h("div", { class: "analytics-table-wrap" });
  const view = h("section", { class: "analytics", "data-testid": "analytics-view", "aria-label": "Analytics", hidden: true },
    h("header", { class: "analytics-head" },
      h("h2", {}, "Analytics ", h("span", { class: "muted" }, "every session, from the server's rollups")),
      h("button", { type: "button", class: "btn", "data-testid": "analytics-close" }, "Back to the session")),
    message, tokenForm,
    h("div", { class: "analytics-body", "data-testid": "analytics-body", hidden: true },
      h("section", { class: "panel" }, h("header", { class: "panel-head" }, h("h2", {}, "Funnel")), h("div", { class: "panel-body" }, stepsForm, funnelHolder)),
      h("section", { class: "panel" }, h("header", { class: "panel-head" }, h("h2", {}, "Screens")), h("div", { class: "panel-body" }, tableHolder)),
      experiments?.panel));
  document.body.append(view);

  let token = sessionStorage.getItem(TOKEN_KEY);
  const show = (text) => {
    message.textContent = text;
    message.hidden = !text;
  };

  async function refresh() {
    if (!token) {
      tokenForm.hidden = false;
      $("input", tokenForm).focus();
      return;
    }
    const steps = $('[data-testid="analytics-steps"]', stepsForm).value.trim();
    const within = $('[data-testid="analytics-within"]', stepsForm).value.trim();
    const query = `?steps=${encodeURIComponent(steps)}${within ? `&within=${encodeURIComponent(within)}` : ""}`;
    try {
      const [funnel, screens] = await Promise.all([report("funnel", query, token), report("screens", "", token), experiments?.refresh(token)]);
      show("");
      tokenForm.hidden = true;
      funnelHolder.replaceChildren(funnelChart(funnel));
      tableHolder.replaceChildren(screensTable(screens.screens), exitLegend(screens.screens));
      $('[data-testid="analytics-body"]', view).hidden = false;
      view.dataset.loaded = String(Date.now());
    } catch (error) {
      if (error.status === 401) {
        token = null;
        sessionStorage.removeItem(TOKEN_KEY);
        tokenForm.hidden = false;
        $('[data-testid="analytics-body"]', view).hidden = true;
      }
      show(error.status === 401 ? "That is not the admin token." : error.message);
    }
  }

  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    token = $("input", tokenForm).value;
    sessionStorage.setItem(TOKEN_KEY, token);
    $("input", tokenForm).value = "";
    refresh();
  });
  stepsForm.addEventListener("submit", (event) => {
    event.preventDefault();
    refresh();
  });
  $('[data-testid="analytics-close"]', view).addEventListener("click", () => {
    view.hidden = true;
  });
  const open = h("button", { type: "button", class: "btn", "data-testid": "analytics-open", title: "Flow analytics of every session (admin token)" }, "Analytics");
  open.addEventListener("click", () => {
    view.hidden = false;
    refresh();
  });
  $(".session-controls").append(open);
}
