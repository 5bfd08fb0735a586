"""A new user's first minutes with the web client, in a real browser (headless Chromium through
Selenium, as test_browser.py): the built-in demo app as `scripts/run-demo.sh` serves it, opened
at `/`. The first screen already shows a list from the app description's sample cells (put by the
page as version 2, which the event log says), and a tap on a cell shows the screen it names; a
returning user's home shows people whose profile leads on to its followers (a cell's `":userId"`
filled in from the profile shown). Each tap is one version and one block: the node and its sample
list together (`sampleLists`). The list's diff badge counts cells, the session panel names the
tabs layout, "Go to…" is closed and offers the current flow's screens, and a held result says
whose it is and what to do. A session the page joined gets no sample list: its own client
decides. A server without an admin token shows no Analytics button, and the browser logs nothing.
Takes web-client.png, the screenshot at the top of the README (Ada's profile with its list), and
web-client-result.png (a held result), into docs/ on request: see test_browser.py.
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


def block(page, version):
    """The types of the events of one version, from the server's log."""
    return [event["type"] for event in page.call("GET", "/events?after=0")["events"] if event["version"] == version]


def diff_chips(page, node_id):
    """The list footer's diff chips on a node: (text, title) each."""
    return [(chip.text, chip.get_attribute("title")) for chip in page.all(f'[data-node-id="{node_id}"] .diff-chip')]


def test_a_new_user_taps_through_the_demo_apps_lists(demo_server, browser):  # noqa: F811
    page = Page(browser, demo_server)
    browser.get(demo_server.url + "/")
    wait_for(lambda: page.device()[0] != "", "the first state")
    page.read_session()

    # The welcome screen of onboarding: its getting-started steps, each a cell a tap follows. A
    # session starts without lists: the page put the welcome screen's, version 2, and says so.
    shows_its_sample_list(page, page.in_sync()[1])
    state, focus = page.in_sync()
    assert (state["flow"], focus["screen"], state["version"]) == ("onboarding", "welcome", 2)
    assert block(page, 2) == ["listChanged"]
    assert page.text('[data-testid="event-log"] [data-version="2"] [data-testid="sample-list-note"]') == "sample list, put by this page"
    assert diff_chips(page, focus["id"]) == [("+3", "3 cells inserted")]
    assert "tappable" in page.css('[data-testid="cell-interests"]').get_attribute("class")
    assert page.text('[data-testid="cell-interests"] .cell-title') == "Pick your interests"
    # The developer menu is closed, and offers the onboarding flow's screens only.
    menu = page.css(f'[data-node-id="{focus["id"]}"] [data-testid="goto-panel"]')
    assert menu.get_attribute("open") is None
    page.goto_button(focus["id"], "welcome")  # opens the menu
    offered = [button.get_attribute("data-testid") for button in page.all(f'[data-node-id="{focus["id"]}"] .goto-button')]
    assert sorted(offered) == ["goto-onboardingStep", "goto-welcome"]
    assert "onboarding flow" in menu.find_element("css selector", ".summary-hint").text
    state, focus = page.act('[data-testid="cell-interests"]')
    assert (focus["screen"], focus["params"], state["version"]) == ("onboardingStep", {"step": "1"}, 3)
    assert page.text('[data-testid="back-button"]') == "Welcome"

    # A returning user (signed in) starts on home: people and a photo. Ada's cell opens her profile.
    page.tap('[data-testid="returning-user"]')
    first = page.id
    page.tap('[data-testid="new-session"]')
    wait_for(lambda: page.read_session()["id"] != first, "a new session")
    state, home = page.in_sync()
    assert (state["flow"], home["screen"], state["tabs"]["selected"]) == ("main", "home", "home")
    shows_its_sample_list(page, home)
    # The session panel names what the device shows: a tab bar (each tab a stack).
    assert page.text('[data-testid="layout"]') == "tabs"
    # Home's list is four people and a photo in two sections: the badge counts cells.
    wait_for(lambda: diff_chips(page, home["id"]) == [("+4", "4 cells inserted")], lambda: f"+4 cells ({diff_chips(page, home['id'])})")
    # A tap is one request, one version, one block: the node and its sample list together.
    before = page.state()["version"]
    state, profile = page.act(f'[data-node-id="{home["id"]}"] [data-testid="cell-u42"]')
    assert (profile["screen"], profile["params"], profile["presentation"]["kind"]) == ("profile", {"userId": "42"}, "push")
    assert state["version"] == before + 1 and profile["list"]["version"] == 1
    assert block(page, state["version"]) == ["added", "listChanged"]

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


def test_a_held_result_says_whose_it_is_and_what_to_do(demo_server, browser):  # noqa: F811
    """Edit Profile, presented from Account and cancelled, leaves its result on Account until
    Account's screen takes it: the inspector says so in words. Takes web-client-result.png."""
    page = Page(browser, demo_server)
    page.open(demo_server.create_session(flags=["onboarded", "signedIn"]))
    page.in_sync()
    state, account = page.act('[data-testid="tab-account"]')
    assert account["screen"] == "account"
    state, edit = page.act(page.goto_button(account["id"], "editProfile"))
    assert edit["screen"] == "editProfile"
    state, focus = page.act('[data-testid="finish-cancelled"]')
    assert focus["id"] == account["id"] and focus["results"]["editProfile"]["status"] == "cancelled"
    held = f'[data-testid="result-{account["id"]}-editProfile"]'
    said = lambda: " ".join((page.text(held) or "").split())  # noqa: E731 (the words, however the row wraps)
    wait_for(lambda: said() == "result for Account from editProfile: cancelled — take it", lambda: f"the result explained ({said()!r})")
    assert "holds its result until its screen has read it" in page.css(held).get_attribute("title")
    page.settle()
    save_screenshot(browser, "web-client-result.png")
    state, focus = page.act(f'[data-testid="take-result-{account["id"]}-editProfile"]')
    assert "results" not in focus or "editProfile" not in focus["results"]
    assert page.all(held) == []
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
