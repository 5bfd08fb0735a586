// Sample lists: the cells the app description gives a screen (`sampleList`), put on each node the
// page shows without a list, in the sessions this page created, so that a new user of an app (the
// demo's) has something to tap before the app's own content exists. The page's operations ask the
// server for them (`sampleLists`, session.js), which puts them in the change that adds the node;
// what is left is a session's first nodes (a session starts without lists, so their sample lists
// are one change after it) and nodes another client added. A cell's `navigate` param written
// `":name"` takes the shown node's param `name`. A session the page joined is left as its own
// client makes it.

import { putSampleList } from "./session.js";
import { store, subscribe, visibleNavigators } from "./store.js";

/** The nodes of the session shown that were given their sample list (or tried), by id. */
let filled = new Set();

/** `value`, or the node's param it names (`":userId"`). */
const fillParam = (node, value) =>
  typeof value === "string" && value.startsWith(":") ? node.params?.[value.slice(1)] ?? value : value;

/** The screen's sample list for `node`, its `":name"` params filled in, or null. */
function sampleFor(node) {
  const sample = store.app?.screens?.[node.screen]?.sampleList;
  if (!sample) return null;
  return {
    sections: sample.sections.map((section) => ({
      id: section.id,
      items: section.items.map((item) => {
        const navigate = item.content?.navigate;
        if (!navigate?.params) return item;
        const params = Object.fromEntries(Object.entries(navigate.params).map(([key, value]) => [key, fillParam(node, value)]));
        return { ...item, content: { ...item.content, navigate: { ...navigate, params } } };
      }),
    })),
  };
}

/** Puts its sample list on the top node of every navigator on screen that has none yet. */
function fillShown() {
  if (!store.session?.created || !store.state) return;
  for (const navigatorId of visibleNavigators(store.state, store.index)) {
    const stack = store.index.navigators.get(navigatorId)?.stack ?? [];
    const node = store.index.nodes.get(stack[stack.length - 1]);
    if (!node || node.list || filled.has(node.id)) continue;
    const list = sampleFor(node);
    if (!list) continue;
    filled.add(node.id);
    putSampleList(node.id, list);
  }
}

/** Fills sample lists from now on, as states are shown. */
export function startSamples() {
  subscribe((change) => {
    if (change.kind === "session") filled = new Set();
    else if (change.kind === "state") fillShown();
  });
}
