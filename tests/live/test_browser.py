"""The web client in a real browser: headless Chromium through Selenium, on the demo app.

Every step taps or types in the page like a person would, then checks that what the page shows
(the device's data-focus and data-version, the navigation bar's title) is the server's own state
document, fetched beside the browser with urllib. Another client (urllib here, curl or an app
elsewhere) changes a session the page has joined, and the page follows without a reload. The
browser's log must stay free of warnings and errors, and the page must fit 420 px without
sideways scrolling. The inspector's timeline shows an earlier version of the session on the device
and in the tree, and restores it. Presentable state: a sheet stands at its detent and its grabber
changes it, a close or a swipe is the user's (`interactive`), a popover points at the control or
cell it was presented from (a sheet where the width is compact), a three-column split view shows
its columns side by side and, compact, its `compactStack` as one stack, and a context-level modal
stays inside its tab while a window-level one keeps the tab bar out of reach. Needs Debian's
chromium and chromium-driver and Selenium from pip. Takes the screenshots the README shows at a
fixed viewport (web-client-timeline.png, web-client-flows.png, web-client-sheet.png,
web-client-popover.png, web-client-split-regular.png, web-client-split-compact.png,
web-client-levels.png; test_browser_first_hour.py takes web-client.png and web-client-result.png): into docs/ when asked
(MINERVA_SCREENSHOTS=1, which `scripts/test.sh --screenshots` sets), so that they show the page as
it is, and into a temporary folder otherwise, so that a test run leaves the clone as it was.
"""
import json
import os
import re
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import APPS, ROOT, RunningServer, Session

# One at a time, after the parallel tests (scripts/test.sh): most of its checks read the page
# after it settled for a fixed time.
pytestmark = pytest.mark.serial

# The README shows the screenshots these tests take: they are written there on request only.
SCREENSHOTS = ROOT / "docs" if os.environ.get("MINERVA_SCREENSHOTS") == "1" else Path(tempfile.mkdtemp(prefix="minerva-screenshots-"))
# Every screenshot is taken at this viewport (CSS pixels), whatever the browser's window.
SCREENSHOT_VIEWPORT = {"width": 1400, "height": 900}
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def mail_server():
    """The server on tests/live/apps/mail.json: a three-column split view (mailboxes, a mailbox, a
    message), a compose sheet with detents that the user may not swipe away, an attachment popover."""
    running = RunningServer("--app", str(APPS / "mail.json"), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


def wait_for(condition, what, timeout=8.0):
    """Polls `condition` until it returns a truthy value, which it returns. `what` (a string, or
    a function giving one) says what was awaited when it times out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")
        time.sleep(0.05)


def find_node(node, node_id):
    if node["id"] == node_id:
        return node
    for child in node.get("children", []):
        found = find_node(child, node_id)
        if found:
            return found
    return None


def title_of(node, app):
    """The title the page shows for a node: the state's, else the app description's, else its screen."""
    return node.get("title") or app["screens"].get(node["screen"], {}).get("title", node["screen"])


def walk(node):
    """A node and its descendants, depth first."""
    yield node
    for child in node.get("children", []):
        yield from walk(child)


def console_problems(browser, server, provoked=()):
    """The warnings and errors in the browser's log since it was last read. The network's record
    of an error answer the test provoked on purpose is left out: `provoked` lists them as
    (path ending, status). So is `GET …/link` answering 404 from a server older than the
    contract's `{"url": null}`, which the page takes to mean the same."""
    session = server.create_session()
    if session.call("GET", "/link")[0] == 404:
        provoked = (*provoked, ("/link", 404))

    def expected(entry):
        match = re.match(r"(\S+) - Failed to load resource: the server responded with a status of (\d+)", entry["message"])
        return entry.get("source") == "network" and match is not None and any(
            urlsplit(match.group(1)).path.endswith(ending) and int(match.group(2)) == status for ending, status in provoked)

    return [entry for entry in browser.get_log("browser")
            if entry["level"] in ("WARNING", "SEVERE") and not expected(entry)]


def save_screenshot(browser, name):
    """Writes SCREENSHOTS/NAME: the page at SCREENSHOT_VIEWPORT, one device pixel per CSS pixel."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**SCREENSHOT_VIEWPORT, "deviceScaleFactor": 1, "mobile": False})
    try:
        time.sleep(0.3)  # a resize observer scales the device
        assert browser.save_screenshot(str(SCREENSHOTS / name))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def fits_width(browser, width):
    """Whether the page, shown `width` CSS pixels wide, needs no sideways scrolling, and nothing in
    the top bar (where the join box and the deep-link error open) pokes out on either side."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        time.sleep(0.3)  # a resize observer scales the device
        return browser.execute_script(
            "const inside = (element) => { const r = element.getBoundingClientRect();"
            "  return r.width === 0 || (r.left >= 0 && r.right <= window.innerWidth); };"
            "return document.documentElement.scrollWidth <= window.innerWidth"
            "  && [...document.querySelectorAll('.topbar *')].every(inside);")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


class Page:
    """The browser on the web client, with the server beside it for the truth."""

    def __init__(self, driver, server):
        self.driver, self.server = driver, server
        self.app = server.request("GET", "/v1/app")[2]
        self.id = self.token = None
        self.apps = {self.app["version"]: self.app}

    def app_of(self, state):
        """The app description the session runs at `state`: its version's (a variant's, in an experiment)."""
        version = state["appVersion"]
        if version not in self.apps:
            self.apps[version] = self.server.request("GET", f"/v1/app/versions/{version}")[2]
        return self.apps[version]

    def css(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def device(self):
        """(data-version, data-focus) of the device element, as the page last rendered them."""
        return tuple(self.driver.execute_script(
            "const d = document.querySelector('[data-testid=device]');"
            "return [d.dataset.version || '', d.dataset.focus || ''];"))

    def read_session(self):
        stored = self.driver.execute_script("return sessionStorage.getItem('minerva.session')")
        assert stored, "the page keeps its session in sessionStorage"
        session = json.loads(stored)
        self.id, self.token = session["id"], session["token"]
        return session

    def call(self, method, suffix="", body=None, expect=200):
        status, _, document = self.server.request(method, f"/v1/sessions/{self.id}{suffix}", body, self.token)
        assert status == expect, (method, suffix, status, document)
        return document

    def state(self):
        return self.call("GET")

    def open(self, session):
        """Opens a session that another client made, from the page's address."""
        self.id, self.token = session.id, session.token
        self.driver.get("about:blank")
        self.driver.get(f"{self.server.url}/#session={session.id}&token={session.token}")

    def in_sync(self, newer_than=0, timeout=8.0):
        """Waits until the server's version passes `newer_than` and the page shows that state;
        checks the page's focus and title against it."""
        def same():
            state = self.state()
            if state["version"] <= newer_than:
                return None
            return state if self.device() == (str(state["version"]), state["focus"]) else None
        def mismatch():
            toast = self.all('[data-testid="toast"]:not([hidden])')
            return (f"the page to show the server's state (server v{self.state()['version']}, page (version, focus) "
                    f"{self.device()}{f', toast {toast[0].text!r}' if toast else ''})")
        state = wait_for(same, mismatch, timeout)
        focus = find_node(state["root"], state["focus"])
        title = title_of(focus, self.app_of(state))
        wait_for(lambda: self.text('[data-testid="nav-title"]') == title,
                 lambda: f"the navigation bar to say {title!r} (it says {self.text('[data-testid=nav-title]')!r})")
        page = self.css(f'[data-node-id="{state["focus"]}"]:not(.exiting)')
        assert page.is_displayed()
        assert "is-focus" in page.get_attribute("class")
        tree_row = self.css(f'[data-testid="inspector-tree"] [data-tree-node="{state["focus"]}"]')
        assert "is-focus" in tree_row.get_attribute("class")
        return state, focus

    def logged(self, event_type, *words):
        """Whether the event log shows an event of this type that mentions every one of `words`."""
        return any(all(word in item.text.split() for word in words)
                   for item in self.all(f'[data-testid="event-log"] .event-{event_type}'))

    def text(self, selector):
        found = self.all(selector)
        return found[0].text if found else None

    def tap(self, selector):
        """Taps what `selector` finds as a person would: scrolled into view and, once it has
        stopped moving (a click during a transition lands where the element was), clicked."""
        last_place = None

        def shown():
            nonlocal last_place
            element = self.css(selector) if self.all(selector) else None
            if element is None:
                return None
            place = self.driver.execute_script(
                "arguments[0].scrollIntoView({block: 'nearest'});"
                "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];", element)
            still, last_place = place == last_place, place
            return element if still and element.is_displayed() else None
        for attempt in range(3):
            try:
                wait_for(shown, f"{selector} to show").click()
                return
            except StaleElementReferenceException:  # re-rendered between finding and clicking
                if attempt == 2:
                    raise

    def goto_button(self, node_id, screen):
        """Opens the node's "Go to…" menu (closed until a person opens it) and returns the selector
        of its button for `screen`."""
        panel = f'[data-node-id="{node_id}"] [data-testid="goto-panel"]'
        if wait_for(lambda: self.all(panel), f"the Go to… menu of {node_id}")[0].get_attribute("open") is None:
            self.tap(f"{panel} > summary")
        return f'{panel} [data-testid="goto-{screen}"]'

    def act(self, selector):
        """Taps, then waits for the mutation the tap makes to show: (state, focused node)."""
        version = self.state()["version"]
        self.tap(selector)
        return self.in_sync(newer_than=version)

    def settle(self):
        """Lets CSS transitions finish (all of them are shorter than half a second)."""
        time.sleep(0.6)

    def zoom(self):
        """How many viewport pixels one pixel of the device takes (the page scales it to fit)."""
        return self.driver.execute_script(
            "const device = document.querySelector('[data-testid=device]');"
            "return device.getBoundingClientRect().width / device.offsetWidth;")

    def box(self, selector):
        """Where what `selector` finds is on the device's screen, in the device's own pixels:
        {x, y, width, height}, and the screen's size (screen_width, screen_height)."""
        return self.driver.execute_script(
            "const screen = document.querySelector('.device-screen'), s = screen.getBoundingClientRect();"
            "const zoom = s.width / screen.offsetWidth, r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return {x: (r.left - s.left) / zoom, y: (r.top - s.top) / zoom, width: r.width / zoom, height: r.height / zoom,"
            "        screen_width: screen.offsetWidth, screen_height: screen.offsetHeight};", selector)

    def drag(self, selector, dy):
        """Drags what `selector` finds down by `dy` pixels of the device (up when negative), in a
        few steps as a finger would, and lets go."""
        element = wait_for(lambda: self.all(selector) and self.css(selector), f"{selector} to drag")
        step = round(dy * self.zoom() / 4)
        chain = ActionChains(self.driver).click_and_hold(element)
        for _ in range(4):
            chain.move_by_offset(0, step)
        chain.release().perform()

    def reachable(self, selector):
        """Whether a tap at the middle of what `selector` finds reaches it (nothing covers it)."""
        return self.driver.execute_script(
            "const element = document.querySelector(arguments[0]), r = element.getBoundingClientRect();"
            "return element.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));", selector)

    def inert(self, selector):
        """Whether what `selector` finds is out of reach of taps (inert, or inside something inert)."""
        return self.driver.execute_script("return Boolean(document.querySelector(arguments[0]).closest('[inert]'))", selector)

    def finished(self, node):
        """The result of the newest `finished` event of a node, from the server's event log."""
        events = self.call("GET", "/events?after=0")["events"]
        return [event for event in events if event["type"] == "finished" and event["node"] == node][-1]["result"]


def followers(version):
    people = [("u1", "Ada Lovelace", "ada"), ("u2", "Grace Hopper", "grace"), ("u3", "Linus Torvalds", "linus"),
              ("u4", "Barbara Liskov", "barbara"), ("u5", "Margaret Hamilton", "margaret")]
    if version == 2:  # Linus moves to the top and is verified, Grace leaves, Barbara and Margaret stay
        people = [people[2], people[0], people[3], people[4], ("u6", "Katherine Johnson", "katherine")]
    items = []
    for item_id, name, handle in people:
        content = {"name": name, "subtitle": f"@{handle}",
                   "navigate": {"screen": "profile", "params": {"userId": item_id[1:]}}}
        if version == 2 and item_id == "u3":
            content["verified"] = True
        items.append({"id": item_id, "kind": "user", "content": content})
    photos = [{"id": "p7", "kind": "photo", "content": {
        "title": "Harbour at dawn", "subtitle": "photo 7", "navigate": {"screen": "photo", "params": {"photoId": "7"}}}}]
    return {"sections": [{"id": "followers", "items": items}, {"id": "photos", "items": photos}]}


def test_web_client_drives_the_demo_app(tabs_server, browser):
    page = Page(browser, tabs_server)
    browser.get(tabs_server.url + "/")

    # On load the page creates a session and shows the home tab's root.
    wait_for(lambda: page.device()[0] != "", "the first state")
    page.read_session()
    state, focus = page.in_sync()
    assert (state["version"], focus["screen"], state["tabs"]["selected"]) == (1, "home", "home")
    assert page.css('[data-testid="tab-home"]').get_attribute("aria-pressed") == "true"
    assert page.all('[data-testid="back-button"]') == [] and page.all('[data-testid="close-button"]') == []
    # A tab bar at the root is never split (the server answers 422): no layout to choose.
    assert not page.css('[data-testid="layout-select"]').is_displayed()

    # The page is made of ES modules, which a browser runs only when they are served as JavaScript.
    modules = browser.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name).filter(name => name.endsWith('.js'))")
    assert len(modules) > 5, modules
    for module in modules:
        with urllib.request.urlopen(module, timeout=10) as answer:
            assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8", module

    # A list with a tappable cell on the home tab's root, put there through the API; a reload
    # continues the same session (sessionStorage) and renders it.
    page.call("PUT", "/nodes/n1/list", {"sections": [{"id": "people", "items": [
        {"id": "c42", "kind": "user", "content": {"name": "Ada Lovelace", "subtitle": "@ada",
                                                   "navigate": {"screen": "profile", "params": {"userId": "42"}}}},
        {"id": "c7", "kind": "note", "content": {"text": "A cell without navigate is not tappable"}},
    ]}]})
    browser.refresh()
    wait_for(lambda: page.all('[data-node-id="n1"] [data-testid="cell-c42"]'), "the list after a reload")
    assert page.read_session()["id"] == state["id"], "a reload continues the session"
    state, _ = page.in_sync()
    assert state["version"] == 2
    assert page.text('[data-node-id="n1"] [data-testid="cell-c42"] .cell-title') == "Ada Lovelace"
    assert "tappable" not in page.css('[data-testid="cell-c7"]').get_attribute("class")

    # Tap the cell: the server pushes the profile on the home tab.
    state, focus = page.act('[data-node-id="n1"] [data-testid="cell-c42"]')
    assert (focus["screen"], focus["params"], focus["presentation"]["kind"]) == ("profile", {"userId": "42"}, "push")
    home = next(n for n in state["navigators"] if n["id"] == "tab:home")
    assert home["stack"] == ["n1", focus["id"]]
    assert page.text('[data-testid="back-button"]') == "Home"
    profile_id = focus["id"]

    # Back pops it; the event log shows why it left.
    state, focus = page.act('[data-testid="back-button"]')
    assert focus["id"] == "n1" and find_node(state["root"], profile_id) is None
    wait_for(lambda: page.logged("removed", profile_id, "pop"), "the pop in the event log")

    # An unknown deep link is answered inline and changes nothing.
    deeplink = page.css('[data-testid="deeplink-input"]')
    deeplink.send_keys("/nowhere", Keys.ENTER)
    wait_for(lambda: page.css('[data-testid="deeplink-error"]').is_displayed(), "the deep-link error")
    assert "no route matches" in page.text('[data-testid="deeplink-error"]')
    assert page.state()["version"] == state["version"]

    # Deep link /photos/7 through the bar: a full-screen modal, with a close button.
    deeplink.clear()
    deeplink.send_keys("/photos/7")
    state, focus = page.act('[data-testid="deeplink-go"]')
    assert (focus["screen"], focus["presentation"]) == ("photo", {"kind": "present", "style": "fullScreen", "level": "window"})
    assert not page.css('[data-testid="deeplink-error"]').is_displayed()
    layer = page.css(f'.layer-presented[data-navigator="{focus["navigator"]}"]')
    assert layer.get_attribute("data-style") == "fullScreen"
    assert page.all('[data-testid="back-button"]') == []
    wait_for(lambda: page.text('[data-testid="current-link"]') == "/photos/7", "GET …/link in the bar")

    # Close dismisses it: the modal leaves the server and the page.
    state, focus = page.act('[data-testid="close-button"]')
    assert all(navigator["presented"] is None for navigator in state["navigators"])
    wait_for(lambda: not page.all(".layer-presented"), "the modal layer to leave the page")

    # Switch tabs.
    state, focus = page.act('[data-testid="tab-account"]')
    assert (state["tabs"]["selected"], focus["id"], focus["screen"]) == ("account", "n2", "account")
    assert page.css('[data-testid="tab-account"]').get_attribute("aria-pressed") == "true"
    assert page.css('[data-testid="tab-home"]').get_attribute("aria-pressed") == "false"

    # A screen without a list offers the app's screens. Settings is guarded: the login sheet
    # comes first, and finishing it with success resumes the target.
    state, focus = page.act(page.goto_button("n2", "settings"))
    assert (focus["screen"], focus["presentation"]) == ("login", {"kind": "present", "style": "formSheet", "level": "window"})
    assert state["pending"]["steps"] == [{"screen": "settings", "params": {}}]
    assert page.css(f'[data-node-id="{focus["id"]}"] .pending-banner').is_displayed()
    state, focus = page.act(f'[data-node-id="{focus["id"]}"] [data-testid="finish-success"]')
    assert (focus["screen"], state["flags"], state["pending"]) == ("settings", ["signedIn"], None)
    assert page.text('[data-testid="back-button"]') == "Account"

    # A screen with required params asks for them inline.
    page.tap(page.goto_button(focus["id"], "profile"))
    field = page.css(f'[data-node-id="{focus["id"]}"] [data-testid="param-profile-userId"]')
    wait_for(field.is_displayed, "the params form")
    field.send_keys("7", Keys.ENTER)
    state, focus = page.in_sync(newer_than=state["version"])
    assert (focus["screen"], focus["params"]) == ("profile", {"userId": "7"})
    account = next(n for n in state["navigators"] if n["id"] == "tab:account")
    assert len(account["stack"]) == 3

    # Back on home, the profile again, now with a list that changes.
    page.act('[data-testid="tab-home"]')
    # The list changes behind the page's back: the tap's If-Match is stale (412), but only a list
    # changed, so the page sends the tap again against the new version.
    page.call("PUT", "/nodes/n1/list", {"sections": [{"id": "people", "items": [
        {"id": "c42", "kind": "user", "content": {"name": "Ada Lovelace", "subtitle": "@ada",
                                                   "navigate": {"screen": "profile", "params": {"userId": "42"}}}}]}]})
    state, focus = page.act('[data-node-id="n1"] [data-testid="cell-c42"]')
    assert focus["screen"] == "profile"
    page.call("PUT", f"/nodes/{focus['id']}/list", followers(1))
    wait_for(lambda: page.all(f'[data-node-id="{focus["id"]}"] [data-testid="cell-u2"]'), "the followers list")
    page.in_sync()
    page.settle()
    page.call("PUT", f"/nodes/{focus['id']}/list", followers(2))
    wait_for(lambda: page.all(f'[data-node-id="{focus["id"]}"] [data-testid="cell-u6"]'), "the list's second version")
    state, _ = page.in_sync()
    rows = [row.get_attribute("data-testid") for row in page.all(f'[data-node-id="{focus["id"]}"] .cell:not(.ghost)')]
    assert rows == ["cell-u3", "cell-u1", "cell-u4", "cell-u5", "cell-u6", "cell-p7"]
    assert page.all(f'[data-node-id="{focus["id"]}"] [data-testid="cell-u2"]') == []

    # The event log has every event the server has.
    last = page.call("GET", "/events?after=0")["last"]
    wait_for(lambda: len(page.all('[data-testid="event-log"] [data-seq]')) == last, "the whole event log")

    # Nothing went wrong along the way: the only error answers are those the test asked for (the
    # unknown deep link, and a stale tap's 412 when the list's change had not reached the page yet).
    assert console_problems(browser, tabs_server, provoked=[("/deep-link", 404), ("/navigate", 412)]) == []


def test_web_client_joins_a_session_and_follows_another_client(tabs_server, browser):
    # A session made by another client (curl, an app): the page opens it from its address.
    other = tabs_server.create_session()
    page = Page(browser, tabs_server)
    page.open(other)
    state, focus = page.in_sync()
    assert (state["version"], focus["screen"]) == (1, "home")
    assert page.text('[data-testid="session-id"]') == other.id
    assert browser.execute_script("return location.hash") == "", "the token leaves the address once read"
    wait_for(lambda: page.text('[data-testid="updates"]').startswith("server-sent events"), "the page to follow by SSE")
    browser.execute_script("window.notReloaded = true")

    # Idle, the page keeps its event stream open and asks for nothing else; against a server whose
    # events record only removals it also long-polls the state, at most once a second.
    browser.execute_script("performance.clearResourceTimings()")
    time.sleep(3)
    asked = browser.execute_script(
        "return performance.getEntriesByType('resource').filter(entry => entry.name.includes('/v1/')).length")
    assert asked <= (0 if page.text('[data-testid="updates"]') == "server-sent events" else 4), asked

    # The other client navigates, pops, replaces a list: the page follows, without a reload.
    other.op("navigate", {"screen": "profile", "params": {"userId": "42"}})
    state, focus = page.in_sync(newer_than=1)
    assert (focus["screen"], page.text('[data-testid="back-button"]')) == ("profile", "Home")
    other.op("navigate", {"screen": "photo", "params": {"photoId": "7"}})
    state, focus = page.in_sync(newer_than=state["version"])
    wait_for(lambda: page.all(f'.layer-presented[data-navigator="{focus["navigator"]}"]'), "the modal to rise")
    photo_id = focus["id"]
    other.op("pop", {"navigator": "tab:home", "toRoot": True})
    state, focus = page.in_sync(newer_than=state["version"])
    assert focus["id"] == "n1"
    wait_for(lambda: not page.all(".layer-presented"), "the modal to leave with the screen that presented it")
    assert other.call("PUT", "/nodes/n1/list", followers(1))[0] == 200
    wait_for(lambda: page.all('[data-node-id="n1"] [data-testid="cell-u5"]'), "the other client's list")
    page.in_sync(newer_than=state["version"])
    last = other.events()["last"]
    wait_for(lambda: len(page.all('[data-testid="event-log"] [data-seq]')) == last, "the other client's events")
    assert page.logged("removed", photo_id, "ancestorRemoved"), "the photo left with the profile that presented it"
    assert browser.execute_script("return window.notReloaded") is True

    # The join box opens another one.
    third = tabs_server.create_session()
    third.op("navigate", {"screen": "followers", "params": {"userId": "7"}})
    page.tap('[data-testid="join-toggle"]')
    page.css('[data-testid="join-session"]').send_keys(third.id)
    page.css('[data-testid="join-token"]').send_keys(third.token, Keys.ENTER)
    page.id, page.token = third.id, third.token
    state, focus = page.in_sync()
    assert (state["version"], focus["screen"]) == (2, "followers")
    assert not page.css('[data-testid="join-form"]').is_displayed()
    third.op("pop", {})
    page.in_sync(newer_than=2)

    # An address pasted into the page, as a link from a terminal: the page switches to it.
    browser.get(f"{tabs_server.url}/#session={other.id}&token={other.token}")
    page.id, page.token = other.id, other.token
    page.in_sync()
    assert browser.execute_script("return window.notReloaded") is True

    # A wrong token is refused, and the page stays on the session it shows.
    page.tap('[data-testid="join-toggle"]')
    page.css('[data-testid="join-session"]').send_keys(third.id)
    page.css('[data-testid="join-token"]').send_keys("not-the-token", Keys.ENTER)
    wait_for(lambda: page.css('[data-testid="toast"]').is_displayed(), "the refusal")
    assert "no session has that id and token" in page.text('[data-testid="toast"]')
    assert page.text('[data-testid="session-id"]') == other.id

    # At 420 px, the page, the join box and a deep-link error fit without sideways scrolling.
    assert fits_width(browser, 420)
    page.css('[data-testid="deeplink-input"]').send_keys("/nowhere", Keys.ENTER)
    wait_for(lambda: page.css('[data-testid="deeplink-error"]').is_displayed(), "the deep-link error")
    assert fits_width(browser, 420)

    assert console_problems(browser, tabs_server, provoked=[("/deep-link", 404), (f"/v1/sessions/{third.id}", 401)]) == []


def test_web_client_timeline_shows_an_earlier_version_and_restores_it(tabs_server, browser):
    # Another client drives a session: a profile pushed on home, a list put on it, a photo
    # presented over it inside the home tab (context level: a full-screen one would cover the tab
    # bar, and the server would refuse the tab switch as no device could make it), then the
    # account tab.
    other = tabs_server.create_session()
    page = Page(browser, tabs_server)
    page.open(other)
    page.in_sync()
    profile = other.op("navigate", {"screen": "profile", "params": {"userId": "42"}})["focus"]
    assert other.call("PUT", f"/nodes/{profile}/list", followers(1))[0] == 200
    photo = other.op("present", {"screen": "photo", "params": {"photoId": "7"}, "style": "overCurrentContext"})["focus"]
    other.op("select-tab", {"tab": "account"})
    state, focus = page.in_sync(newer_than=4)
    assert (state["version"], focus["id"]) == (5, "n2")
    wait_for(lambda: page.text('[data-testid="timeline-status"]') == "live · version 5", "the timeline at the live version")
    slider = page.css('[data-testid="timeline-range"]')
    assert (slider.get_attribute("min"), slider.get_attribute("max"), slider.get_attribute("value")) == ("1", "5", "5")
    assert not page.css('[data-testid="past-banner"]').is_displayed()
    assert page.css('[data-testid="timeline-restore"]').get_attribute("disabled") is not None

    # Two steps back with the keyboard's arrows: the device and the tree show version 3 as it was
    # (the home tab, the profile on top with its first list, no photo), marked as the past; the
    # session itself is untouched.
    then = page.call("GET", "/versions/3")
    slider.send_keys(Keys.LEFT, Keys.LEFT)
    wait_for(lambda: page.device() == ("3", profile), lambda: f"the device to show version 3 (it shows {page.device()})")
    assert then["focus"] == profile
    wait_for(lambda: page.text('[data-testid="nav-title"]') == page.app["screens"]["profile"]["title"], "the profile's title")
    wait_for(lambda: page.all(f'[data-node-id="{profile}"] [data-testid="cell-u2"]'), "the profile's list as it was")
    wait_for(lambda: not page.all(".layer-presented"), "no photo over it")
    assert page.css('[data-testid="tab-home"]').get_attribute("aria-pressed") == "true"
    assert page.text('[data-testid="past-banner"]') == "Version 3 of 5 — viewing the past"
    assert "is-past" in page.css('[data-testid="device"]').get_attribute("class")
    assert browser.execute_script("return document.querySelector('[data-testid=layers]').inert") is True
    assert "is-focus" in page.css(f'[data-testid="inspector-tree"] [data-tree-node="{profile}"]').get_attribute("class")
    tree = {row.get_attribute("data-tree-node") for row in page.all('[data-testid="inspector-tree"] [data-tree-node]')}
    assert tree == {node["id"] for node in walk(then["root"])} and photo not in tree
    assert page.state()["version"] == 5

    # The session moves on meanwhile (the profile's list changes): the page still follows it (the
    # slider grows, the event log logs it, dimmed as what had not happened yet), and the device
    # stays on version 3.
    assert other.call("PUT", f"/nodes/{profile}/list", followers(2))[0] == 200
    wait_for(lambda: page.text('[data-testid="past-banner"]') == "Version 3 of 6 — viewing the past", "the slider to grow")
    wait_for(lambda: page.all('[data-testid="event-log"] .event-listChanged.is-future'), "the new change, dimmed in the event log")
    assert page.device() == ("3", profile) and page.text('[data-testid="session-version"]') == "v6"
    assert page.all(f'[data-node-id="{profile}"] [data-testid="cell-u2"]'), "the list as it was at version 3"
    assert fits_width(browser, 420)
    page.settle()
    save_screenshot(browser, "web-client-timeline.png")

    # The step buttons: one back (version 2: the profile without its list), one forward again.
    page.tap('[data-testid="timeline-previous"]')
    wait_for(lambda: page.device() == ("2", profile), "version 2")
    wait_for(lambda: not page.all(f'[data-node-id="{profile}"] [data-testid="cell-u2"]'), "no list at version 2")
    page.tap('[data-testid="timeline-next"]')
    wait_for(lambda: page.device() == ("3", profile), "version 3 again")

    # Restore it: a new version that is version 3 again (the photo gone, the first list back), and
    # the page is live on it.
    page.tap('[data-testid="timeline-restore"]')
    state, focus = page.in_sync(newer_than=6)
    assert (state["version"], focus["id"], state["tabs"]["selected"]) == (7, profile, "home")
    assert [node["id"] for node in walk(state["root"])] == [node["id"] for node in walk(then["root"])]
    assert state["navigators"] == then["navigators"]
    assert find_node(state["root"], profile)["list"]["sections"] == find_node(then["root"], profile)["list"]["sections"]
    block = [event for event in page.call("GET", "/events?after=0")["events"] if event["version"] == 7]
    assert [(event["node"], event["reason"]) for event in block if event["type"] == "removed"] == [(photo, "restore")]
    wait_for(lambda: not page.css('[data-testid="past-banner"]').is_displayed(), "the banner to leave")
    assert "is-past" not in page.css('[data-testid="device"]').get_attribute("class")
    wait_for(lambda: page.all(f'[data-node-id="{profile}"] [data-testid="cell-u2"]'), "the first list, live again")
    wait_for(lambda: page.text('[data-testid="timeline-status"]') == "live · version 7", "the timeline back at live")

    # One step back, then Back to live: nothing is restored.
    page.tap('[data-testid="timeline-previous"]')
    wait_for(lambda: page.device() == ("6", "n2"), "version 6")
    page.tap('[data-testid="timeline-live"]')
    page.in_sync()
    assert page.state()["version"] == 7

    assert console_problems(browser, tabs_server) == []


def test_web_client_timeline_starts_at_the_oldest_version_kept(tabs_server, browser):
    # A session whose early events are gone: its first versions can no longer be rebuilt.
    other = tabs_server.create_session()
    for _ in range(550):
        other.op("navigate", {"screen": "profile", "params": {"userId": "42"}})
        other.op("pop", {})
    status, _, answer = other.call("GET", "/versions/1")
    assert status == 404, answer
    oldest, latest = map(int, re.search(r"versions (\d+) to (\d+)", answer["error"]["message"]).groups())
    assert 1 < oldest < latest == 1101
    page = Page(browser, tabs_server)
    page.open(other)
    page.in_sync()

    # Home asks for version 1: the 404 names the oldest kept, where the slider starts and rests.
    slider = page.css('[data-testid="timeline-range"]')
    slider.send_keys(Keys.HOME)
    then = page.call("GET", f"/versions/{oldest}")
    wait_for(lambda: page.device() == (str(oldest), then["focus"]),
             lambda: f"the device to show version {oldest} (it shows {page.device()})")
    assert (slider.get_attribute("min"), slider.get_attribute("value")) == (str(oldest), str(oldest))
    assert page.text('[data-testid="past-banner"]') == f"Version {oldest} of {latest} — viewing the past"
    assert page.css('[data-testid="timeline-previous"]').get_attribute("disabled") is not None

    # Escape returns to live.
    slider.send_keys(Keys.ESCAPE)
    page.in_sync()
    assert not page.css('[data-testid="past-banner"]').is_displayed()

    assert console_problems(browser, tabs_server, provoked=[("/versions/1", 404)]) == []


def test_web_client_walks_the_demo_apps_root_flows(demo_server, browser):
    """The built-in demo app: onboarding → a link that waits → sign-in → the main tabs, each switch
    drawn anew; the layout choice is only for single-root apps, and a returning user starts signed in."""
    page = Page(browser, demo_server)
    browser.get(demo_server.url + "/")
    wait_for(lambda: page.device()[0] != "", "the first state")
    page.read_session()
    state, focus = page.in_sync()
    assert (state["flow"], focus["screen"]) == ("onboarding", "welcome")
    assert not page.css('[data-testid="layout-select"]').is_displayed()
    assert page.css('[data-testid="returning-toggle"]').is_displayed()
    assert page.text('[data-testid="inspector-session"] [data-testid="flow"]') == "onboarding"

    # A notification during onboarding: the link waits, and the device says so.
    page.css('[data-testid="deeplink-input"]').send_keys("/users/42/followers")
    state, _ = page.act('[data-testid="deeplink-go"]')
    assert state["pending"] == {"operation": "deepLink", "url": "/users/42/followers", "flow": "main"}
    wait_for(lambda: page.all('[data-testid="pending-link-banner"]:not([hidden])'), "the waiting link on the device")
    assert "/users/42/followers" in page.text('[data-testid="pending-link"]')

    # Finishing onboarding, then sign-in: each root finishes with its flag, and the link comes with the tabs.
    state, focus = page.act('[data-testid="finish-success"]')
    assert (state["flow"], focus["screen"]) == ("auth", "signIn")
    wait_for(lambda: page.logged("flowChanged", "onboarding", "auth"), "the switch in the event log")
    state, focus = page.act('[data-testid="finish-success"]')
    assert (state["flow"], focus["screen"], state["tabs"]["selected"], state["pending"]) == ("main", "followers", "home", None)
    assert page.css('[data-testid="tab-bar"]').is_displayed()
    assert page.text('[data-testid="inspector-session"] [data-testid="flow"]') == "main"
    page.settle()
    save_screenshot(browser, "web-client-flows.png")

    # A returning user starts in the main flow.
    page.tap('[data-testid="returning-user"]')
    version_before = page.device()
    page.tap('[data-testid="new-session"]')
    wait_for(lambda: page.device() != version_before and page.read_session()["id"] != state["id"], "a new session")
    page.read_session()
    state, focus = page.in_sync()
    assert (state["flow"], focus["screen"], state["flags"]) == ("main", "home", ["onboarded", "signedIn"])
    assert console_problems(browser, demo_server, provoked=[]) == []


def near(value, expected, tolerance=2.0):
    return abs(value - expected) <= tolerance


def test_web_client_stands_a_sheet_at_its_detent_and_the_user_changes_or_closes_it(tabs_server, mail_server, browser):
    # Another client presents a sheet with three detents (medium shown) and a grabber.
    other = tabs_server.create_session()
    page = Page(browser, tabs_server)
    page.open(other)
    page.in_sync()
    sheet = {"detents": ["medium", "large", {"id": "peek", "height": 120}], "selected": "medium", "grabber": True}
    other.op("present", {"screen": "editProfile", "sheet": sheet})
    state, focus = page.in_sync(newer_than=1)
    node = focus["id"]
    layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'
    card = f"{layer} > .card"
    screen = page.box(card)
    height, point = screen["screen_height"], screen["screen_width"] / 390  # the phone is 390 points wide
    wait_for(lambda: near(page.box(card)["y"], height / 2), lambda: f"the sheet at medium (top at {page.box(card)['y']})")
    assert page.css(f'{layer} [data-testid="sheet-grabber"]').is_displayed()
    assert page.css(layer).get_attribute("data-mode") == "sheet"
    page.settle()
    save_screenshot(browser, "web-client-sheet.png")

    # A tap on the grabber goes to the next taller detent: the server's state says large, the
    # sheet stands at the top of the screen and the event log shows the user's change.
    state, _ = page.act(f'{layer} [data-testid="sheet-grabber"]')
    assert find_node(state["root"], node)["sheet"]["selected"] == "large"
    wait_for(lambda: page.box(card)["y"] < height / 10, "the sheet at large")
    wait_for(lambda: page.logged("presentationChanged", node, "large"), "the detent change in the event log")

    # Dragged down near the app's own detent (120 points), it stands there.
    page.settle()
    top = page.box(card)["y"]
    version = state["version"]
    page.drag(f'{layer} [data-testid="sheet-grabber"]', height - 120 * point - top)
    state, _ = page.in_sync(newer_than=version)
    assert find_node(state["root"], node)["sheet"]["selected"] == "peek"
    wait_for(lambda: near(page.box(card)["height"], 120 * point), lambda: f"the sheet 120 points tall ({page.box(card)})")

    # Its Close button closes it as the user would by a swipe: the flow ends cancelled, interactive.
    state, focus = page.act('[data-testid="close-button"]')
    assert focus["id"] == "n1" and find_node(state["root"], node) is None
    assert page.finished(node) == {"status": "cancelled", "cause": "dismiss", "interactive": True}
    wait_for(lambda: page.logged("finished", node, "interactive"), "the user's dismissal in the event log")
    wait_for(lambda: not page.all(".layer-presented"), "the sheet to leave")

    # A sheet without detents (large) is swiped away by dragging its navigation bar down.
    node = other.op("present", {"screen": "editProfile"})["focus"]
    state, focus = page.in_sync(newer_than=state["version"])
    page.settle()
    assert not page.css(f'.layer-presented[data-navigator="{focus["navigator"]}"] [data-testid="sheet-grabber"]').is_displayed()
    page.drag(f'[data-node-id="{node}"] .nav-title', height / 2)
    state, focus = page.in_sync(newer_than=state["version"])
    assert focus["id"] == "n1" and page.finished(node)["interactive"] is True

    # The mail app's compose sheet, presented from the page: medium first, a grabber, and no Close
    # button, because the user may not swipe it away.
    browser.get(mail_server.url + "/")
    page = Page(browser, mail_server)
    wait_for(lambda: page.device()[0] != "", "the first state")
    page.read_session()
    page.in_sync()
    state, focus = page.act(page.goto_button("n1", "compose"))
    node = focus["id"]
    assert (focus["screen"], focus["sheet"], focus["dismissible"]) == ("compose", {"detents": ["medium", "large"], "grabber": True}, False)
    layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'
    card = f"{layer} > .card"
    height = page.box(card)["screen_height"]
    wait_for(lambda: near(page.box(card)["y"], height / 2), "the compose sheet at medium")
    assert page.all('[data-testid="close-button"]') == []
    state, _ = page.act(f'{layer} [data-testid="sheet-grabber"]')
    assert find_node(state["root"], node)["sheet"]["selected"] == "large"

    # Pulled all the way down, it stays (at its lowest detent): nothing is dismissed.
    page.settle()
    page.drag(f'{layer} [data-testid="sheet-grabber"]', height * 0.8)
    state, _ = page.in_sync(newer_than=state["version"])
    assert find_node(state["root"], node)["sheet"]["selected"] == "medium"
    assert not [event for event in page.call("GET", "/events?after=0")["events"] if event["type"] in ("removed", "finished")]
    wait_for(lambda: near(page.box(card)["y"], height / 2), "the compose sheet back at medium")

    # Its own flow closes it: finished cancelled, not the user's swipe.
    state, focus = page.act(f'[data-node-id="{node}"] [data-testid="finish-cancelled"]')
    assert focus["id"] == "n1" and page.finished(node) == {"status": "cancelled"}
    assert console_problems(browser, mail_server) == []


def test_web_client_lets_no_swipe_take_a_sheet_that_a_screen_on_it_holds(browser):
    """The food app's cart sheet: while the paying screen (dismissible: false) is on its stack, a
    pull down leaves the sheet standing; popped, the cart's Close is back; the app's own
    `dismissible: false` on the cart takes Close away again, and the event log says so."""
    server = RunningServer("--app", str(APPS / "food.json"), "--rate-limit", "0")
    try:
        other = server.create_session(flags=["signedIn"])
        page = Page(browser, server)
        page.open(other)
        state, _ = page.in_sync()
        cart = other.op("navigate", {"screen": "cart"})["focus"]
        state, focus = page.in_sync(newer_than=state["version"])
        wait_for(lambda: page.all('[data-testid="close-button"]'), "the cart's Close")
        layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'
        other.op("push", {"screen": "payment"})
        state, focus = page.in_sync(newer_than=state["version"])
        page.settle()
        height = page.box(f"{layer} > .card")["screen_height"]
        # from the medium detent (half the screen) to near its bottom: a pull that takes a sheet
        page.drag(f'{layer} [data-testid="sheet-grabber"]', height * 0.4)
        page.settle()
        assert page.state()["version"] == state["version"], "a pull took a sheet whose stack says it cannot be swiped away"
        assert page.all(layer)
        other.op("pop", {})
        state, focus = page.in_sync(newer_than=state["version"])
        assert focus["id"] == cart
        wait_for(lambda: page.all('[data-testid="close-button"]'), "the cart's Close back")
        other.op("nodes/" + cart + "/presentation", {"dismissible": False})
        state, _ = page.in_sync(newer_than=state["version"])
        wait_for(lambda: not page.all('[data-testid="close-button"]'), "no Close once the app says so")
        wait_for(lambda: page.logged("presentationChanged", cart, "not", "dismissible"), "the change in the event log")
        assert console_problems(browser, server) == []
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_web_client_shows_a_popover_at_its_anchor(mail_server, browser):
    # Another client opens a mailbox and a message; the page presents the attachment popover from
    # the message's "Go to…" list.
    other = mail_server.create_session()
    other.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    other.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})
    page = Page(browser, mail_server)
    page.open(other)
    state, _ = page.in_sync()
    control = page.goto_button("n3", "attachment")
    page.tap(control)
    field = page.css('[data-node-id="n3"] [data-testid="param-attachment-name"]')
    wait_for(field.is_displayed, "the params form")
    field.send_keys("invoice.pdf", Keys.ENTER)
    state, focus = page.in_sync(newer_than=state["version"])
    node = focus["id"]
    assert (focus["screen"], focus["presentation"]) == ("attachment", {"kind": "present", "style": "popover", "level": "window"})

    # Its anchor is the control tapped, where it is on the device; the popover stands beside it,
    # its arrow at the control's middle.
    anchor = focus["anchor"]
    assert anchor["element"] == "goto-attachment"
    tapped = page.box(control)
    assert all(near(a, b, 1) for a, b in zip(anchor["rect"], (tapped["x"], tapped["y"], tapped["width"], tapped["height"]))), (anchor, tapped)
    layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'
    assert page.css(layer).get_attribute("data-mode") == "popover"
    page.settle()
    card, arrow = page.box(f"{layer} > .card"), page.box(f"{layer} > .popover-arrow")
    middle = tapped["x"] + tapped["width"] / 2
    assert card["x"] <= middle <= card["x"] + card["width"] and near(arrow["x"] + arrow["width"] / 2, middle, 3)
    assert near(card["y"] + card["height"], tapped["y"] - 10) or near(card["y"], tapped["y"] + tapped["height"] + 10), (card, tapped)
    save_screenshot(browser, "web-client-popover.png")

    # A tap beside it (where the primary column is) closes it as the user's: finished interactive;
    # the attachment says it returns no result, so the message holds none to take.
    version = state["version"]
    assert not page.reachable('[data-column="primary"]')
    ActionChains(browser).move_to_element(page.css('[data-column="primary"]')).click().perform()
    state, focus = page.in_sync(newer_than=version)
    assert focus["id"] == "n3" and page.finished(node) == {"status": "cancelled", "cause": "dismiss", "interactive": True}
    assert "results" not in find_node(state["root"], "n3")
    assert not page.all('[data-testid="result-n3-attachment"]')

    # The inspector shows a node's UI state, as its client keeps it.
    page.call("PUT", "/nodes/n3/ui", {"scrollAnchor": "f1"})
    wait_for(lambda: '{"scrollAnchor":"f1"}' in (page.text('[data-testid="ui-n3"]') or ""), "the UI state in the inspector")

    # Narrower than 700 px, the split view is one stack and a popover is a sheet: one presented
    # from a list cell points at the cell.
    page.call("PUT", "/nodes/n3/list", {"sections": [{"id": "files", "items": [
        {"id": "f1", "kind": "file", "content": {"title": "photo.jpg", "navigate": {"screen": "attachment", "params": {"name": "photo.jpg"}}}}]}]})
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 640, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    try:
        wait_for(lambda: page.all('.stack-view[data-navigator="compact"] [data-node-id="n3"]'), "one stack")
        state, focus = page.act('[data-node-id="n3"] [data-testid="cell-f1"]')
        assert focus["anchor"] == {"item": "f1"}
        layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'
        wait_for(lambda: page.all(f'{layer}.is-sheet'), "the popover shown as a sheet")
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # Wide again, it is a popover at the cell.
    wait_for(lambda: page.all(f'{layer}.is-popover'), "the popover back")
    page.settle()
    cell, card = page.box('[data-node-id="n3"] [data-testid="cell-f1"]'), page.box(f"{layer} > .card")
    assert card["x"] <= cell["x"] + cell["width"] / 2 <= card["x"] + card["width"]
    assert near(card["y"], cell["y"] + cell["height"] + 10) or near(card["y"] + card["height"], cell["y"] - 10), (card, cell)
    assert console_problems(browser, mail_server) == []


@pytest.fixture(scope="module")
def bank_server():
    """The server on tests/live/apps/bank.json: its main flow's tabs adapt to a sidebar."""
    running = RunningServer("--app", str(APPS / "bank.json"), "--rate-limit", "0")
    yield running
    assert running.stop() == 0, "".join(running.log)


def test_web_client_shows_tabs_that_adapt_as_a_sidebar_at_regular_width_and_a_tab_bar_at_compact(bank_server, browser):
    """The same tabs and stacks in two forms: down the left of a tablet while the device reports
    a regular size class, along the bottom of a phone at compact; a tap on either selects a tab."""
    other = bank_server.create_session(flags=["onboarded", "verified", "signedIn"])
    page = Page(browser, bank_server)
    page.open(other)
    state, _ = page.in_sync()
    assert (state.get("sizeClass", "regular"), state["tabs"]["form"], state["tabs"]["selected"]) == ("regular", "sidebar", "accounts")
    assert "tablet" in page.css('[data-testid="device"]').get_attribute("class")
    assert page.css('[data-testid="tab-bar"]').get_attribute("data-form") == "sidebar"
    rows = [page.box(f'[data-testid="tab-{tab}"]') for tab in ("accounts", "cards", "payments", "invest")]
    assert len({round(row["x"]) for row in rows}) == 1 and [row["y"] for row in rows] == sorted(row["y"] for row in rows)
    content = page.box('[data-testid="layer-base"] .base-content')
    assert content["x"] > rows[0]["x"] + rows[0]["width"] - 1, "the sidebar is not beside the content"
    state, _ = page.act('[data-testid="tab-cards"]')
    assert state["tabs"]["selected"] == "cards"
    page.settle()
    save_screenshot(browser, "web-client-tabs-sidebar.png")

    # Compact: the same tabs along the bottom of a phone, the selected tab kept.
    state, _ = page.act('[data-testid="size-class-compact"]')
    assert (state["tabs"]["form"], state["tabs"]["selected"]) == ("tabBar", "cards")
    assert "tablet" not in page.css('[data-testid="device"]').get_attribute("class")
    wait_for(lambda: page.css('[data-testid="tab-bar"]').get_attribute("data-form") == "tabBar", "the tab bar form")
    bar = [page.box(f'[data-testid="tab-{tab}"]') for tab in ("accounts", "cards")]
    assert round(bar[0]["y"]) == round(bar[1]["y"]) and bar[0]["x"] < bar[1]["x"]
    page.settle()
    save_screenshot(browser, "web-client-tabs-bar.png")


def test_web_client_shows_a_lock_over_the_flow_and_uncovers_it_whole(bank_server, browser):
    """A PIN lock after backgrounding: the overlay over the whole device, the transfer in progress
    beneath it drawn as it stays and out of reach; a link waits under it; unlocking from the lock's
    own screen uncovers the transfer as it was, the link held by its confirm step."""
    session = bank_server.create_session(flags=["onboarded", "verified", "signedIn"])
    session.op("size-class", {"horizontal": "compact"})
    session.op("present", {"screen": "transfer", "params": {"to": "savings"}})
    confirm = session.op("push", {"screen": "confirmTransfer"})["focus"]
    page = Page(browser, bank_server)
    page.open(session)
    state, focus = page.in_sync()
    assert focus["screen"] == "confirmTransfer"

    # The app went to the background: its client locks the session (the page's Lock button
    # sends what such a client sends).
    assert page.text('[data-testid="overlay-lock"]') == "Lock (set locked)"
    state, focus = page.act('[data-testid="overlay-lock"]')
    assert (state["overlay"], state["flow"], focus["screen"]) == ("lock", "main", "unlock")
    layer = page.box('[data-testid="overlay-layer"]')
    assert (round(layer["x"]), round(layer["y"])) == (0, 0) and round(layer["width"]) == layer["screen_width"]
    assert page.inert(f'[data-node-id="{confirm}"]') and page.reachable('[data-testid="overlay-leave"]')
    assert "lock" in page.text('[data-testid="overlay-flow"]')
    # A navigation change beneath it is refused; a deep link waits.
    status, _, body = bank_server.request("POST", f"/v1/sessions/{session.id}/pop", {"navigator": "v1"}, session.token)
    assert status == 409 and body["error"]["code"] == "overlaid"
    session.op("deep-link", {"url": "/accounts/7"})
    state, _ = page.in_sync(newer_than=state["version"])
    assert state["pending"]["url"] == "/accounts/7"
    page.settle()
    save_screenshot(browser, "web-client-overlay.png")

    # Unlocking from the lock's screen: the transfer as it was, the link held by the confirm step.
    state, focus = page.act('[data-testid="overlay-leave"]')
    assert "overlay" not in state and focus["id"] == confirm and state["heldLinks"] == ["/accounts/7"]
    wait_for(lambda: not page.all('[data-testid="overlay-layer"]'), "the lock to leave")
    assert not page.inert(f'[data-node-id="{confirm}"]') and page.css('[data-testid="overlay-lock"]').is_displayed()
    assert page.logged("overlayChanged", "lock")
    assert console_problems(browser, bank_server) == []


def test_web_client_shows_a_split_view_in_columns_and_as_one_stack(mail_server, browser):
    other = mail_server.create_session()
    page = Page(browser, mail_server)
    page.open(other)
    state, _ = page.in_sync()
    assert (state["sizeClass"], state["collapsed"]) == ("regular", False)

    # The page fills the columns: a mailbox from the sidebar, a message from the mailbox, and a
    # thread pushed on the message.
    for node, screen, param, value in (("n1", "mailbox", "box", "in"), ("n2", "message", "id", "1"), ("n3", "thread", "id", "1")):
        page.tap(page.goto_button(node, screen))
        field = page.css(f'[data-node-id="{node}"] [data-testid="param-{screen}-{param}"]')
        wait_for(field.is_displayed, "the params form")
        field.send_keys(value, Keys.ENTER)
        state, focus = page.in_sync(newer_than=state["version"])
    columns = {navigator["id"]: navigator["stack"] for navigator in state["navigators"]}
    assert (columns["primary"], columns["supplementary"], columns["detail"]) == (["n1"], ["n2"], ["n3", "n4"])
    assert state["compactStack"] == ["n1", "n2", "n3", "n4"] and focus["id"] == "n4"

    # Regular: the three columns side by side, each showing the top of its stack.
    assert "tablet" in page.css('[data-testid="device"]').get_attribute("class")
    tops = [page.box(f'[data-column="{column}"] [data-node-id="{node}"]') for column, node in
            (("primary", "n1"), ("supplementary", "n2"), ("detail", "n4"))]
    assert tops[0]["x"] < tops[1]["x"] < tops[2]["x"] and len({round(top["y"]) for top in tops}) == 1
    assert page.text('[data-testid="back-button"]') == "Message"
    assert page.css('[data-testid="size-class-regular"]').get_attribute("aria-pressed") == "true"
    page.settle()
    save_screenshot(browser, "web-client-split-regular.png")

    # Compact: the switch reports the size class, and the page shows the compact stack as one
    # stack on a phone, the thread on top.
    state, focus = page.act('[data-testid="size-class-compact"]')
    assert (state["sizeClass"], state["collapsed"], state["compactStack"]) == ("compact", True, ["n1", "n2", "n3", "n4"])
    assert "tablet" not in page.css('[data-testid="device"]').get_attribute("class") and page.all("[data-column]") == []
    assert page.css('.stack-view[data-navigator="compact"] [data-node-id="n4"]').is_displayed()
    assert page.text('[data-testid="back-button"]') == "Message"
    assert page.text('[data-testid="compact-stack"]') == "n1 › n2 › n3 › n4"
    wait_for(lambda: page.logged("sizeClassChanged", "compact"), "the size class in the event log")
    page.settle()
    save_screenshot(browser, "web-client-split-compact.png")

    # Back walks the one stack across the columns: the thread, the message (the detail column
    # empties), the mailbox (the supplementary column empties).
    for stack in (["n1", "n2", "n3"], ["n1", "n2"], ["n1"]):
        state, focus = page.act('[data-testid="back-button"]')
        assert (state["compactStack"], focus["id"]) == (stack, stack[-1])
        below = find_node(state["root"], stack[-2]) if len(stack) > 1 else None
        # The new top's back button shows once the pop's transition has moved it in.
        expected = title_of(below, page.app) if below else None
        wait_for(lambda: page.text('[data-testid="back-button"]') == expected, f"the back button to {expected}")
    columns = {navigator["id"]: navigator["stack"] for navigator in state["navigators"]}
    assert (columns["supplementary"], columns["detail"]) == ([], [])

    # Regular again: the columns are back, the empty ones saying so.
    state, _ = page.act('[data-testid="size-class-regular"]')
    assert state["sizeClass"] == "regular"
    wait_for(lambda: page.all('[data-column="detail"].is-empty [data-testid]') == [] and page.all('[data-column="detail"].is-empty'), "the empty detail column")
    assert fits_width(browser, 420)
    assert console_problems(browser, mail_server) == []


def test_web_client_hides_the_columns_a_display_mode_hides(mail_server, browser):
    """The display-mode picker of a split view in columns (`POST …/display-mode`): the detail
    alone, one column over the detail, and every column again; the nodes stay where they were."""
    other = mail_server.create_session()
    other.op("navigate", {"screen": "mailbox", "params": {"box": "in"}, "from": "n1"})
    other.op("navigate", {"screen": "message", "params": {"id": "1"}, "from": "n2"})
    page = Page(browser, mail_server)
    page.open(other)
    state, _ = page.in_sync()
    assert state["displayMode"] == "automatic" and page.css('[data-testid="display-mode"]').is_displayed()
    picker = Select(page.css('[data-testid="display-mode-select"]'))
    assert [option.text for option in picker.options] == [
        "automatic", "secondaryOnly", "oneBesideSecondary", "oneOverSecondary", "twoBesideSecondary", "twoOverSecondary", "twoDisplaceSecondary"]

    picker.select_by_value("secondaryOnly")
    state, focus = page.in_sync(newer_than=state["version"])
    assert state["displayMode"] == "secondaryOnly" and focus["id"] == "n3"
    wait_for(lambda: not page.css('[data-column="primary"]').is_displayed() and not page.css('[data-column="supplementary"]').is_displayed(),
             "the hidden columns")
    detail = page.box('[data-column="detail"]')
    assert detail["x"] < 1 and detail["width"] > 0.95 * detail["screen_width"], detail
    wait_for(lambda: page.logged("displayModeChanged", "secondaryOnly"), "the display mode in the event log")

    picker.select_by_value("oneOverSecondary")
    state, _ = page.in_sync(newer_than=state["version"])
    wait_for(lambda: page.css('[data-column="supplementary"]').is_displayed(), "the column over the detail")
    over, detail = page.box('[data-column="supplementary"]'), page.box('[data-column="detail"]')
    assert not page.css('[data-column="primary"]').is_displayed()
    assert detail["x"] < 1 and over["x"] < 1 and over["width"] < detail["width"], (over, detail)
    assert page.text('[data-testid="display-mode-state"]') == "oneOverSecondary"
    page.settle()
    save_screenshot(browser, "web-client-split-display-mode.png")

    picker.select_by_value("automatic")
    state, _ = page.in_sync(newer_than=state["version"])
    wait_for(lambda: all(page.css(f'[data-column="{column}"]').is_displayed() for column in ("primary", "supplementary", "detail")), "every column")
    columns = {navigator["id"]: navigator["stack"] for navigator in state["navigators"]}
    assert (columns["primary"], columns["supplementary"], columns["detail"]) == (["n1"], ["n2"], ["n3"])
    assert console_problems(browser, mail_server) == []


def test_web_client_opens_a_session_read_only_and_follows_what_the_owner_does(tabs_server, browser):
    """A read token in the address: the page follows the session (another client's changes show
    at once), says it is read-only, and its device takes no tap (the server would answer 403)."""
    owner = tabs_server.create_session()
    status, _, issued = owner.call("POST", "/tokens", {"scope": "read", "label": "browser"})
    assert status == 201
    reader = Session(tabs_server, owner.id, issued["token"], owner.state)
    page = Page(browser, tabs_server)
    page.open(reader)
    state, _ = page.in_sync()
    wait_for(lambda: page.css('[data-testid="read-only-badge"]').is_displayed(), "the read-only badge")
    assert "is-read-only" in page.css('[data-testid="device"]').get_attribute("class")
    assert page.css('[data-testid="layers"]').get_attribute("inert") is not None
    assert page.css('[data-testid="share-read-only"]').get_attribute("hidden") is not None
    # A tap changes nothing: the device is inert (a click a script makes anyway is refused by the
    # page itself, which says why), and no change reaches the server.
    assert page.driver.execute_script(
        "const button = document.querySelector('[data-testid=layers] button'); button?.click(); return Boolean(button)")
    wait_for(lambda: any("read-only" in toast.text for toast in page.all('[data-testid="toast"]')), "the read-only toast")
    assert owner.get()["version"] == state["version"]
    # What the owner does shows at once.
    changed = owner.op("push", {"screen": "profile", "params": {"userId": "7"}})
    state, focus = page.in_sync(newer_than=state["version"])
    assert state["version"] == changed["version"] and focus["id"] == changed["focus"]
    page.settle()
    save_screenshot(browser, "web-client-read-only.png")
    # The owner's page offers a read-only link of its own.
    page.open(owner)
    page.in_sync()
    wait_for(lambda: page.css('[data-testid="share-read-only"]').get_attribute("hidden") is None
             and not page.css('[data-testid="read-only-badge"]').is_displayed(), "the owner's page")
    assert console_problems(browser, tabs_server) == []


def test_web_client_keeps_a_context_modal_in_its_tab_and_the_tab_bar_out_of_reach_under_a_window_one(tabs_server, browser):
    # Another client presents a photo over the home tab's current context.
    other = tabs_server.create_session()
    page = Page(browser, tabs_server)
    page.open(other)
    page.in_sync()
    photo = other.op("present", {"screen": "photo", "params": {"photoId": "3"}, "style": "currentContext"})["focus"]
    state, focus = page.in_sync(newer_than=1)
    assert focus["presentation"] == {"kind": "present", "style": "currentContext", "level": "context"}
    layer = f'.layer-presented[data-navigator="{focus["navigator"]}"]'

    # It stays inside the tab: above the tab bar, which can still be tapped.
    page.settle()
    modal, bar = page.box(layer), page.box('[data-testid="tab-bar"]')
    assert modal["y"] + modal["height"] <= bar["y"] + 0.5
    assert page.reachable('[data-testid="tab-account"]') and not page.inert('[data-testid="tab-bar"]')
    save_screenshot(browser, "web-client-levels.png")

    # Another tab hides it; back on home, it is there again.
    state, focus = page.act('[data-testid="tab-account"]')
    assert focus["id"] == "n2"
    wait_for(lambda: not page.all(layer), "the photo to go with its tab")
    state, focus = page.act('[data-testid="tab-home"]')
    assert focus["id"] == photo and page.css(layer).is_displayed()

    # A sheet presented from it is window-level: it covers the tab bar, and a tap where the
    # account tab is reaches the sheet, not the tab.
    state, focus = page.act(page.goto_button(photo, "editProfile"))
    assert focus["presentation"] == {"kind": "present", "style": "pageSheet", "level": "window"}
    assert page.inert('[data-testid="tab-bar"]') and page.inert(f'{layer} .stack-view')
    page.settle()
    assert page.reachable('[data-testid="tab-bar"]') is False

    # Closed, the tab bar can be tapped again.
    state, focus = page.act('[data-testid="close-button"]')
    assert focus["id"] == photo and not page.inert('[data-testid="tab-bar"]')
    state, focus = page.act('[data-testid="tab-account"]')
    assert state["tabs"]["selected"] == "account"
    assert console_problems(browser, tabs_server) == []


def test_web_client_shows_the_sessions_experiments_and_when_it_was_exposed(browser):
    """A session of the coffee app in both experiments: the inspector names each variant, and the
    change that first shows the cart (where the cart experiment's variants differ) marks it exposed."""
    server = RunningServer("--app", str(APPS / "coffee.json"), "--rate-limit", "0")
    try:
        # A user in the short onboarding: the page shows its variant's welcome, by its app version.
        newcomer = server.create_session(user="ada")
        assert newcomer.state["experiments"]["short-onboarding"]["variant"] == "short"
        page = Page(browser, server)
        page.open(newcomer)
        _, focus = page.in_sync()
        assert focus["screen"] == "welcome" and page.text('[data-testid="nav-title"]') == "Welcome: order in one tap"

        session = server.create_session(user="ada", flags=["onboarded"])
        variants = {key: membership["variant"] for key, membership in session.state["experiments"].items()}
        page.open(session)
        page.in_sync()
        shown = page.text('[data-testid="experiments"]')
        assert f"cart-pushed: {variants['cart-pushed']}" in shown and f"short-onboarding: {variants['short-onboarding']}" in shown
        assert "exposed" not in shown
        session.op("deep-link", {"url": "/cart"})
        page.in_sync(newer_than=1)
        wait_for(lambda: f"cart-pushed: {variants['cart-pushed']} · exposed" in page.text('[data-testid="experiments"]'), "the exposure")
        assert f"short-onboarding: {variants['short-onboarding']} · exposed" not in page.text('[data-testid="experiments"]')
        assert "exposed" in page.text(".event-exposed")
    finally:
        server.stop()
