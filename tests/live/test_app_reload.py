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

import pytest

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
        assert server.stop() == 0, "".join(server.log)


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


def without_followers_with_stats(app):
    without_followers(app)
    app["screens"]["stats"] = {"presentation": "push", "title": "Stats"}
    app["routes"].append({"path": "/stats", "steps": [{"screen": "stats"}]})


def test_a_session_that_cannot_move_runs_its_own_app_until_it_can(tmp_path):
    path = app_file(tmp_path)
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        first = server.request("GET", "/v1/app")[2]["version"]
        session = server.create_session()
        session.op("push", {"screen": "profile", "params": {"userId": "1"}})
        session.op("push", {"screen": "followers", "params": {"userId": "1"}})
        app_file(tmp_path, change=without_followers_with_stats)
        reload(server, "serving", "version")
        second = server.request("GET", "/v1/app")[2]["version"]

        # It shows a screen the new version lacks: it stays on its version, and runs that
        # version's app: its screens and routes, not the new ones.
        state = session.get()
        assert state["appVersion"] == first and state["version"] == 3 and "unknownScreens" not in state
        assert session.op("push", {"screen": "followers", "params": {"userId": "2"}})["version"] == 4
        assert session.op("deep-link", {"url": "basic://users/3/followers"})["version"] == 5
        assert session.op("push", {"screen": "stats"}, expect=422)["error"]["code"] == "unprocessable"
        assert session.op("deep-link", {"url": "basic://stats"}, expect=404)["error"]["code"] == "not_found"
        # Every version it went through shows its own app's screens, under its own app version.
        for version in range(1, 6):
            past = session.call("GET", f"/versions/{version}")[2]
            assert past["appVersion"] == first and '"stats"' not in json.dumps(past), past
        assert session.get()["version"] == 5

        # Once nothing it shows stands in the way, its next use moves it, before that use's work.
        session.op("pop", {"toRoot": True})
        state = session.get()
        assert state["appVersion"] == second and state["version"] == 7, state
        assert [e["type"] for e in session.events(state["lastEvent"] - 1)["events"]] == ["appChanged"]
        assert session.op("deep-link", {"url": "basic://stats"})["version"] == 8
        assert session.op("push", {"screen": "followers", "params": {"userId": "2"}}, expect=422)["error"]["code"] == "unprocessable"
    finally:
        assert server.stop() == 0, "".join(server.log)


@pytest.mark.parametrize("store", ["memory", "sqlite", "postgres"])
def test_the_first_read_after_a_reload_is_never_stale(tmp_path, store):
    """A session moves before any request's work, reads included: the first GET after SIGHUP
    carries the new version, ETag and appVersion, and a tap with that ETag applies (200 tries
    on every store)."""
    path = app_file(tmp_path)
    cluster = PostgresCluster.create() if store == "postgres" else None
    url = cluster.url() if cluster else "memory" if store == "memory" else f"sqlite:{tmp_path / 'sessions.sqlite'}"
    server = RunningServer("--app", str(path), "--store", url, "--rate-limit", "0")
    try:
        sessions = [server.create_session() for _ in range(50)]
        for reload_number in range(4):
            inbox = reload_number % 2 == 0
            app_file(tmp_path, change=(lambda app: app["screens"].update({"inbox": {"presentation": "push"}})) if inbox else None)
            reload(server, "serving", "version")
            version = server.request("GET", "/v1/app")[2]["version"]
            for session in sessions:
                before = session.state["version"]
                status, headers, state = session.call("GET")
                assert status == 200 and state["appVersion"] == version and state["version"] == before + 1, state
                assert headers["ETag"] == f'"{state["version"]}"'
                session.state = state
                tapped = session.op("flags", {"set": [f"r{reload_number}"]}, headers={"If-Match": headers["ETag"]})
                assert tapped["version"] == before + 2
                session.state = tapped
    finally:
        assert server.stop() == 0, "".join(server.log)
        if cluster:
            cluster.cleanup()


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
        assert server.stop() == 0, "".join(server.log)
    app_file(tmp_path, change=without_followers)
    server = RunningServer("--app", str(path), "--store", store, "--rate-limit", "0")
    try:
        version = server.request("GET", "/v1/app")[2]["version"]
        plain.server = held.server = server
        state = moved(plain, version)
        assert state["version"] == 3
        assert [event["type"] for event in plain.events(state["lastEvent"] - 1)["events"]] == ["appChanged"]
        state = held.get()
        assert state["appVersion"] != version and "unknownScreens" not in state
        # It runs its own version's app, which this process never ran: the store kept it.
        assert held.op("push", {"screen": "followers", "params": {"userId": "2"}})["version"] == 3
        # another app (another name) is another thing: 410, never 401
        app_file(tmp_path, change=lambda app: app.update({"name": "other"}))
        reload(server, "serving", "version")
        status, _, answer = plain.call("GET")
        assert status == 410 and answer["error"]["code"] == "app_changed", answer
    finally:
        assert server.stop() == 0, "".join(server.log)


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


def test_an_instance_that_never_ran_a_sessions_version_serves_it_with_that_versions_app(tmp_path):
    cluster = PostgresCluster.create()
    servers = []
    try:
        path = app_file(tmp_path, "app-0.json")
        servers.append(RunningServer("--app", str(path), "--store", cluster.url(), "--rate-limit", "0"))
        session = servers[0].create_session()
        session.op("push", {"screen": "followers", "params": {"userId": "1"}})
        app_file(tmp_path, "app-0.json", change=without_followers_with_stats)
        reload(servers[0], "serving", "version")
        first = session.state["appVersion"]

        # A second instance starts on the new file only: it reads the session's app from the store.
        later = app_file(tmp_path, "app-1.json", change=without_followers_with_stats)
        servers.append(RunningServer("--app", str(later), "--store", cluster.url(), "--rate-limit", "0"))
        on_b = session.on(servers[1])
        state = on_b.get()
        assert state["appVersion"] == first and "unknownScreens" not in state
        assert on_b.op("push", {"screen": "followers", "params": {"userId": "2"}})["version"] == 3
        assert on_b.op("push", {"screen": "stats"}, expect=422)["error"]["code"] == "unprocessable"
        on_b.op("pop", {"toRoot": True})
        moved_state = session.get()
        assert moved_state["appVersion"] != first and moved_state["version"] == 5, moved_state
        assert on_b.op("push", {"screen": "stats"})["version"] == 6
    finally:
        for server in servers:
            server.stop()
        cluster.cleanup()


def test_check_app_validates_a_file_and_exits(tmp_path):
    path = app_file(tmp_path, change=lambda app: app.update(routes=[route for route in app["routes"] if route["path"] != "/broken"]))
    good = subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=30)
    assert good.returncode == 0 and re.search(r"app 'basic', \d+ screens, \d+ routes, version [0-9a-f]{64}", good.stdout), good
    # A route whose steps cannot be shown in its flow (tried with every flag set and with none):
    # the server serves the file and warns, --check-app refuses it with the route, step and fix.
    broken = subprocess.run([str(BINARY), "--check-app", str(APPS / "basic.json")], capture_output=True, text=True, timeout=30)
    assert broken.returncode == 1, broken
    assert "routes[4]: the deep link's route '/broken' cannot show its step 2" in broken.stderr, broken.stderr
    assert '"embedInNavigation": true' in broken.stderr
    bad = subprocess.run([str(BINARY), "--check-app", str(APPS / "missing.json")], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "cannot read" in bad.stderr, bad


def test_check_app_names_the_json_path_of_a_typo(tmp_path):
    path = app_file(tmp_path, change=lambda app: app["screens"]["home"].update({"presentaton": "push"}))
    result = subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "screens.home.presentaton: unknown field; did you mean 'presentation'?" in result.stderr, result.stderr


def test_every_app_version_a_session_runs_is_readable_immutable_and_cached(tmp_path):
    """`GET /v1/app/versions/{v}` answers the description of the version a session runs —
    during a reload (the session held back on the old one), and after a restart from the store —
    with a strong ETag and a long-lived Cache-Control; `If-None-Match` is `304`; an unknown
    version `404`."""
    path = app_file(tmp_path)
    store = f"sqlite:{tmp_path / 'store.sqlite'}"
    server = RunningServer("--app", str(path), "--rate-limit", "0", "--store", store)
    try:
        first = server.request("GET", "/v1/app")[2]
        status, headers, document = server.request("GET", f"/v1/app/versions/{first['version']}")
        assert status == 200 and document == first
        assert headers["ETag"] == f'"{first["version"]}"'
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        held = server.create_session()
        held.op("push", {"screen": "profile", "params": {"userId": "1"}})
        held.op("push", {"screen": "followers", "params": {"userId": "1"}})
        app_file(tmp_path, change=without_followers)
        reload(server, "serving", "version")
        second = server.request("GET", "/v1/app")[2]
        assert second["version"] != first["version"]
        # The held session shows a screen the new app lacks: it stays on the first version, which
        # is still readable, and so is the new one.
        assert held.get()["appVersion"] == first["version"]
        assert server.request("GET", f"/v1/app/versions/{held.state['appVersion']}")[2] == first
        assert server.request("GET", f"/v1/app/versions/{second['version']}")[2] == second
        status, headers, document = server.request(
            "GET", f"/v1/app/versions/{first['version']}", headers={"If-None-Match": f'W/"x", "{first["version"]}"'})
        assert status == 304 and document is None and headers["ETag"] == f'"{first["version"]}"'
        status, _, document = server.request("GET", f"/v1/app/versions/{first['version']}", headers={"If-None-Match": '"other"'})
        assert status == 200 and document == first
        status, _, document = server.request("GET", "/v1/app/versions/" + "0" * 64)
        assert status == 404 and document["error"]["code"] == "not_found", document
        status, headers, _ = server.request("HEAD", f"/v1/app/versions/{first['version']}")
        assert status == 200 and headers["ETag"] == f'"{first["version"]}"'
    finally:
        assert server.stop() == 0, "".join(server.log)
    # A new process serves only the second file; the first version comes from the store.
    again = RunningServer("--app", str(path), "--rate-limit", "0", "--store", store)
    try:
        status, _, document = again.request("GET", f"/v1/app/versions/{first['version']}")
        assert status == 200 and document == first
    finally:
        assert again.stop() == 0, "".join(again.log)
