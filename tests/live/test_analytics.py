"""Flow analytics over real HTTP: the admin paths and their guard (and `GET /v1/server`, which
says whether they answer), a seeded population of 1,000 sessions whose funnel and exits come out
as built (SQLite, across a restart), time on screen driven by the documented clock override, and
two instances on one PostgreSQL counting each change once."""
import time
import urllib.request
from collections import Counter

import pytest

from conftest import APPS, BINARY, RunningServer
from population import drive
from postgres import PostgresCluster

# The app the population and the figures below are built on: one tab bar (tests/live/apps/tabs.json).
TABS = ("--app", str(APPS / "tabs.json"))

ADMIN = "admin-secret"


def report(server, name, query=""):
    status, _, document = server.request("GET", f"/v1/admin/analytics/{name}{query}", token=ADMIN)
    assert status == 200, document
    return document


def exits(server):
    return {row["screen"]: Counter(row["exits"]) for row in report(server, "screens")["screens"]}


def expire_everything(server, clock_file, expected_exits, timeout=20):
    """Moves the server clock two days on and waits until the sweeper has expired every session."""
    clock_file.write_text(str(2 * 86_400))
    expired = sum(counter["expired"] for counter in expected_exits.values())
    deadline = time.monotonic() + timeout
    while sum(counter["expired"] for counter in exits(server).values()) < expired:
        assert time.monotonic() < deadline, (exits(server), expected_exits)
        time.sleep(0.2)


def check_population(server, expected):
    screens = {row["screen"]: row for row in report(server, "screens")["screens"]}
    assert {screen: row["shown"] for screen, row in screens.items()} == dict(expected["shown"])
    assert {screen: Counter(row["exits"]) for screen, row in screens.items() if row["exits"]} == expected["exits"]
    assert screens["home"]["sessions"] == expected["funnel"][0]
    funnel = report(server, "funnel", "?steps=home,profile,followers&within=30m")
    assert [step["sessions"] for step in funnel["steps"]] == expected["funnel"]
    for step in funnel["steps"][:-1]:
        assert Counter({(row["screen"], row["reason"]): row["sessions"] for row in step["exits"]}) == expected["stopped"][step["screen"]]
        assert step["stopped"] == sum(expected["stopped"][step["screen"]].values())


@pytest.fixture
def clock_file(tmp_path):
    path = tmp_path / "clock-offset"
    path.write_text("0")
    return path


def test_admin_paths_are_unknown_without_a_token_and_closed_to_session_tokens(tabs_server):
    assert BINARY.exists()
    status, _, document = tabs_server.request("GET", "/v1/admin/analytics/screens")
    assert status == 404, document
    # GET /v1/server says so beforehand, without a token, so that a client need not try.
    assert tabs_server.request("GET", "/v1/server")[2]["adminAnalytics"] is False
    guarded = RunningServer(*TABS, "--admin-token", ADMIN)
    try:
        assert guarded.request("GET", "/v1/server")[2]["adminAnalytics"] is True
        session = guarded.create_session()
        for token in (None, session.token, "wrong"):
            status, headers, document = guarded.request("GET", "/v1/admin/analytics/screens", token=token)
            assert status == 401 and headers["WWW-Authenticate"] == "Bearer", document
        status, _, document = guarded.request("GET", "/v1/admin/analytics/screens?since=last+week", token=ADMIN)
        assert status == 400 and "since" in document["error"]["message"]
        status, _, document = guarded.request("GET", "/v1/admin/analytics/flows?step=home", token=ADMIN)
        assert status == 400 and "'step'" in document["error"]["message"]
        status, _, document = guarded.request("GET", "/v1/admin/analytics/funnel?steps=home,nowhere", token=ADMIN)
        assert status == 400 and "'nowhere', which is not a screen of the app" in document["error"]["message"]
        status, _, document = guarded.request("POST", "/v1/admin/analytics/screens", {}, token=ADMIN)
        assert status == 405
    finally:
        assert guarded.stop() == 0


def test_the_admin_token_may_come_from_the_environment():
    server = RunningServer(*TABS, environment={"MINERVA_ADMIN_TOKEN": ADMIN})
    try:
        assert report(server, "flows")["flows"] == []
        assert server.request("GET", "/v1/server")[2]["adminAnalytics"] is True
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_a_seeded_population_gives_the_funnel_and_exits_it_was_built_with_across_a_restart(tmp_path, clock_file):
    arguments = (*TABS, "--store", f"sqlite:{tmp_path / 'minerva.sqlite'}", "--admin-token", ADMIN, "--rate-limit", "0",
                 "--session-ttl", "5s", "--clock-offset-file", str(clock_file))
    # Changes made just before a graceful stop are counted after the restart.
    server = RunningServer(*arguments)
    session = server.create_session()
    session.op("push", {"screen": "profile", "params": {"userId": "1"}})
    assert server.stop() == 0, "".join(server.log)
    server = RunningServer(*arguments)
    try:
        assert {row["screen"]: row["shown"] for row in report(server, "screens")["screens"]} == {"home": 1, "account": 1, "profile": 1}
        session.server = server
        session.op("pop")
        started = time.monotonic()
        expected = drive([server.url], sessions=1000, seed=17)
        # … and the session made before the restart, which popped back to home and is left to expire.
        expected["shown"].update(["home", "account", "profile"])
        expected["funnel"][0] += 1
        expected["funnel"][1] += 1
        expected["exits"]["profile"]["pop"] += 1
        expected["exits"]["home"]["expired"] += 1
        expected["stopped"]["profile"][("profile", "pop")] += 1
        print(f"\npopulation: 1,000 sessions driven in {time.monotonic() - started:.1f} s; funnel {expected['funnel']}")
        expire_everything(server, clock_file, expected["exits"])
        check_population(server, expected)
    finally:
        assert server.stop() == 0, "".join(server.log)
    restarted = RunningServer(*arguments)
    try:
        check_population(restarted, expected)
    finally:
        assert restarted.stop() == 0


@pytest.mark.serial
def test_time_on_screen_follows_the_server_clock(clock_file):
    server = RunningServer(*TABS, "--admin-token", ADMIN, "--clock-offset-file", str(clock_file))
    try:
        session = server.create_session()
        clock_file.write_text("30")
        time.sleep(0.2)
        session.op("push", {"screen": "profile", "params": {"userId": "1"}})
        clock_file.write_text("90")
        time.sleep(0.2)
        session.op("pop")
        screens = {row["screen"]: row["timeOnScreen"] for row in report(server, "screens")["screens"]}
        assert screens["home"]["samples"] == 1 and screens["home"]["median"] == pytest.approx(30, rel=0.05)
        assert screens["profile"]["samples"] == 1 and screens["profile"]["p90"] == pytest.approx(60, rel=0.05)
        with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
            metrics = response.read().decode()
        assert 'minerva_screen_shown_total{screen="profile"} 1' in metrics
        assert 'minerva_screen_time_seconds_count{screen="home"} 1' in metrics
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_two_instances_on_one_postgresql_count_each_change_once(clock_file):
    with PostgresCluster.create() as postgres:
        arguments = (*TABS, "--store", postgres.url(), "--admin-token", ADMIN, "--rate-limit", "0", "--session-ttl", "5s",
                     "--clock-offset-file", str(clock_file))
        instances = [RunningServer(*arguments), RunningServer(*arguments)]
        try:
            # Each session's requests alternate between the instances.
            expected = drive([instance.url for instance in instances], sessions=300, seed=5)
            expire_everything(instances[0], clock_file, expected["exits"])
            for instance in instances:
                check_population(instance, expected)
        finally:
            assert [instance.stop() for instance in instances] == [0, 0]


@pytest.mark.serial
def test_flows_count_successes_cancellations_and_time_to_finish(clock_file):
    server = RunningServer(*TABS, "--admin-token", ADMIN, "--clock-offset-file", str(clock_file))
    try:
        for status, seconds in (("success", 20), ("cancelled", 0), ("swiped", 0)):
            session = server.create_session()
            login = session.op("present", {"screen": "login"})["focus"]
            clock_file.write_text(str(float(clock_file.read_text()) + seconds))
            time.sleep(0.2)
            if status == "swiped":
                # A sheet the user swiped away is a cancelled flow too, with its cause.
                session.op("dismiss", {"interactive": True})
            else:
                session.op("finish", {"node": login, "result": {"status": status}})
        flows = report(server, "flows")["flows"]
        assert [(flow["screen"], flow["success"], flow["cancelled"], flow["cancelledBy"]) for flow in flows] == [
            ("login", 1, 2, {"dismiss": 1, "finish": 1})]
        assert flows[0]["timeToFinish"]["samples"] == 3
        assert flows[0]["timeToFinish"]["p90"] == pytest.approx(20, rel=0.05)
        screens = {row["screen"]: row for row in report(server, "screens")["screens"]}
        assert screens["login"]["exits"] == {"finish": 2, "dismiss": 1}
        # A period that ends before anything happened has no figures.
        assert report(server, "flows", "?until=2000-01-01T00:00:00Z")["flows"] == []
    finally:
        assert server.stop() == 0, "".join(server.log)


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_a_session_longer_than_the_path_cap_reports_its_funnel_as_documented(tmp_path, store):
    # The README's cap: a path keeps a session's first 500 steps, then a `truncated` step.
    location = "memory" if store == "memory" else f"sqlite:{tmp_path / 'cap.sqlite'}"
    server = RunningServer(*TABS, "--admin-token", ADMIN, "--store", location, "--rate-limit", "0")
    try:
        session = server.create_session()
        rounds = 300  # two steps each (profile shown, profile popped): past the cap
        for _ in range(rounds):
            session.op("push", {"screen": "profile", "params": {"userId": "1"}})
            session.op("pop")
        # The rollups are not capped: every round is counted.
        screens = {row["screen"]: row for row in report(server, "screens")["screens"]}
        assert screens["profile"]["shown"] == rounds and screens["profile"]["exits"] == {"pop": rounds}
        # Reached within the cap, left within it: counted as it happened.
        funnel = report(server, "funnel", "?steps=home,profile")
        assert [step["sessions"] for step in funnel["steps"]] == [1, 1]
        # A step after the cap is never reached; the session stopped at `home`, and its node
        # did not leave within the path: the exit is `truncated`, at the screen in focus then.
        funnel = report(server, "funnel", "?steps=home,followers")
        assert [step["sessions"] for step in funnel["steps"]] == [1, 0]
        assert [(row["screen"], row["reason"], row["sessions"]) for row in funnel["steps"][0]["exits"]] == [("home", "truncated", 1)]
    finally:
        assert server.stop() == 0, "".join(server.log)
