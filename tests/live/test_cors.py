"""Cross-origin web clients (`--cors-origin`) in a real browser.

A page served by Python's http.server from another loopback origin creates a session, navigates
and follows the session's events with `fetch()` streaming (EventSource cannot send the token),
reading the headers CORS exposes; the test asserts what the page recorded. The same page from
an origin the server does not allow is refused by the browser: its fetch rejects. Preflights
and headers are also checked beside the browser with urllib. Needs Debian's chromium and
chromium-driver and Selenium from pip.
"""
import functools
import http.server
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from conftest import EventStream, RunningServer

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
EXPOSED = "ETag, X-Request-ID, Retry-After, Idempotent-Replayed, Minerva-Model-Version, Minerva-Already-Applied, Minerva-Applied-Version"

# The page runs once it loads, against the API named in its query string (`?api=URL`), and
# leaves what it saw in `window.results`.
PAGE = """<!doctype html>
<meta charset="utf-8">
<title>cross-origin client</title>
<script>
async function run(api) {
  const out = {};
  try {
    const json = {"Content-Type": "application/json"};
    let answer = await fetch(api + "/v1/sessions", {method: "POST", headers: json, body: "{}"});
    const session = await answer.json();
    Object.assign(out, {created: answer.status, etag: answer.headers.get("ETag"), requestId: answer.headers.get("X-Request-ID")});
    const auth = {"Authorization": "Bearer " + session.token};
    const base = api + "/v1/sessions/" + session.id;

    const stop = new AbortController();
    const stream = await fetch(base + "/events", {headers: {...auth, "Accept": "text/event-stream"}, signal: stop.signal});
    out.streamStatus = stream.status;
    out.streamType = stream.headers.get("Content-Type");
    const reader = stream.body.getReader();
    const decoder = new TextDecoder();
    let text = "";

    answer = await fetch(base + "/navigate", {
      method: "POST", body: JSON.stringify({screen: "profile", params: {userId: "7"}}),
      headers: {...json, ...auth, "If-Match": out.etag, "Idempotency-Key": "cors-1"}});
    out.navigated = answer.status;
    out.navigatedETag = answer.headers.get("ETag");
    out.navigatedVersion = (await answer.json()).version;
    answer = await fetch(base + "/navigate", {
      method: "POST", body: JSON.stringify({screen: "profile", params: {userId: "7"}}),
      headers: {...json, ...auth, "If-Match": out.etag, "Idempotency-Key": "cors-1"}});
    out.replayed = answer.headers.get("Idempotent-Replayed");

    const deadline = Date.now() + 5000;
    while (!text.includes('"screen":"profile"') && Date.now() < deadline) {
      const {value, done} = await reader.read();
      if (done) break;
      text += decoder.decode(value, {stream: true});
    }
    out.streamSawProfile = text.includes('"screen":"profile"');
    stop.abort();

    answer = await fetch(base + "/navigate", {method: "POST", body: "{}", headers: {...json, ...auth, "If-Match": "2"}});
    out.errorStatus = answer.status;
    out.errorMessage = (await answer.json()).error.message;
  } catch (error) {
    out.error = String(error);
  }
  window.results = out;
}
run(new URLSearchParams(location.search).get("api"));
</script>
"""


class PageServer:
    """Serves a folder over HTTP on 127.0.0.1, a free port: an origin of its own."""

    def __init__(self, folder):
        handler = functools.partial(QuietHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cors-page")
    (folder / "client.html").write_text(PAGE)
    allowed, other = PageServer(folder), PageServer(folder)
    yield allowed, other
    allowed.close()
    other.close()


@pytest.fixture(scope="module")
def cors_server(pages):
    server = RunningServer("--cors-origin", pages[0].origin, "--cors-origin", "https://app.example.com")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def page_results(browser, page, api):
    browser.get(f"{page.origin}/client.html?api={api}")
    deadline = time.monotonic() + 15
    while (results := browser.execute_script("return window.results")) is None:
        assert time.monotonic() < deadline, "the page did not finish"
        time.sleep(0.05)
    return results


def test_a_page_from_an_allowed_origin_creates_navigates_and_follows_events(browser, pages, cors_server):
    results = page_results(browser, pages[0], cors_server.url)
    assert "error" not in results, results
    assert results["created"] == 201 and results["etag"] == '"1"' and results["requestId"], results
    assert results["streamStatus"] == 200 and results["streamType"].startswith("text/event-stream"), results
    assert results["navigated"] == 200 and results["navigatedETag"] == '"2"' and results["navigatedVersion"] == 2, results
    assert results["replayed"] == "true", results
    assert results["streamSawProfile"], results
    assert results["errorStatus"] == 400 and "quoted" in results["errorMessage"], results


def test_a_page_from_an_origin_not_allowed_is_refused_by_the_browser(browser, pages, cors_server):
    results = page_results(browser, pages[1], cors_server.url)
    assert "Failed to fetch" in results.get("error", ""), results
    assert cors_server.request("GET", "/healthz")[0] == 200


def test_preflights_need_no_token_and_other_origins_get_no_cors_headers(pages, cors_server):
    origin = pages[0].origin
    preflight = {"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, if-match"}
    status, headers, _ = cors_server.request("OPTIONS", "/v1/sessions/nosuch/navigate", headers=preflight)
    assert status == 204
    assert headers["Access-Control-Allow-Origin"] == origin and headers["Vary"] == "Origin"
    assert headers["Access-Control-Allow-Methods"] == "POST"
    assert headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID, Minerva-Device-Change, Minerva-Device-Time, Minerva-Model-Version"
    assert headers["Access-Control-Max-Age"] == "600"

    status, headers, body = cors_server.request("OPTIONS", "/v1/sessions", headers={**preflight, "Origin": pages[1].origin})
    assert status == 403 and body["error"]["code"] == "forbidden" and "--cors-origin" in body["error"]["message"]
    assert not [name for name in headers if name.lower().startswith("access-control-")]

    status, headers, _ = cors_server.request("GET", "/v1/nope", headers={"Origin": "https://app.example.com"})
    assert status == 404
    assert headers["Access-Control-Allow-Origin"] == "https://app.example.com"
    assert headers["Access-Control-Expose-Headers"] == EXPOSED

    status, headers, _ = cors_server.request("GET", "/v1/app", headers={"Origin": pages[1].origin})
    assert status == 200 and headers["Vary"] == "Origin"
    assert not [name for name in headers if name.lower().startswith("access-control-")]


def test_long_polls_and_streams_carry_cors_headers(cors_server):
    session = cors_server.create_session()
    origin = {"Origin": "https://app.example.com"}
    status, headers, _ = session.call("GET", "/events?after=1&wait=1", headers=origin)
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "https://app.example.com"
    status, headers, _ = session.call("GET", "?wait=1", headers={**origin, "If-None-Match": '"1"'})
    assert status == 304 and headers["Access-Control-Allow-Origin"] == "https://app.example.com"
    stream = EventStream(session, headers=origin)
    assert stream.status == 200 and stream.headers["access-control-allow-origin"] == "https://app.example.com"
    assert stream.headers["access-control-expose-headers"] == EXPOSED
    stream.close()


@pytest.mark.parametrize("origin", ["app.example.com", "https://app.example.com/", "*"])
def test_an_origin_that_is_not_one_stops_the_server_at_startup(origin):
    with pytest.raises(RuntimeError, match="is not an origin"):
        RunningServer("--cors-origin", origin)
