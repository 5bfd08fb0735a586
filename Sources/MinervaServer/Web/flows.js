// The screens each root flow of the app uses, as far as its description tells: the flow's roots,
// the steps of its routes, and every screen those lead to (a sample cell's `navigate`, a guard's
// `otherwise`). The developer menu offers the current flow's, so that it never suggests a screen
// of another flow (Home during onboarding).

/** The screens a flow's root shows: one screen, each tab's, or a split view's primary column. */
function rootScreens(root) {
  if (root?.screen) return [root.screen];
  if (root?.tabs) return root.tabs.map((tab) => tab.screen);
  if (root?.split) return [root.split.primary.screen];
  return [];
}

/** The screens `screen` leads to: its sample cells' targets and its guard's other flow. */
function targets(app, screen) {
  const info = app.screens?.[screen];
  if (!info) return [];
  const cells = (info.sampleList?.sections ?? []).flatMap((section) => section.items);
  return [...cells.map((item) => item?.content?.navigate?.screen), info.otherwise?.screen].filter(Boolean);
}

/** Every screen reached from `start` by `targets`. */
function closure(app, start) {
  const reached = new Set();
  const queue = [...start];
  while (queue.length) {
    const screen = queue.pop();
    if (reached.has(screen) || !app.screens?.[screen]) continue;
    reached.add(screen);
    queue.push(...targets(app, screen));
  }
  return reached;
}

/**
 * The screens the developer menu offers in `flow`: that flow's, and those no flow claims. An app
 * without root flows (or a session on none) offers every screen.
 * @returns {Set<string> | null} the screens, or null for every screen.
 */
export function screensOfFlow(app, flow) {
  const flows = app?.flows;
  if (!flows || !flow || !flows[flow]) return null;
  const claimed = new Map(Object.entries(flows).map(([name, description]) => [name, closure(app, [
    ...rootScreens(description.root),
    ...(app.routes ?? []).filter((route) => route.flow === name).flatMap((route) => route.steps.map((step) => step.screen)),
  ])]));
  const offered = new Set(claimed.get(flow));
  const anyFlow = new Set([...claimed.values()].flatMap((screens) => [...screens]));
  for (const screen of Object.keys(app.screens ?? {})) if (!anyFlow.has(screen)) offered.add(screen);
  return offered;
}
