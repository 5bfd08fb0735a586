"""Makes the stores that an older release's binary wrote, which test_migration.py reads with this
build: one fixture set per old commit, named by it.

Run once per fixture set, with the old binary built from that commit:
    git worktree add --detach /tmp/old 646b730 && (cd /tmp/old && swift build -c release)
    .venv/bin/python tests/migration/make_fixtures.py 646b730 /tmp/old/.build/release/minerva-server

It drives the set's scripted history (SETS) through the old binary on SQLite and on PostgreSQL (a
private cluster), so that every kind of stored record exists: events of every type (a reload of
the app description makes `appChanged`), checkpoints, list versions, remembered answers and a
creation answer; then it records what the old binary answered for every session (state, events,
every version, lists, link) and writes, beside this script:
    NAME.sqlite           the SQLite store
    NAME-postgres.sql     pg_dump of the PostgreSQL store
    NAME-answers.json     what the old binary answered, by store
and the app description, before and after the reload (the second is the one a test serves):
    395c355: app.json, app-reloaded.json (the old binary's built-in demo, a single-root app)
    646b730: 646b730-app.json, 646b730-app-reloaded.json (the old binary's demo of root flows,
             with a flow of a three-column split view added)

The sets, and how each was made:
    395c355  by this script's first version (its one argument the binary, its history the one
             here), with the binary of a worktree at 395c355 (records without a format member,
             format 1); not made again since
    646b730  `make_fixtures.py 646b730 /work/wt-646/.build/release/minerva-server`, the binary of a
             detached worktree at 646b730 built with plain `swift build -c release` (the last
             commit before session heads were written as snapshots plus deltas): besides what
             395c355's history does, root flows (flow switches by flags, a deep link waiting for
             its flow, params changed in place), presentable state (UI state, a sheet's detents
             and the user's detent change, results held on a node, taken and left again, an
             interactive dismiss), a split view of three columns and size classes, and a restore;
             so records of formats 2, 3 and 4 exist (format 3: a head of a session of flows
             without presentable state, and the events a flow switch adds before its last one).
"""
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIVE = HERE.parent / "live"
sys.path.insert(0, str(LIVE))

from conftest import RunningServer  # noqa: E402
import conftest  # noqa: E402
from postgres import PostgresCluster  # noqa: E402

# The screen every reloaded app adds (test_migration.py pushes it on session "a").
HELP = {"presentation": "push", "title": "Help"}


@dataclass
class FixtureSet:
    """A fixture set: its app files, the sessions it creates and its scripted history."""
    app_file: str        # the app description the history runs on, beside this script
    reloaded_file: str   # the same with HELP added, which the server reloads
    creations: list      # (session, body, headers) of POST /v1/sessions
    script: list         # (session, method, path, body, headers)
    more_app: callable = None   # what the set adds to the old binary's demo app (None: nothing)


def desk_flow(app):
    """The demo of root flows with a flow of a three-column split view, chosen by the flag `desk`."""
    app["flows"]["desk"] = {"root": {"split": {"columns": 3, "primary": {"screen": "folders"}}}}
    app["launch"].insert(-1, {"if": "desk", "flow": "desk"})
    app["screens"].update({
        "folders": {"title": "Folders"},
        "folder": {"params": ["id"], "title": "Folder"},
        "note": {"params": ["id"], "title": "Note"},
    })
    return app


SHEET = {"detents": ["medium", "large", {"id": "peek", "height": 120}], "selected": "medium", "grabber": True}
SETS = {
    # The built-in demo of 395c355: one root with the tabs home and account.
    "395c355": FixtureSet(
        app_file="app.json", reloaded_file="app-reloaded.json",
        creations=[("a", {}, {"Idempotency-Key": "create-a"}), ("b", {"deepLink": "/users/7/followers"}, {})],
        script=[
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
        ]),
    # The built-in demo of 646b730, an app of root flows (onboarding, auth, main tabs), with `desk`.
    "646b730": FixtureSet(
        app_file="646b730-app.json", reloaded_file="646b730-app-reloaded.json", more_app=desk_flow,
        creations=[
            ("a", {}, {"Idempotency-Key": "create-a"}),
            ("b", {"deepLink": "/users/7/followers", "flags": ["onboarded", "signedIn"]}, {}),
            ("c", {"flags": ["onboarded", "signedIn", "desk"], "sizeClass": "compact"}, {}),
        ],
        script=[
            # onboarding: a step whose params change in place, a link that waits for `main`
            ("a", "POST", "/push", {"screen": "onboardingStep", "params": {"step": 1}}, {"Idempotency-Key": "push-step"}),
            ("a", "PATCH", "/nodes/n2/params", {"set": {"step": 2}}, {}),
            ("a", "POST", "/deep-link", {"url": "/users/42"}, {}),
            # auth: a sheet with detents, the user's detent, swiped away (a result), UI state
            ("a", "POST", "/flags", {"set": ["onboarded"]}, {}),
            ("a", "POST", "/present", {"screen": "signUp", "sheet": SHEET}, {}),
            ("a", "POST", "/nodes/n4/presentation", {"selected": "large"}, {}),
            ("a", "POST", "/dismiss", {"interactive": True}, {}),
            ("a", "PUT", "/nodes/n3/ui", {"draft": "ada@example.com"}, {}),
            # main: the waiting link shown, a list, results taken and left, UI state, a tab
            ("a", "POST", "/flags", {"set": ["signedIn"]}, {}),
            ("a", "POST", "/push", {"screen": "followers", "params": {"userId": "42"}}, {}),
            ("a", "PUT", "/nodes/n8/list", {"sections": [{"id": "all", "items": [
                {"id": "u1", "kind": "user", "content": {"name": "Ada"}}, {"id": "u2", "kind": "user", "content": {"name": "Grace"}}]}]}, {}),
            ("a", "PUT", "/nodes/n8/list", {"sections": [{"id": "all", "items": [
                {"id": "u2", "kind": "user", "content": {"name": "Grace H."}}, {"id": "u3", "kind": "user", "content": None}]}]}, {}),
            ("a", "POST", "/present", {"screen": "photo", "params": {"photoId": "p1"}}, {}),
            ("a", "POST", "/finish", {"node": "n9", "result": {"status": "success", "value": {"liked": True}}}, {}),
            ("a", "DELETE", "/nodes/n8/results/photo", None, {}),
            ("a", "POST", "/present", {"screen": "photo", "params": {"photoId": "p2"}}, {}),
            ("a", "POST", "/dismiss", {}, {}),
            ("a", "PUT", "/nodes/n8/ui", {"scrollAnchor": "u2"}, {}),
            ("a", "POST", "/select-tab", {"tab": "account"}, {}),
            # a guarded screen behind its sheet, then a restore to the link's version
            ("b", "POST", "/navigate", {"screen": "settings"}, {}),
            ("b", "POST", "/flags", {"set": ["verified"]}, {}),
            ("b", "POST", "/finish", {"node": "n5", "result": {"status": "success"}}, {}),
            ("b", "POST", "/pop", {"toRoot": True}, {}),
            ("b", "POST", "/restore", {"version": 1}, {}),
            # three columns, compact and regular
            ("c", "POST", "/navigate", {"screen": "folder", "params": {"id": "f1"}, "from": "n1"}, {}),
            ("c", "POST", "/navigate", {"screen": "note", "params": {"id": "x1"}, "from": "n2"}, {}),
            ("c", "POST", "/size-class", {"horizontal": "regular"}, {}),
            ("c", "POST", "/navigate", {"screen": "folder", "params": {"id": "f2"}, "from": "n1"}, {}),
        ]),
}


def drive(server, fixture):
    """Runs the set's script on `server`; returns {name: (id, token)}."""
    sessions = {}
    for name, body, headers in fixture.creations:
        status, _, created = server.request("POST", "/v1/sessions", body, headers=headers)
        assert status == 201, (name, created)
        sessions[name] = (created["id"], created["token"])
    for name, method, path, body, headers in fixture.script:
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


def run(server_arguments, fixture, folder):
    """Drives the history on a server with `server_arguments` (its store) in `folder`, reloads
    the app, moves every session to it and returns what the server answered."""
    app_file = Path(folder) / "app.json"
    shutil.copy(HERE / fixture.app_file, app_file)
    server = RunningServer("--app", str(app_file), *server_arguments, "--rate-limit", "0")
    try:
        sessions = drive(server, fixture)
        reload(server, app_file, HERE / fixture.reloaded_file)
        for session_id, token in sessions.values():  # moves each session to it (appChanged)
            server.request("GET", f"/v1/sessions/{session_id}", token=token)
        recorded = answers(server, sessions)
        assert "appChanged" in [event["type"] for event in recorded["a"]["events"]["events"]]
    finally:
        assert server.stop() == 0, "".join(server.log)
    return recorded


def main(name, old_binary):
    fixture = SETS[name]
    conftest.BINARY = Path(old_binary)
    demo = subprocess.run([old_binary, "--print-demo-app"], capture_output=True, text=True, check=True).stdout
    app = json.loads(demo)
    if fixture.more_app is None:
        (HERE / fixture.app_file).write_text(demo)
    else:
        app = fixture.more_app(app)
        (HERE / fixture.app_file).write_text(json.dumps(app, indent=2) + "\n")
    app["screens"]["help"] = HELP
    (HERE / fixture.reloaded_file).write_text(json.dumps(app, indent=2) + "\n")
    recorded = {}
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "store.sqlite"
        recorded["sqlite"] = run(("--store", f"sqlite:{store}"), fixture, folder)
        # One file with what the write-ahead log still holds (the copy SQLite's backup API makes)
        (HERE / f"{name}.sqlite").unlink(missing_ok=True)
        with sqlite3.connect(store) as source, sqlite3.connect(HERE / f"{name}.sqlite") as copy:
            source.backup(copy)
    with PostgresCluster.create() as cluster, tempfile.TemporaryDirectory() as folder:
        recorded["postgres"] = run(("--store", cluster.url()), fixture, folder)
        dump = subprocess.run([str(cluster.bin / "pg_dump"), "--no-owner", "--no-privileges", "-h", "127.0.0.1",
                               "-p", str(cluster.port), "-U", "postgres", cluster.database],
                              capture_output=True, text=True, check=True).stdout
        (HERE / f"{name}-postgres.sql").write_text(dump)
    (HERE / f"{name}-answers.json").write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in SETS:
        sys.exit(f"usage: make_fixtures.py {{{','.join(SETS)}}} OLD_BINARY")
    main(sys.argv[1], sys.argv[2])
