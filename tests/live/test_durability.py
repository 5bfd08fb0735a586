"""Durability with the SQLite store: kill -9 mid-run, restart, every acknowledged change is there."""
import json
import signal
import sqlite3
import threading
import time

from conftest import APPS, RunningServer


def start(db, *args):
    return RunningServer("--app", str(APPS / "basic.json"), "--store", f"sqlite:{db}", "--rate-limit", "0", *args)


def test_restart_keeps_sessions_tokens_events_lists_and_keys(tmp_path):
    db = tmp_path / "minerva.sqlite"
    server = start(db)
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    session.op("push", {"screen": "settings"})
    session.op("pop", {"toRoot": True})
    session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "a", "items": [{"id": "1", "kind": "k", "content": {"x": 1}}]}]})
    session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "a", "items": []}]})
    session.op("flags", {"set": ["beta"]}, headers={"Idempotency-Key": "flag-1"})
    before = session.get()
    log = session.events()
    assert log["last"] == before["lastEvent"] == 7
    assert [event["type"] for event in log["events"]] == [
        "added", "added", "removed", "removed", "listChanged", "listChanged", "flagsChanged"]
    assert server.stop() == 0

    server = start(db)
    try:
        session.server = server
        assert session.get() == before
        assert session.events() == log                      # the whole change log, times included
        status, _, page = session.call("GET", "/nodes/n1/list?since=1")
        assert status == 200 and page["version"] == 2 and page["diff"]["items"]["deleted"] == [{"section": 0, "item": 0}]
        replay = session.op("flags", {"set": ["beta"]}, headers={"Idempotency-Key": "flag-1"})
        assert replay["version"] == before["version"] and session.events() == log
        # the log goes on where it stopped: the next seq and the next version
        block = session.change("push", {"screen": "settings"})
        assert [(event["seq"], event["version"]) for event in block] == [(8, before["version"] + 1)]
        status, _, _ = server.request("GET", f"/v1/sessions/{session.id}", token="wrong")
        assert status == 401
    finally:
        server.stop()
    tokens = sqlite3.connect(db).execute("SELECT count(*) FROM session WHERE instr(tokenHash, ?) > 0",
                                         (session.token.encode(),)).fetchone()[0]
    assert tokens == 0, "the token is stored in clear"


def test_kill_9_loses_no_acknowledged_mutation(tmp_path):
    db = tmp_path / "crash.sqlite"
    for round in range(3):
        server = start(db)
        sessions = [server.create_session() for _ in range(12)]
        acknowledged = {session.id: 1 for session in sessions}
        stop = threading.Event()

        def drive(session):
            while not stop.is_set():
                try:
                    status, _, state = session.call("POST", "/push", {"screen": "followers", "params": {"userId": "x"}})
                except Exception:
                    return
                if status == 200:
                    acknowledged[session.id] = max(acknowledged[session.id], state["version"])

        threads = [threading.Thread(target=drive, args=(session,)) for session in sessions]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        stop.set()
        for thread in threads:
            thread.join()
        assert sum(acknowledged.values()) > len(sessions) * 3, "too few mutations to prove anything"

        check = sqlite3.connect(db)
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.close()

        server = start(db)
        try:
            for session in sessions:
                session.server = server
                state = session.get()
                # a request may have been stored but not answered when the process died
                assert state["version"] in (acknowledged[session.id], acknowledged[session.id] + 1)
                stack = next(item for item in state["navigators"] if item["id"] == "v0")["stack"]
                assert len(stack) == state["version"]
        finally:
            assert server.stop() == 0


def test_a_changed_app_description_is_reported_not_broken(tmp_path):
    db = tmp_path / "app.sqlite"
    server = start(db)
    session = server.create_session()
    session.op("push", {"screen": "followers", "params": {"userId": "1"}})
    server.stop()

    app = json.loads((APPS / "basic.json").read_text())
    del app["screens"]["followers"]
    app["routes"] = [route for route in app["routes"] if "followers" not in json.dumps(route)]
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(app))
    server = RunningServer("--app", str(changed), "--store", f"sqlite:{db}")
    try:
        session.server = server
        state = session.get()
        assert state["unknownScreens"] == ["followers"]
        assert any("no longer declares" in line and "followers" in line for line in server.log)
        state = session.op("pop")
        assert "unknownScreens" not in state
    finally:
        server.stop()

    tabs = tmp_path / "tabs.json"
    tabs.write_text(json.dumps({"root": {"tabs": [{"id": "a", "screen": "home"}]}, "screens": {"home": {}}}))
    server = RunningServer("--app", str(tabs), "--store", f"sqlite:{db}")
    try:
        session.server = server
        assert session.call("GET")[0] == 401
        assert any("kept in the store but not served" in line for line in server.log)
    finally:
        server.stop()
