"""The app description changes without a restart: SIGHUP reads --app again (a valid file serves
new sessions at once, an invalid one keeps the app in use), sessions move to the new version on
their next use (only forward, across instances), GET /v1/app carries the version, and
--check-app validates a file for CI pipelines."""
import json
import re
import signal
import subprocess
import time
import urllib.request

from conftest import APPS, BINARY, RunningServer
from postgres import PostgresCluster


def app_file(tmp_path, name="app.json", change=None):
    app = json.loads((APPS / "basic.json").read_text())
    if change:
        change(app)
    path = tmp_path / name
    path.write_text(json.dumps(app, indent=2))
    return path


def sessions_by_version(server):
    request = urllib.request.Request(server.url + "/metrics")
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(r'^minerva_sessions_in_memory\{app_version="([0-9a-f]+)"\} (\d+)', text, re.M)
    return {version: int(count) for version, count in found if int(count)}


def reload(server, *parts):
    """SIGHUP, then waits for the server's new log line about it with all of `parts`."""
    seen = len(server.log)
    server.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    while not any("received SIGHUP" in line and all(part in line for part in parts) for line in server.log[seen:]):
        assert time.monotonic() < deadline, "".join(server.log)
        time.sleep(0.02)


def test_sighup_serves_a_changed_app_and_sessions_move_to_it_on_their_next_use(tmp_path):
    path = app_file(tmp_path)
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        before = server.request("GET", "/v1/app")[2]
        assert re.fullmatch(r"[0-9a-f]{64}", before["version"])
        old = server.create_session()
        assert old.state["appVersion"] == before["version"]
        old.op("push", {"screen": "settings"})

        # Reformatted only: the same version.
        path.write_text(json.dumps(json.loads(path.read_text()), separators=(",", ":")))
        reload(server, "serving")
        assert server.request("GET", "/v1/app")[2]["version"] == before["version"]
        assert old.get()["version"] == 2

        # A new screen: new sessions see it at once.
        app_file(tmp_path, change=lambda app: app["screens"].update({"inbox": {"presentation": "push", "title": "Inbox"}}))
        reload(server, "serving", "version")
        after = server.request("GET", "/v1/app")[2]
        assert after["version"] != before["version"] and after["screens"]["inbox"]["title"] == "Inbox"
        new = server.create_session()
        assert new.state["appVersion"] == after["version"]
        assert new.op("push", {"screen": "inbox"})["version"] == 2
        # /metrics counts the sessions in memory by the app version they run
        assert sessions_by_version(server) == {before["version"]: 1, after["version"]: 1}

        # The old session moves on its next use, before that request's own work, as a change of
        # its own; an If-Match naming the version before is then stale.
        old.op("pop", headers={"If-Match": '"2"'}, expect=412)
        state = old.get()
        assert state["appVersion"] == after["version"] and state["version"] == 3
        moved = old.events(state["lastEvent"] - 1)["events"]
        assert [(e["type"], e["from"], e["to"], e["version"], e.get("final")) for e in moved] == [
            ("appChanged", before["version"], after["version"], 3, True)]
        assert old.op("push", {"screen": "inbox"})["version"] == 4
        assert sessions_by_version(server) == {after["version"]: 2}

        # An invalid file keeps the app in use, and the log says why.
        path.write_text('{"root": {"screen": "home"}, "screens": {"home": {"presentaton": "push"}}}')
        reload(server, "cannot be served", "presentaton")
        assert server.request("GET", "/v1/app")[2]["version"] == after["version"]
        assert server.create_session().op("push", {"screen": "inbox"})["version"] == 2
    finally:
        assert server.stop() == 0


def moved(session, version):
    """The session's state once it runs `version`: the request that uses it first starts the
    move, which a store shows once it is stored."""
    deadline = time.monotonic() + 5
    while session.get()["appVersion"] != version:
        assert time.monotonic() < deadline, session.state
        time.sleep(0.02)
    return session.state


def without_followers(app):
    del app["screens"]["followers"]
    app["routes"] = [route for route in app["routes"] if "followers" not in route["path"]]


def test_a_session_showing_a_removed_screen_keeps_working_and_moves_once_it_is_gone(tmp_path):
    path = app_file(tmp_path)
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        first = server.request("GET", "/v1/app")[2]["version"]
        session = server.create_session()
        session.op("push", {"screen": "profile", "params": {"userId": "1"}})
        session.op("push", {"screen": "followers", "params": {"userId": "1"}})
        app_file(tmp_path, change=without_followers)
        reload(server, "serving", "version")
        second = server.request("GET", "/v1/app")[2]["version"]

        state = session.get()
        assert state["appVersion"] == first and state["version"] == 3
        assert state["unknownScreens"] == ["followers"]
        # What needs the removed screen or route says the app changed, and changes nothing.
        refused = session.op("push", {"screen": "followers", "params": {"userId": "2"}}, expect=409)
        assert refused["error"]["code"] == "app_changed" and "(followers)" in refused["error"]["message"], refused
        link = session.op("deep-link", {"url": "basic://users/2/followers"}, expect=409)
        assert link["error"]["code"] == "app_changed", link
        # A screen that never existed says the same: the session cannot tell the two apart.
        assert session.op("push", {"screen": "inboxx"}, expect=409)["error"]["code"] == "app_changed"
        assert session.get()["version"] == 3
        # What it has keeps working.
        assert session.op("flags", {"set": ["x"]})["version"] == 4
        assert session.op("pop")["version"] == 5

        state = session.get()
        assert state["appVersion"] == second and state["version"] == 6 and "unknownScreens" not in state
        assert [e["type"] for e in session.events(state["lastEvent"] - 1)["events"]] == ["appChanged"]
        assert session.op("push", {"screen": "followers", "params": {"userId": "2"}}, expect=422)["error"]["code"] == "unprocessable"
    finally:
        assert server.stop() == 0


def test_after_a_restart_with_a_changed_app_sessions_follow_the_same_rules(tmp_path):
    path = app_file(tmp_path)
    store = f"sqlite:{tmp_path / 'sessions.sqlite'}"
    server = RunningServer("--app", str(path), "--store", store, "--rate-limit", "0")
    try:
        plain = server.create_session()
        plain.op("push", {"screen": "settings"})
        held = server.create_session()
        held.op("push", {"screen": "followers", "params": {"userId": "1"}})
    finally:
        assert server.stop() == 0
    app_file(tmp_path, change=without_followers)
    server = RunningServer("--app", str(path), "--store", store, "--rate-limit", "0")
    try:
        version = server.request("GET", "/v1/app")[2]["version"]
        plain.server = held.server = server
        state = moved(plain, version)
        assert state["version"] == 3
        assert [event["type"] for event in plain.events(state["lastEvent"] - 1)["events"]] == ["appChanged"]
        state = held.get()
        assert state["appVersion"] != version and state["unknownScreens"] == ["followers"]
        # another app (another name) is another thing: 410, never 401
        app_file(tmp_path, change=lambda app: app.update({"name": "other"}))
        reload(server, "serving", "version")
        status, _, answer = plain.call("GET")
        assert status == 410 and answer["error"]["code"] == "app_changed", answer
    finally:
        assert server.stop() == 0


def test_instances_reloading_one_by_one_move_sessions_only_forward(tmp_path):
    cluster = PostgresCluster.create()
    servers = []
    try:
        paths = [app_file(tmp_path, f"app-{index}.json") for index in range(2)]
        servers = [RunningServer("--app", str(path), "--store", cluster.url(), "--rate-limit", "0") for path in paths]
        a, b = servers
        session = a.create_session()
        on_b = session.on(b)
        assert on_b.get()["version"] == 1

        # A reloads first: the session moves when A serves it; B, still on the older app,
        # refuses it rather than serve or move it back, and still serves what is on its version.
        app_file(tmp_path, "app-0.json", change=lambda app: app["screens"].update({"inbox": {"presentation": "push"}}))
        reload(a, "serving", "version")
        newer = a.request("GET", "/v1/app")[2]["version"]
        moved(session, newer)
        status, _, answer = on_b.call("GET")
        assert status == 409 and answer["error"]["code"] == "app_changed" and "newer version" in answer["error"]["message"], answer
        assert b.create_session().op("push", {"screen": "settings"})["version"] == 2

        # B reloads: it serves the session again, on the newer version.
        app_file(tmp_path, "app-1.json", change=lambda app: app["screens"].update({"inbox": {"presentation": "push"}}))
        reload(b, "serving", "version")
        assert on_b.op("push", {"screen": "inbox"})["version"] == 3
        assert session.get()["version"] == 3
    finally:
        for server in servers:
            server.stop()
        cluster.cleanup()


def test_check_app_validates_a_file_and_exits():
    good = subprocess.run([str(BINARY), "--check-app", str(APPS / "basic.json")], capture_output=True, text=True, timeout=30)
    assert good.returncode == 0 and re.search(r"app 'basic', \d+ screens, \d+ routes, version [0-9a-f]{64}", good.stdout), good
    bad = subprocess.run([str(BINARY), "--check-app", str(APPS / "missing.json")], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "cannot read" in bad.stderr, bad


def test_check_app_names_the_json_path_of_a_typo(tmp_path):
    path = app_file(tmp_path, change=lambda app: app["screens"]["home"].update({"presentaton": "push"}))
    result = subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "screens.home.presentaton: unknown field; did you mean 'presentation'?" in result.stderr, result.stderr
