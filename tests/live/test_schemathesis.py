"""Schemathesis against openapi.yaml and live servers: no 5xx, and every answer (status,
content type, body, headers) is one that openapi.yaml documents for the operation, with no member,
event type or value it does not name.

Two private servers run: the built-in demo app (tabs, a guarded screen, routes) and
tests/live/apps/basic.json (one stack or split, routes, a guard). Every case on
/v1/sessions/{id}... runs on a fresh session created for it, in one of a few prepared
navigation states, with the real id and bearer token (unless Schemathesis is deliberately
testing a missing or wrong token). String fields that name screens, nodes, navigators, tabs,
flags and links are often steered to real ones, so that most cases reach the handlers rather
than stopping at 401, 404 or 422. The steering is a function of the generated case, so that
Hypothesis replays a failure exactly. The servers are private, so that a crash found here
cannot take the other live tests down; a crashed server is started again for the next case.
Cases on .../events never ask for the server-sent event stream (it stays open until the
session goes, so there is no whole answer to check) and wait at most a second in a long poll.
About 650 cases, 10-40 seconds.
"""
import hashlib
import json
import random
import subprocess
import urllib.request
from pathlib import Path

import pytest
import schemathesis

import closed_contract
from conftest import RunningServer

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
BASIC_APP = Path(__file__).resolve().parent / "apps" / "basic.json"
TABS_APP = Path(__file__).resolve().parent / "apps" / "tabs.json"

CONFIG = schemathesis.Config.from_dict({
    "seed": 20261122,
    "generation": {"mode": "all", "max-examples": 10, "deterministic": True},
    "phases": {
        "examples": {"enabled": True},
        # Boundary values of every parameter and field; its negative half alone would be ~600
        # more cases, and the fuzzing phase below generates negative cases too.
        "coverage": {"enabled": True, "generation": {"mode": "positive"}},
        "fuzzing": {"enabled": True},
        "stateful": {"enabled": False},
    },
    "checks": {
        # Schema-valid requests may still name an unknown screen, tab or route (422, 404),
        # an unknown node (404), a stale If-Match (412), a current If-None-Match (304), or ask for what the navigation
        # state does not allow (409).
        "positive_data_acceptance": {"expected-statuses": ["2xx", "304", "401", "404", "409", "412", "422"]},
        # If-Match is checked before the body (412 comes before 400).
        "negative_data_rejection": {
            "expected-statuses": ["400", "401", "404", "405", "409", "412", "413", "422"],
        },
    },
})

# Answers are checked against the contract as a closed world (closed_contract.py): the server
# sends nothing the contract does not name, although clients must skip what they do not know.
schema = schemathesis.openapi.from_dict(closed_contract.load(), config=CONFIG)

# Per app: the screens and the params each one requires, the tabs, and the prepared states
# as (layout or deep link, operations); comments show the navigators they leave.
LIST = ("nodes/n1/list", {"sections": [{"id": "a", "items": [{"id": "1", "kind": "user", "content": {"name": "Ada"}}]}]})
LIST_AGAIN = ("nodes/n1/list", {"sections": [{"id": "a", "items": []}, {"id": "b", "items": [
    {"id": "1", "kind": "user", "content": {"name": "Ada L."}}, {"id": "2", "kind": "user", "content": None}]}]})
APPS = {
    "basic": {
        "screens": {
            "home": {}, "settings": {}, "profile": {"userId": "42"}, "followers": {"userId": "42"}, "secret": {},
            "login": {}, "photo": {"photoId": "p1"}, "onboarding": {}, "onboardingStep": {"step": 1},
        },
        "tabs": [],
        "scenarios": [
            ({"layout": "stack"}, [LIST, LIST_AGAIN]),  # v0 [n1]; n1's list at version 2
            ({"layout": "stack"}, [  # v0 [n1 n2], v1 [n3 n4] (embedded)
                LIST,
                ("push", {"screen": "profile", "params": {"userId": "42"}}),
                ("present", {"screen": "onboarding"}),
                ("push", {"screen": "onboardingStep", "params": {"step": 1}}),
            ]),
            ({"layout": "split"}, [  # primary [n1], detail [n2 n3]
                LIST,
                ("push", {"screen": "profile", "params": {"userId": "7"}}),
                ("push", {"screen": "followers", "params": {"userId": "7"}}),
            ]),
            ({"layout": "stack"}, [  # v0 [n1 n2], v1 [n3] (not embedded)
                LIST,
                ("push", {"screen": "settings"}),
                ("present", {"screen": "photo", "params": {"photoId": "p1"}}),
            ]),
            ({"deepLink": "/secret/5"}, [LIST]),  # v0 [n1 n2], v1 [n3 login]; secret pending on n3
        ],
    },
    "demo": {
        "screens": {
            "home": {}, "account": {}, "settings": {}, "profile": {"userId": "42"}, "followers": {"userId": "42"},
            "login": {}, "editProfile": {}, "photo": {"photoId": "p1"}, "onboarding": {}, "onboardingStep": {"step": 1},
        },
        "tabs": ["home", "account"],
        "scenarios": [
            ({}, [LIST, LIST_AGAIN]),  # tab:home [n1], tab:account [n2]
            ({}, [LIST, ("navigate", {"screen": "settings"})]),  # tab:home [n1], v1 [n3 login]; settings pending
            ({"deepLink": "/users/42/followers"}, [  # tab:home [n1 n3 n4], tab:account [n2 n5]; account selected
                LIST, ("select-tab", {"tab": "account"}), ("flags", {"set": ["signedIn"]}),
                ("navigate", {"screen": "settings"}),
            ]),
        ],
    },
}
NODES = ["n0", "n1", "n2", "n3", "n4", "n5"]
LIST_NODES = ["n1", "n1", "n1", "n2", "n0"]  # for {node} in list paths: n1 has a list
NAVIGATORS = ["v0", "v1", "primary", "detail", "tab:home", "tab:account"]
FLAGS = ["signedIn", "beta"]
# The admin paths are served (with this token) and exercised like the others.
ADMIN_TOKEN = "schemathesis-admin"

LINKS = ["/users/7", "/users/7/followers?from=link", "/photos/p1", "/secret/5", "/sheet", "/broken", "/settings",
         "/welcome/2", "tabs://users/1", "basic://users/1/", "/nope"]


class Fuzzing:
    """The private servers (started again after a case crashed one) and the statuses seen."""

    def __init__(self):
        self.servers = {"demo": RunningServer("--app", str(TABS_APP), "--admin-token", ADMIN_TOKEN),
                        "basic": RunningServer("--app", str(BASIC_APP), "--admin-token", ADMIN_TOKEN)}
        self.statuses = {}

    def server(self, app):
        """The app's server, started again if a case crashed it (that case has failed)."""
        if self.servers[app].process.poll() is not None:
            self.servers[app] = RunningServer("--app", str(BASIC_APP if app == "basic" else TABS_APP), "--admin-token", ADMIN_TOKEN)
        return self.servers[app]

    def call(self, app, method, path, body=None, token=None):
        request = urllib.request.Request(
            self.server(app).url + path, method=method, data=json.dumps(body).encode() if body is not None else None)
        if token:
            request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def prepared_session(self, app, scenario):
        """A new session of `app` in one of its prepared states; returns (id, token, version)."""
        creation, operations = APPS[app]["scenarios"][scenario]
        created = self.call(app, "POST", "/v1/sessions", creation)
        for name, body in operations:
            method = "PUT" if name.endswith("/list") else "POST"
            self.call(app, method, f"/v1/sessions/{created['id']}/{name}", body, created["token"])
        return created["id"], created["token"], 1 + len(operations)


@pytest.fixture(scope="module")
def fuzzing():
    fuzzing = Fuzzing()
    yield fuzzing
    logs = {app: "".join(server.log[-20:]) for app, server in fuzzing.servers.items()}
    alive = {app: server.process.poll() is None for app, server in fuzzing.servers.items()}
    codes = {app: server.stop() for app, server in fuzzing.servers.items()}
    total = sum(sum(counts.values()) for counts in fuzzing.statuses.values())
    print(f"\nschemathesis: {total} cases; statuses per operation:")
    for key, counts in sorted(fuzzing.statuses.items()):
        print(f"  {key}: " + ", ".join(f"{status}x{count}" for status, count in sorted(counts.items())))
    assert all(alive.values()) and not any(codes.values()), f"a server did not stop cleanly: {codes}\n{logs}"


def complete(entry, screens, rng):
    """Points `entry["screen"]` at a real screen and adds the params it requires."""
    if isinstance(entry.get("screen"), str):
        screen = rng.choice(list(screens))
        entry["screen"] = screen
        if isinstance(entry.get("params"), dict) or entry.get("params") is None:
            entry["params"] = {**(entry.get("params") or {}), **screens[screen]}


def steer(body, app, rng):
    """Points string fields at real screens, nodes, navigators, tabs, flags and links, most
    of the time. Only strings are replaced by strings (and params objects completed), so a
    case that Schemathesis generated as schema-invalid stays invalid, and a valid one valid.
    """
    if not isinstance(body, dict) or rng.random() < 0.2:
        return  # some cases exactly as generated
    screens = APPS[app]["screens"]
    complete(body, screens, rng)
    if isinstance(body.get("stack"), list):
        for entry in body["stack"]:
            if isinstance(entry, dict):
                complete(entry, screens, rng)
    for field in ("from", "node", "to"):
        if isinstance(body.get(field), str):
            body[field] = rng.choice(NODES)
    if isinstance(body.get("navigator"), str) and rng.random() < 0.7:
        body["navigator"] = rng.choice(NAVIGATORS)
    if isinstance(body.get("tab"), str) and rng.random() < 0.8:
        body["tab"] = rng.choice(APPS[app]["tabs"] or ["home"])
    for field in ("url", "deepLink"):
        if isinstance(body.get(field), str) and rng.random() < 0.8:
            body[field] = rng.choice(LINKS)
    for field in ("set", "clear"):
        if isinstance(body.get(field), list):
            body[field] = [rng.choice(FLAGS) if isinstance(flag, str) and flag else flag for flag in body[field]]


def shorten_wait(query, rng):
    """A valid `wait` becomes 0, or 1 now and then; an invalid one stays."""
    wait = query.get("wait")
    if isinstance(wait, (int, str)) and not isinstance(wait, bool) and str(wait).isdigit() and 0 < int(wait) <= 60:
        query["wait"] = 1 if rng.random() < 0.1 else 0


def keep_events_short(case, rng):
    """On .../events: no `Accept: text/event-stream` (the stream never ends by itself), and a
    valid `wait` becomes 0, or 1 now and then, so that long polls are still exercised. With
    both `after` and `Last-Event-ID` the server reads only `after`, so the header goes: an
    invalid one would not be refused. Only valid values are replaced by valid ones, so a
    negative case stays negative. The state's `GET ?wait=` is shortened the same way, as a
    generated `If-None-Match` (`*`, the current version) can make it wait."""
    if case.path == "/v1/sessions/{id}":
        shorten_wait(case.query if isinstance(case.query, dict) else {}, rng)
    if not case.path.endswith("/events"):
        return
    for name in [name for name in case.headers if name.lower() == "accept"]:
        if "text/event-stream" in str(case.headers[name]):
            del case.headers[name]
    query = case.query if isinstance(case.query, dict) else {}
    shorten_wait(query, rng)
    if "after" in query:
        for name in [name for name in case.headers if name.lower() == "last-event-id"]:
            del case.headers[name]


@schema.parametrize()
def test_api_conforms_to_openapi(case, fuzzing):
    generated = json.dumps([case.method, case.path, case.path_parameters, case.query, dict(case.headers), case.body],
                           sort_keys=True, default=lambda value: type(value).__name__)  # NotSet: no body
    rng = random.Random(hashlib.sha256(generated.encode()).digest())
    app = rng.choice(sorted(APPS))
    if "id" in case.path_parameters:
        scenario = rng.randrange(len(APPS[app]["scenarios"]))
        session_id, token, version = fuzzing.prepared_session(app, scenario)
        case.path_parameters["id"] = session_id
        if "node" in case.path_parameters and rng.random() < 0.8:
            case.path_parameters["node"] = rng.choice(LIST_NODES)
        if not case.operation.schema.is_security_param_negated(case):
            case.headers["Authorization"] = f"Bearer {token}"
        if "If-Match" in case.headers and rng.random() < 0.7:
            case.headers["If-Match"] = rng.choice([f'"{version}"', f'W/"{version}", "0"', "*"])
    if case.path.startswith("/v1/admin/"):
        if not case.operation.schema.is_security_param_negated(case):
            case.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        # A funnel's steps must be screens of the app (else 400, which a schema-valid list must
        # not get): a valid list points at real ones; test_analytics asks for unknown screens.
        query = case.query if isinstance(case.query, dict) else {}
        steps = query.get("steps")
        if isinstance(steps, str) and steps and "," not in (steps[0], steps[-1]) and ",," not in steps:
            query["steps"] = ",".join(rng.choice(list(APPS[app]["screens"])) for _ in steps.split(","))
    steer(case.body, app, rng)
    keep_events_short(case, rng)
    server = fuzzing.server(app)
    try:
        response = case.call_and_validate(base_url=server.url)
    except Exception:
        try:
            server.process.wait(timeout=1)  # a crash closes the connection a moment before the process ends
        except subprocess.TimeoutExpired:
            raise
        pytest.fail(f"the {app} server crashed (exit {server.process.returncode}) on: {case.as_curl_command()}",
                    pytrace=False)
    counts = fuzzing.statuses.setdefault(f"{case.method} {case.path}", {})
    counts[response.status_code] = counts.get(response.status_code, 0) + 1
