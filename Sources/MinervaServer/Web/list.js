// A screen's list, drawn from its cell models and changed as the server's diff says: the diff's
// deleted, updated and moved positions are taken as they are, never worked out again here.
// Rows are kept by item id, so that a change slides them (first, last, invert, play).

import { append, h, hashHue, icon, play, reducedMotion } from "./dom.js";
import { screenTitle } from "./store.js";

/** What a cell shows of its content: a title (with a subtitle and flags) or, failing that, JSON. */
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

/** The screen a cell asks for when tapped (`content.navigate`), or null. */
function navigateTarget(content) {
  const navigate = content && typeof content === "object" ? content.navigate : null;
  return navigate && typeof navigate.screen === "string" ? navigate : null;
}

/** `"s:i"`, a position as the diff names it. */
const positionKey = ({ section, item }) => `${section}:${item}`;

/**
 * What the server's diff says of the shown list `previous` becoming `list`: the ids of the rows
 * that stay (and of those among them that changed), and of the items that moved. `null` when the
 * diff does not start at the version shown (then every row is drawn again, as after a reload).
 */
function readDiff(previous, list) {
  const diff = list.diff;
  if (!previous || !diff || diff.from !== previous.version || diff.to !== list.version) return null;
  const deletedSections = new Set(diff.sections?.deleted ?? []);
  const deleted = new Set((diff.items?.deleted ?? []).map(positionKey));
  const updated = new Set((diff.items?.updated ?? []).map(positionKey));
  const staying = new Set();
  const changed = new Set();
  previous.sections.forEach((section, s) => {
    if (deletedSections.has(s)) return;
    section.items.forEach((item, i) => {
      const key = positionKey({ section: s, item: i });
      if (deleted.has(key)) return;
      staying.add(item.id);
      if (updated.has(key)) changed.add(item.id);
    });
  });
  const moved = new Set((diff.items?.moved ?? []).map(({ to }) => list.sections[to.section]?.items[to.item]?.id));
  return { staying, changed, moved };
}

/**
 * A list view. `onNavigate(target, itemId)` runs when a tappable cell is tapped (or chosen with the keyboard).
 * @returns {{list: Element, footer: Element, render: (list: object|null) => void}}
 */
export function listView({ onNavigate }) {
  const slot = h("div", { class: "list", hidden: true });
  const footer = h("div", { class: "list-footer", hidden: true });
  /** The list shown (`{version, sections}`), its rows by item id and sections by section id. */
  let shown = null;
  let rows = new Map();
  let sections = new Map();
  const targets = new WeakMap();

  const tap = (event) => {
    const cell = event.target.closest?.(".cell.tappable");
    const target = cell && targets.get(cell);
    if (!target) return;
    event.preventDefault();
    onNavigate(target, cell.dataset.itemId);
  };
  slot.addEventListener("click", tap);
  slot.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") tap(event); });

  function fillCell(cell, item) {
    const navigate = navigateTarget(item.content);
    if (navigate) targets.set(cell, navigate);
    else targets.delete(cell);
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
    const { title, subtitle, extras, json } = describeContent(item.content);
    const main = json !== undefined
      ? h("div", { class: "cell-main" }, h("code", { class: "cell-json" }, JSON.stringify(json)))
      : h("div", { class: "cell-main" },
        h("div", { class: "cell-title" }, title,
          extras.map((extra) => h("span", { class: extra === "verified" ? "cell-flag verified" : "cell-flag" },
            extra === "verified" ? icon("check", "icon tiny") : extra))),
        subtitle ? h("div", { class: "cell-subtitle" }, subtitle) : null);
    const avatarText = (title ?? item.kind ?? "?").trim().slice(0, 1).toUpperCase() || "?";
    const hue = hashHue(item.kind === "user" ? title ?? item.id : item.kind ?? item.id);
    cell.replaceChildren();
    append(cell, [
      h("div", { class: "cell-avatar", style: `--hue:${hue}` }, avatarText),
      main,
      navigate ? h("span", { class: "cell-target" }, screenTitle(navigate.screen)) : (item.kind ? h("span", { class: "cell-kind" }, item.kind) : null),
      navigate ? icon("chevronRight", "icon chevron") : null]);
  }

  /**
   * The diff's chips, counted in cells: a section inserted, deleted or moved counts its cells
   * (read in the list shown before, `previous`, for a deleted one); `title` says it in words.
   */
  function diffChips(diff, list, previous) {
    const items = diff.items ?? {};
    const sectionsDiff = diff.sections ?? {};
    const cellsIn = (sectionList, indexes) => indexes.reduce((n, index) => n + (sectionList?.[index]?.items.length ?? 0), 0);
    const before = previous?.version === diff.from ? previous.sections : null;
    const deletedSections = sectionsDiff.deleted ?? [];
    const chips = [
      ["+", (items.inserted?.length ?? 0) + cellsIn(list.sections, sectionsDiff.inserted ?? []), "ins", "inserted"],
      ["−", (items.deleted?.length ?? 0) + (before ? cellsIn(before, deletedSections) : 0), "del", "deleted"],
      ["⇅", (items.moved?.length ?? 0) + cellsIn(list.sections, (sectionsDiff.moved ?? []).map(({ to }) => to)), "mov", "moved"],
      ["~", items.updated?.length ?? 0, "upd", "updated"],
    ].filter(([, n]) => n > 0).map(([sign, n, cls, verb]) =>
      h("span", { class: `diff-chip ${cls}`, title: `${n} ${n === 1 ? "cell" : "cells"} ${verb}` }, `${sign}${n}`));
    // A section deleted from a list this page did not show: its cells are not known here.
    if (!before && deletedSections.length > 0) {
      const n = deletedSections.length;
      chips.push(h("span", { class: "diff-chip del", title: `${n} ${n === 1 ? "section" : "sections"} deleted` }, `−${n} §`));
    }
    return chips;
  }

  function renderFooter(list, previous) {
    const count = list.sections.reduce((n, section) => n + section.items.length, 0);
    const summary = h("span", {}, `list v${list.version} · ${count} ${count === 1 ? "cell" : "cells"}`);
    const diff = list.diff;
    if (!diff) {
      footer.replaceChildren(summary);
      return;
    }
    footer.replaceChildren(summary, h("span", { class: "diff-chips" }, `diff v${diff.from}→v${diff.to}`, diffChips(diff, list, previous)));
  }

  function render(list) {
    if (!list) {
      if (shown) {
        slot.replaceChildren();
        rows = new Map();
        sections = new Map();
        shown = null;
      }
      slot.hidden = true;
      footer.hidden = true;
      return;
    }
    if (shown && shown.version === list.version) return;
    slot.hidden = false;
    const animate = Boolean(shown) && slot.isConnected && !reducedMotion();
    const change = readDiff(shown, list);

    // First: where every row is now.
    const slotRect = slot.getBoundingClientRect();
    const first = new Map();
    if (animate) for (const [id, row] of rows) first.set(id, row.getBoundingClientRect());

    // Build: a row stays when the diff keeps its item (after a reload, when its id is still there).
    const newRows = new Map();
    const entering = new Set();
    const newHeaders = [];
    const sectionEls = list.sections.map((section) => {
      const isNew = !sections.has(section.id);
      const sectionEl = sections.get(section.id) ?? h("section", { class: "list-section", "data-section-id": section.id },
        h("h3", { class: "section-header" }), h("div", { class: "section-rows" }));
      sectionEl.firstElementChild.textContent = section.title ?? section.id;
      if (isNew && shown) newHeaders.push(sectionEl.firstElementChild);
      sectionEl.lastElementChild.replaceChildren(...section.items.map((item) => {
        const stays = rows.has(item.id) && (change ? change.staying.has(item.id) : true);
        const row = stays ? rows.get(item.id) : h("div", { class: "cell" });
        if (!stays || !change || change.changed.has(item.id)) fillCell(row, item);
        if (!stays) entering.add(row);
        newRows.set(item.id, row);
        return row;
      }));
      return sectionEl;
    });
    const newSections = new Map(list.sections.map((section, i) => [section.id, sectionEls[i]]));

    // Rows that left stay a moment as ghosts where they stood.
    const ghosts = [];
    if (animate) {
      for (const [id, row] of rows) {
        if (newRows.get(id) === row) continue;
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
    slot.replaceChildren(...sectionEls, ...ghosts);

    // Last, invert, play.
    if (animate) {
      for (const [id, row] of newRows) {
        if (entering.has(row)) {
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
        if (change?.moved.has(id)) play(row, "row-moved");
        else if (change?.changed.has(id)) play(row, "row-updated");
      }
      for (const ghost of ghosts) play(ghost, "row-exit", () => ghost.remove());
      for (const header of newHeaders) play(header, "row-enter");
    }

    rows = newRows;
    sections = newSections;
    const previous = shown;
    shown = { version: list.version, sections: list.sections };
    renderFooter(list, previous);
    footer.hidden = false;
  }

  return { list: slot, footer, render };
}
