"""A new user's first minutes with the web client, in a real browser (headless Chromium through
Selenium, as test_browser.py): the built-in demo app as `scripts/run-demo.sh` serves it, opened
at `/`. The first screen already shows a list from the app description's sample cells, and a tap
on a cell shows the screen it names; a returning user's home shows people whose profile leads on
to its followers (a cell's `":userId"` filled in from the profile shown). A session the page
joined gets no sample list: its own client decides. A server without an admin token shows no
Analytics button, and the browser logs nothing. Takes web-client.png, the screenshot at the top of
the README (Ada's profile with its list; into docs/ on request: see test_browser.py).
"""
from test_browser import Page, browser, console_problems, find_node, save_screenshot, wait_for, walk  # noqa: F401 (the browser fixture)


def cells(page, node_id):
    """The ids of the cells the page shows on a node, in order (rows leaving are left out)."""
    return [row.get_attribute("data-item-id") for row in page.all(f'[data-node-id="{node_id}"] .cell:not(.ghost)')]


def shows_its_sample_list(page, node):
    """Waits until the server holds the node's sample list and the page shows its cells; returns
    the list as the server holds it."""
    sample = page.app["screens"][node["screen"]]["sampleList"]
    expected = [item["id"] for section in sample["sections"] for item in section["items"]]
    listed = wait_for(lambda: find_node(page.in_sync()[0]["root"], node["id"]).get("list"), f"the sample list of {node['id']}")
    wait_for(lambda: cells(page, node["id"]) == expected, lambda: f"the cells {expected} (the page shows {cells(page, node['id'])})")
    return listed


def test_a_new_user_taps_through_the_demo_apps_lists(demo_server, browser):  # noqa: F811
    page = Page(browser, demo_server)
    browser.get(demo_server.url + "/")
    wait_for(lambda: page.device()[0] != "", "the first state")
    page.read_session()

    # The welcome screen of onboarding: its getting-started steps, each a cell a tap follows.
    state, focus = page.in_sync()
    assert (state["flow"], focus["screen"]) == ("onboarding", "welcome")
    shows_its_sample_list(page, focus)
    assert "tappable" in page.css('[data-testid="cell-interests"]').get_attribute("class")
    assert page.text('[data-testid="cell-interests"] .cell-title') == "Pick your interests"
    state, focus = page.act('[data-testid="cell-interests"]')
    assert (focus["screen"], focus["params"]) == ("onboardingStep", {"step": "1"})
    assert page.text('[data-testid="back-button"]') == "Welcome"

    # A returning user (signed in) starts on home: people and a photo. Ada's cell opens her profile.
    page.tap('[data-testid="returning-user"]')
    first = page.id
    page.tap('[data-testid="new-session"]')
    wait_for(lambda: page.read_session()["id"] != first, "a new session")
    state, home = page.in_sync()
    assert (state["flow"], home["screen"], state["tabs"]["selected"]) == ("main", "home", "home")
    shows_its_sample_list(page, home)
    state, profile = page.act(f'[data-node-id="{home["id"]}"] [data-testid="cell-u42"]')
    assert (profile["screen"], profile["params"], profile["presentation"]["kind"]) == ("profile", {"userId": "42"}, "push")

    # The profile's Followers cell names the followers of the profile shown: ":userId" is 42.
    listed = shows_its_sample_list(page, profile)
    page.in_sync()
    page.settle()
    save_screenshot(browser, "web-client.png")
    followers_cell = next(item for section in listed["sections"] for item in section["items"] if item["id"] == "followers")
    assert followers_cell["content"]["navigate"] == {"screen": "followers", "params": {"userId": "42"}}
    state, followers = page.act(f'[data-node-id="{profile["id"]}"] [data-testid="cell-followers"]')
    assert (followers["screen"], followers["params"]) == ("followers", {"userId": "42"})
    assert next(n for n in state["navigators"] if n["id"] == "tab:home")["stack"] == [home["id"], profile["id"], followers["id"]]
    shows_its_sample_list(page, followers)

    # No admin token: no Analytics button, and nothing went wrong on the way (no request failed).
    assert page.all('[data-testid="analytics-open"]') == []
    assert console_problems(browser, demo_server) == []


def test_a_joined_session_gets_no_sample_list(demo_server, browser):  # noqa: F811
    """The README's walkthrough drives a session with curl while the page watches it: the page
    must not change it."""
    other = demo_server.create_session(flags=["onboarded", "signedIn"])
    page = Page(browser, demo_server)
    page.open(other)
    state, focus = page.in_sync()
    assert (state["version"], focus["screen"]) == (1, "home")
    wait_for(lambda: page.text('[data-testid="updates"]').startswith("server-sent events"), "the page to follow by SSE")
    other.op("navigate", {"screen": "profile", "params": {"userId": "42"}})
    state, focus = page.in_sync(newer_than=1)
    assert focus["screen"] == "profile"
    page.settle()
    state = other.get()
    assert state["version"] == 2 and all(node.get("list") is None for node in walk(state["root"]))
    assert console_problems(browser, demo_server) == []
