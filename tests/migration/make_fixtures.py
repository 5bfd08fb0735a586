"""Makes the stores that `395c355`'s binary wrote, which test_migration.py reads with this build.

Run once per fixture set, with the old binary built from that commit:
    git worktree add /tmp/old 395c355 && (cd /tmp/old && swift build -c release)
    .venv/bin/python tests/migration/make_fixtures.py /tmp/old/.build/release/minerva-server

It drives one scripted history through the old binary on SQLite and on PostgreSQL (a private
cluster), so that every kind of stored record exists: events of every type (a reload of the app
description makes `appChanged`), checkpoints, list versions, remembered answers and a creation
answer; then it records what the old binary answered for every session (state, events, every
version, lists, link) and writes, beside this script:
    395c355.sqlite           the SQLite store
    395c355-postgres.sql     pg_dump of the PostgreSQL store
    395c355-answers.json     what the old binary answered, by store
    app.json, app-reloaded.json   the app description, before and after the reload
"""
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIVE = HERE.parent / "live"
sys.path.insert(0, str(LIVE))

from conftest import RunningServer  # noqa: E402
import conftest  # noqa: E402
from postgres import PostgresCluster  # noqa: E402

# The scripted history: (session, method, path, body, headers).
SCRIPT = [
    ("a", "POST", "/navigate", {"screen": "profile", "params": {"userId": "42"}}, {}),
    ("a", "POST", "/push", {"screen": "followers", "params": {"userId": "42"}}, {"Idempotency-Key": "push-followers"}),
    ("a", "PUT", "/nodes/n4/list", {"sections": [{"id": "all", "items": [
        {"id": "u1", "kind": "user", "content": {"name": "Ada"}}, {"id": "u2", "kind": "user", "content": {"name": "Grace"}}]}]}, {}),
    ("a", "PUT", "/nodes/n4/list", {"sections": [{"id": "all", "items": [
        {"id": "u2", "kind": "user", "content": {"name": "Grace H."}}, {"id": "u3", "kind": "user", "content": None}]}]}, {}),
    ("a", "POST", "/set-root", {"navigator": "tab:home", "stack": [{"node": "n1"}, {"node": "n4"}, {"node": "n3"}]}, {}),
    ("a", "POST", "/navigate", {"screen": "settings"}, {}),
    ("a", "POST", "/finish", {"node": "n5", "result": {"status": "success", "value": {"user": "ada"}}}, {}),
    ("a", "POST", "/select-tab", {"tab": "account"}, {}),
    ("a", "POST", "/present", {"screen": "photo", "params": {"photoId": "p1"}}, {}),
    ("a", "POST", "/dismiss", {}, {}),
    ("a", "POST", "/flags", {"set": ["beta"]}, {}),
    ("b", "POST", "/navigate", {"screen": "onboarding"}, {}),
    ("b", "POST", "/push", {"screen": "onboardingStep", "params": {"step": 1}}, {}),
    ("b", "POST", "/pop", {"toRoot": True}, {}),
]


def drive(server):
    """Runs the script on `server`; returns {name: (id, token)}."""
    status, _, a = server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": "create-a"})
    assert status == 201, a
    status, _, b = server.request("POST", "/v1/sessions", {"deepLink": "/users/7/followers"})
    assert status == 201, b
    sessions = {"a": (a["id"], a["token"]), "b": (b["id"], b["token"])}
    for name, method, path, body, headers in SCRIPT:
        session_id, token = sessions[name]
        status, _, answer = server.request(method, f"/v1/sessions/{session_id}{path}", body, token=token, headers=headers)
        assert status == 200, (name, method, path, status, answer)
    return sessions


def reload(server, app_file, reloaded):
    """Makes the server serve another app description; sessions move to it (appChanged) when
    next used."""
    before = server.request("GET", "/v1/app")[2]["version"]
    shutil.copy(reloaded, app_file)
    server.process.send_signal(signal.SIGHUP)
    for _ in range(100):
        if server.request("GET", "/v1/app")[2]["version"] != before:
            return
        time.sleep(0.05)
    raise RuntimeError("the server did not reload the app description")


def answers(server, sessions):
    """What the server answers for each session: its state, events, versions, lists and link."""
    recorded = {}
    for name, (session_id, token) in sessions.items():
        get = lambda path: server.request("GET", f"/v1/sessions/{session_id}{path}", token=token)[2]  # noqa: E731
        state = get("")
        lists = [node["id"] for node in walk(state["root"]) if "list" in node]
        recorded[name] = {
            "id": session_id, "token": token, "state": state, "events": get("/events?after=0"),
            "versions": {str(version): get(f"/versions/{version}") for version in range(1, state["version"] + 1)},
            "lists": {node: get(f"/nodes/{node}/list?since=0") for node in lists},
            "link": get("/link"),
        }
    return recorded


def walk(node):
    yield node
    for child in node["children"]:
        yield from walk(child)


def main(old_binary):
    conftest.BINARY = Path(old_binary)
    demo = subprocess.run([old_binary, "--print-demo-app"], capture_output=True, text=True, check=True).stdout
    (HERE / "app.json").write_text(demo)
    reloaded = json.loads(demo)
    reloaded["screens"]["help"] = {"presentation": "push", "title": "Help"}
    (HERE / "app-reloaded.json").write_text(json.dumps(reloaded, indent=2) + "\n")
    recorded = {}
    with tempfile.TemporaryDirectory() as folder:
        app_file = Path(folder) / "app.json"
        store = Path(folder) / "store.sqlite"
        shutil.copy(HERE / "app.json", app_file)
        server = RunningServer("--app", str(app_file), "--store", f"sqlite:{store}", "--rate-limit", "0")
        sessions = drive(server)
        reload(server, app_file, HERE / "app-reloaded.json")
        for session_id, token in sessions.values():  # moves each session to it (appChanged)
            server.request("GET", f"/v1/sessions/{session_id}", token=token)
        recorded["sqlite"] = answers(server, sessions)
        assert "appChanged" in [event["type"] for event in recorded["sqlite"]["a"]["events"]["events"]]
        assert server.stop() == 0
        # One file with what the write-ahead log still holds (the copy SQLite's backup API makes)
        (HERE / "395c355.sqlite").unlink(missing_ok=True)
        with sqlite3.connect(store) as source, sqlite3.connect(HERE / "395c355.sqlite") as copy:
            source.backup(copy)
    with PostgresCluster.create() as cluster, tempfile.TemporaryDirectory() as folder:
        app_file = Path(folder) / "app.json"
        shutil.copy(HERE / "app.json", app_file)
        server = RunningServer("--app", str(app_file), "--store", cluster.url(), "--rate-limit", "0")
        sessions = drive(server)
        reload(server, app_file, HERE / "app-reloaded.json")
        for session_id, token in sessions.values():
            server.request("GET", f"/v1/sessions/{session_id}", token=token)
        recorded["postgres"] = answers(server, sessions)
        assert server.stop() == 0
        dump = subprocess.run([str(cluster.bin / "pg_dump"), "--no-owner", "--no-privileges", "-h", "127.0.0.1",
                               "-p", str(cluster.port), "-U", "postgres", cluster.database],
                              capture_output=True, text=True, check=True).stdout
        (HERE / "395c355-postgres.sql").write_text(dump)
    (HERE / "395c355-answers.json").write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
