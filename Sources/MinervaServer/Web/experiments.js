// The Experiments panel of the Analytics view: for each experiment the app declares, its results
// (GET /v1/admin/experiments/{key}) as a picture — each metric's rate per variant with its 95%
// interval, the lift against control with its tests, the cumulative conversion over time — and
// the sample-ratio check, which says whether the results can be trusted at all.

import { loadAdmin } from "./api.js";
import { h, svg } from "./dom.js";

const VARIANT_COLORS = ["#8a90a2", "var(--blue)", "var(--purple)", "var(--orange)", "var(--teal)", "var(--green)"];

const percent = (value, digits = 1) => (value === null ? "—" : `${(100 * value).toFixed(digits)}%`);
const points = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(100 * value).toFixed(1)} pts`;
const pValue = (value) => (value === null ? "—" : value < 0.001 ? "p < 0.001" : `p = ${value.toFixed(3)}`);
const span = ([low, high]) => `[${(100 * low).toFixed(1)}, ${(100 * high).toFixed(1)}]`;

/** Each variant's rate as a dot on its interval, on one scale from 0. */
function rateChart(metric) {
  const width = 560;
  const row = 26;
  const left = 80;
  const right = 210;
  const top = Math.min(1, Math.max(0.05, ...metric.variants.map((variant) => variant.rateInterval?.[1] ?? 0)) * 1.1);
  const x = (value) => left + ((width - left - right) * value) / top;
  const bottom = metric.variants.length * row + 6;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${bottom + 14}`, role: "img", class: "experiment-rates",
    "data-testid": "experiment-rates", "aria-label": `${metric.name}: rate per variant`,
  });
  chart.append(
    svg("line", { x1: left, x2: x(top), y1: bottom, y2: bottom, class: "experiment-axis" }),
    svg("text", { x: left, y: bottom + 12, class: "experiment-axis-label", "text-anchor": "middle" }, "0%"),
    svg("text", { x: x(top), y: bottom + 12, class: "experiment-axis-label", "text-anchor": "middle" }, percent(top, 0)),
  );
  metric.variants.forEach((variant, index) => {
    const y = index * row + 15;
    const color = VARIANT_COLORS[index % VARIANT_COLORS.length];
    chart.append(svg("text", { x: 0, y: y + 4, class: "experiment-variant" }, variant.name));
    if (variant.rateInterval) {
      const [low, high] = variant.rateInterval;
      chart.append(
        svg("line", { x1: x(low), x2: x(high), y1: y, y2: y, stroke: color, class: "experiment-interval" }),
        svg("circle", {
          cx: x(variant.rate), cy: y, r: 5, fill: color, "data-testid": "variant-rate", "data-variant": variant.name,
          "data-rate": variant.rate, "data-low": low, "data-high": high,
        }, svg("title", {}, `${variant.name}: ${variant.conversions} of ${variant.units}`)),
      );
    }
    chart.append(svg("text", { x: width - right + 12, y: y + 4, class: "experiment-figure" },
      `${percent(variant.rate)} ${variant.rateInterval ? span(variant.rateInterval) : ""} · ${variant.conversions}/${variant.units}`));
  });
  return chart;
}

/** Each variant's conversions over exposed units so far, from the first exposure to now. */
function timelineChart(metric) {
  const width = 320;
  const height = 110;
  const rates = metric.variants.map((variant) => variant.timeline.map((point) => (point.exposed ? point.conversions / point.exposed : null)));
  const top = Math.min(1, Math.max(0.05, ...rates.flat().filter((rate) => rate !== null)) * 1.1);
  const count = Math.max(1, ...metric.variants.map((variant) => variant.timeline.length));
  const x = (index) => 6 + ((width - 12) * (count === 1 ? 1 : index / (count - 1)));
  const y = (rate) => height - 16 - ((height - 28) * rate) / top;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", class: "experiment-timeline", "data-testid": "experiment-timeline",
    "aria-label": `${metric.name}: cumulative conversion over time`,
  });
  chart.append(
    svg("line", { x1: 6, x2: width - 6, y1: height - 16, y2: height - 16, class: "experiment-axis" }),
    svg("text", { x: 6, y: height - 3, class: "experiment-axis-label" }, "first exposure"),
    svg("text", { x: width - 6, y: height - 3, class: "experiment-axis-label", "text-anchor": "end" }, "now"),
    svg("text", { x: 6, y: 10, class: "experiment-axis-label" }, `cumulative rate, up to ${percent(top, 0)}`),
  );
  rates.forEach((series, index) => {
    const line = series.map((rate, point) => (rate === null ? null : `${x(point).toFixed(1)},${y(rate).toFixed(1)}`)).filter(Boolean);
    if (line.length) {
      chart.append(svg("polyline", {
        points: line.join(" "), fill: "none", stroke: VARIANT_COLORS[index % VARIANT_COLORS.length], class: "experiment-line",
        "data-variant": metric.variants[index].name,
      }));
    }
  });
  return chart;
}

/** What a metric converts on, in words. */
function goal(metric) {
  return metric.funnel ? `funnel ${metric.funnel.join(" → ")}` : `completes ${metric.completes}`;
}

/** A metric: the rates, the lifts in words, the timeline. */
function metricView(metric) {
  const lifts = metric.variants.filter((variant) => variant.lift).map((variant) => {
    const lift = variant.lift;
    const significant = (lift.adjustedPValue ?? lift.pValue) < 0.05;
    return h("li", { "data-testid": "variant-lift", "data-variant": variant.name, class: significant ? "significant" : "" },
      h("strong", {}, variant.name), ` ${points(lift.absolute)} ${span(lift.absoluteInterval)}`,
      lift.relative === null ? "" : ` · ${lift.relative >= 0 ? "+" : "−"}${percent(Math.abs(lift.relative), 0)} relative`,
      ` · ${pValue(lift.pValue)}`, lift.adjustedPValue === null ? "" : ` (Holm ${pValue(lift.adjustedPValue).replace("p ", "")})`,
      lift.sequentialInterval ? ` · always valid ${span(lift.sequentialInterval)}` : "");
  });
  return h("div", { class: "experiment-metric", "data-testid": "experiment-metric", "data-metric": metric.name },
    h("h4", {}, metric.name, " ", h("span", { class: "muted" }, goal(metric)), metric.guardrail ? h("span", { class: "experiment-tag" }, "guardrail") : ""),
    h("div", { class: "experiment-charts" }, rateChart(metric), timelineChart(metric)),
    lifts.length ? h("ul", { class: "experiment-lifts" }, lifts) : h("p", { class: "muted" }, "No comparison yet: a variant has no exposed unit or no variance."));
}

/** One experiment's results. */
function experimentView(results) {
  const check = results.sampleRatio;
  const ratio = check === null
    ? h("span", { class: "experiment-srm", "data-testid": "experiment-srm", "data-flagged": "false" }, "Ratio check: not yet")
    : h("span", { class: `experiment-srm ${check.flagged ? "flagged" : "ok"}`, "data-testid": "experiment-srm", "data-flagged": String(check.flagged) },
      `Ratio check: χ² ${check.chiSquare.toFixed(2)}, ${pValue(check.pValue)} — ${check.flagged ? "exposed units do not match the weights: do not trust these results" : "as weighted"}`);
  return h("section", { class: "experiment", "data-testid": "experiment", "data-experiment": results.experiment },
    h("header", { class: "experiment-head" },
      h("h3", {}, results.experiment, " ", h("span", { class: "muted" }, `${results.status} · by ${results.unit}`)), ratio),
    h("p", { class: "experiment-units" }, results.variants.map((variant, index) => h("span", { "data-testid": "experiment-variant", "data-variant": variant.name },
      svg("svg", { viewBox: "0 0 10 10", class: "exit-swatch", "aria-hidden": "true" }, svg("circle", { cx: 5, cy: 5, r: 5, fill: VARIANT_COLORS[index % VARIANT_COLORS.length] })),
      `${variant.name} ${percent(variant.weight, 0)}: ${variant.assigned} assigned, ${variant.exposed} exposed`))),
    results.metrics.map(metricView));
}

/** The panel of every experiment `app` declares (`null` when it declares none), filled by its `refresh(token)`. */
export function experimentsPanel(app) {
  const keys = Object.keys(app?.experiments ?? {});
  if (!keys.length) return null;
  const body = h("div", { class: "panel-body experiments-body" });
  const panel = h("section", { class: "panel experiments-panel", "data-testid": "analytics-experiments" },
    h("header", { class: "panel-head" }, h("h2", {}, "Experiments")), body);
  return {
    panel,
    /** Reads every experiment's results; one that cannot be read says why in its place, and a
     *  refused token is thrown for the view to ask again. */
    async refresh(token) {
      const results = await Promise.allSettled(keys.map((key) => loadAdmin(`/v1/admin/experiments/${encodeURIComponent(key)}`, token)));
      const refused = results.find((result) => result.status === "rejected" && result.reason?.status === 401);
      if (refused) throw refused.reason;
      body.replaceChildren(...results.map((result, index) => (result.status === "fulfilled"
        ? experimentView(result.value)
        : h("section", { class: "experiment", "data-testid": "experiment", "data-experiment": keys[index] },
          h("h3", {}, keys[index]), h("p", { class: "analytics-message", role: "alert" }, result.reason?.message ?? "The results cannot be read.")))));
    },
  };
}
