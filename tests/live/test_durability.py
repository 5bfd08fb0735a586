"""Durability with the SQLite store: kill -9 mid-run, restart, every acknowledged change is there;
nothing is published before it is stored; a full disk refuses changes and the server recovers."""
import json
import random
import signal
import sqlite3
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import APPS, EventStream, RunningServer, check_block, split_blocks
from test_change_log import Replica


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
    assert server.stop() == 0, "".join(server.log)

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


@pytest.mark.serial
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

        # a follower of two sessions: whatever it was sent must still be there after the crash
        streams = [EventStream(session) for session in sessions[:2]]
        threads = [threading.Thread(target=drive, args=(session,)) for session in sessions]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        for stream in streams:
            stream.wait(lambda frames: False, timeout=0.05)
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        stop.set()
        for thread in threads:
            thread.join()
        for stream in streams:
            try:
                stream.wait(lambda frames: False, timeout=1)
            except ConnectionError:
                pass                                    # the process died: its socket closed
            stream.close()
        assert sum(acknowledged.values()) > len(sessions) * 3, "too few mutations to prove anything"
        assert all(stream.events() for stream in streams), "the followers heard nothing"

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
                # the log went down with the state: one `added` block per push, nothing more or less
                log = session.events(state["lastEvent"] - 50 if state["lastEvent"] > 50 else 0)
                assert log["last"] == state["lastEvent"] == state["version"] - 1
                for event in log["events"]:
                    check_block([event], event["seq"] + 1, event["seq"])
                    assert event["type"] == "added" and event["node"] == stack[event["seq"]]
            for stream, session in zip(streams, sessions):
                seen = [frame["data"] for frame in stream.events()]
                kept = session.events(seen[0]["seq"] - 1)["events"]
                assert kept[:len(seen)] == seen, "a follower was sent an event that the store does not have"
        finally:
            assert server.stop() == 0, "".join(server.log)


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
        # It runs the app of its own version, which the store kept, until it can move.
        state = session.get()
        assert "unknownScreens" not in state and state["version"] == 2
        assert session.op("push", {"screen": "followers", "params": {"userId": "2"}})["version"] == 3
        session.op("pop", {"toRoot": True})
        state = session.get()
        assert state["version"] == 5 and state["appVersion"] == server.request("GET", "/v1/app")[2]["version"], state
    finally:
        server.stop()

    tabs = tmp_path / "tabs.json"
    tabs.write_text(json.dumps({"root": {"tabs": [{"id": "a", "screen": "home"}]}, "screens": {"home": {}}}))
    server = RunningServer("--app", str(tabs), "--store", f"sqlite:{db}")
    try:
        session.server = server
        status, _, body = session.call("GET")
        # another app altogether: 410 app_changed, never a 401 that looks like a bad token
        assert status == 410 and body["error"]["code"] == "app_changed", body
        assert "no longer serves" in body["error"]["message"] and "create a new session" in body["error"]["message"]
        assert server.logged("was made with app 'basic'", "serves 'app'"), "".join(server.log)
        # a wrong token still learns nothing
        assert session.server.request("GET", f"/v1/sessions/{session.id}", token="wrong")[0] == 401
    finally:
        server.stop()


@pytest.mark.serial
def test_durable_changes_wake_followers_and_survive_a_crash(tmp_path):
    db = tmp_path / "follow.sqlite"
    server = start(db)
    session = server.create_session()
    other = session.other_client()
    stream = EventStream(session)
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            poll = pool.submit(session.call, "GET", "/events?after=0&wait=8")
            wait = pool.submit(session.call, "GET", "?wait=8", None, {"If-None-Match": '"1"'})
            time.sleep(0.5)
            assert not poll.done() and not wait.done()
            started = time.monotonic()
            answer = other.op("deep-link", {"url": "/users/3/followers"})
            status, _, body = poll.result(timeout=10)
            assert status == 200 and time.monotonic() - started < 2
            assert wait.result(timeout=10)[2] == answer
        check_block(body["events"], 2, 1)
        assert [(event["type"], event["node"]) for event in body["events"]] == [("added", "n2"), ("added", "n3")]
        assert [frame["data"] for frame in stream.read_events(2)] == body["events"]
    finally:
        stream.close()
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
    server = start(db)
    try:
        session.server = server
        assert session.get() == answer and session.events() == {"events": body["events"], "last": 2}
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_after_a_restart_streams_and_polls_read_the_log_back_from_the_store(tmp_path):
    db = tmp_path / "log.sqlite"
    server = start(db)
    session = server.create_session()
    for _ in range(40):                                   # 160 events: more than a session keeps in memory
        session.op("push", {"screen": "settings"})
        session.op("push", {"screen": "settings"})
        session.op("pop", {"toRoot": True})
    log = session.events()
    assert log["last"] == 160 and len(log["events"]) == 160 and "truncated" not in log
    assert server.stop() == 0, "".join(server.log)
    server = start(db)
    stream = None
    try:
        session.server = server
        stream = EventStream(session, {"Last-Event-ID": "10"})    # before anything else reads the session
        assert [frame["data"] for frame in stream.read_events(150)] == log["events"][10:]
        assert session.events(5)["events"] == log["events"][5:]
        block = session.other_client().change("push", {"screen": "settings"})
        assert [frame["data"] for frame in stream.read_events(151)[150:]] == block
        assert [(event["seq"], event["version"]) for event in block] == [(161, session.get()["version"])]
    finally:
        if stream:
            stream.close()
        assert server.stop() == 0, "".join(server.log)


def fill(folder):
    """Writes zeros into `folder` until its file system refuses more; returns the filler files."""
    fillers = [folder / "filler-1", folder / "filler-2"]
    for path, block in zip(fillers, ("64k", "4k")):
        result = subprocess.run(["dd", "if=/dev/zero", f"of={path}", f"bs={block}"], capture_output=True, text=True, timeout=30)
        assert result.returncode != 0 and "No space left" in result.stderr, result.stderr
    try:
        (folder / "probe").write_bytes(b"x" * 4096)
    except OSError:
        pass
    else:
        pytest.fail("the disk still takes writes after filling it")
    return fillers


@pytest.fixture
def small_disk(tmp_path):
    """An 8 MiB tmpfs to fill (needs root to mount; skipped where it cannot), unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(disk)], capture_output=True, text=True, timeout=10)
    if mounted.returncode != 0:
        pytest.skip("the full-disk tests mount a small tmpfs, which needs root (mount said: "
                    f"{(mounted.stderr or mounted.stdout).strip()})")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True, timeout=10)


def test_a_full_disk_refuses_changes_with_503_publishes_nothing_and_recovers(small_disk):
    disk = small_disk
    server, stream = None, None
    try:
        server = start(disk / "minerva.sqlite")
        session = server.create_session()
        session.op("push", {"screen": "settings"})
        session.op("flags", {"set": ["beta"]})
        assert session.call("PUT", "/nodes/n2/list", {"sections": [{"id": "a", "items": []}]})[0] == 200
        before = session.get()
        log = session.events()
        stream = EventStream(session, {"Last-Event-ID": str(before["lastEvent"])})
        fillers = fill(disk)
        refused = [
            ("POST", "/push", {"screen": "followers", "params": {"userId": "1"}}, {"Idempotency-Key": "retry-me"}),
            ("POST", "/pop", {}, {}),
            ("POST", "/deep-link", {"url": "/users/2/followers"}, {}),
            ("POST", "/flags", {"set": ["signedIn"]}, {}),
            ("PUT", "/nodes/n2/list", {"sections": [{"id": "a", "items": [{"id": "1", "kind": "row", "content": {}}]}]}, {}),
            ("DELETE", "", None, {}),
        ]
        with ThreadPoolExecutor(max_workers=2) as pool:
            poll = pool.submit(session.call, "GET", f"/events?after={before['lastEvent']}&wait=8")
            wait = pool.submit(session.call, "GET", "?wait=8", None, {"If-None-Match": f'"{before["version"]}"'})
            time.sleep(0.3)
            for method, suffix, body, headers in refused:
                status, answer_headers, answer = session.call(method, suffix, body, headers)
                assert status == 503, (method, suffix, status, answer)
                assert int(answer_headers["Retry-After"]) >= 1
                assert answer["error"]["code"] == "unavailable" and answer["error"]["message"], answer
                assert session.get() == before, (method, suffix)          # nothing changed
            status, headers, answer = server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": "create-me"})
            assert status == 503 and int(headers["Retry-After"]) >= 1 and answer["error"]["code"] == "unavailable"
            # a no-op has nothing to store: it answers as always
            assert session.op("flags", {"set": ["beta"]}) == before
            # reads still answer; no event was appended, published or given a seq
            assert session.events() == log
            assert not stream.wait(lambda frames: any("id" in frame or "event" in frame for frame in frames), timeout=1), stream.frames
            assert not poll.done() and not wait.done(), "a refused change woke a follower"
            # the health check tells while the store refuses writes...
            status, headers, health = server.request("GET", "/healthz")
            assert status == 503 and int(headers["Retry-After"]) >= 1, health
            assert health["status"] == "unavailable" and "refuses writes" in health["reason"], health

            for filler in fillers:
                filler.unlink()
            # ... and says so again once it takes them, before any change was stored
            status, _, health = server.request("GET", "/healthz")
            assert status == 200 and health == {"status": "ok"}, health
            # the store writes again: the next change takes the next version and seq, no restart
            state = session.op("push", {"screen": "followers", "params": {"userId": "1"}}, headers={"Idempotency-Key": "retry-me"})
            assert state["version"] == before["version"] + 1 and state["lastEvent"] == before["lastEvent"] + 1
            status, _, body = poll.result(timeout=10)
            assert status == 200 and [event["seq"] for event in body["events"]] == [before["lastEvent"] + 1]
            check_block(body["events"], state["version"], before["lastEvent"] + 1)
            assert body["events"][0]["type"] == "added" and body["events"][0]["node"] == "n3"
            assert wait.result(timeout=10)[2] == state
        frames = stream.read_events(1)
        assert [frame["data"] for frame in frames] == body["events"]
        assert [frame["event"] for frame in stream.frames if "event" in frame] == ["added"]
        assert session.events() == {"events": log["events"] + body["events"], "last": state["lastEvent"]}
        # the key of the refused attempt now belongs to the change that was applied, once
        assert session.op("push", {"screen": "followers", "params": {"userId": "1"}}, headers={"Idempotency-Key": "retry-me"}) == state
        assert session.get() == state
        status, _, created = server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": "create-me"})
        assert status == 201 and created["version"] == 1
        assert server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": "create-me"})[2] == created
        stream.close()
        stream = None
        assert server.stop() == 0, "".join(server.log)
        server = start(disk / "minerva.sqlite")
        session.server = server
        assert session.get() == state and session.events()["last"] == state["lastEvent"]
    finally:
        if stream:
            stream.close()
        if server:
            server.stop()


@pytest.mark.serial
def test_a_disk_that_fills_while_clients_write_loses_nothing_and_leaks_nothing(small_disk):
    server = start(small_disk / "minerva.sqlite")
    try:
        sessions = [server.create_session() for _ in range(4)]
        created = {session.id: session.get() for session in sessions}
        streams = [EventStream(session) for session in sessions]
        stop, answers = threading.Event(), {session.id: [] for session in sessions}
        operations = [("push", {"screen": "followers", "params": {"userId": "y" * 500}}), ("pop", {}),
                      ("present", {"screen": "onboarding"}), ("dismiss", {}), ("flags", {"set": ["a"]}), ("flags", {"clear": ["a"]})]

        def drive(session, seed):
            client, rng = session.other_client(), random.Random(seed)
            while not stop.is_set() and len(answers[session.id]) < 400:      # at most 800 events a session: all kept
                name, body = rng.choice(operations)
                status, _, body = client.call("POST", "/" + name, body)
                answers[session.id].append((status, body.get("version") if status == 200 else body))
                time.sleep(0.005)

        threads = [threading.Thread(target=drive, args=(session, index * 10 + thread))
                   for index, session in enumerate(sessions) for thread in range(2)]
        for thread in threads:
            thread.start()
        try:
            time.sleep(0.3)
            fillers = fill(small_disk)
            time.sleep(0.6)
            for filler in fillers:
                filler.unlink()
            time.sleep(0.4)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=20)
        statuses = [status for session in sessions for status, _ in answers[session.id]]
        assert 503 in statuses and set(statuses) <= {200, 409, 503}, sorted(set(statuses))
        for session in sessions:                                  # the store writes again, without a restart
            # a change that cannot meet the session's byte limit, which the random walk may have reached
            session.op("flags", {"set": ["written-after"]})
        for session, stream in zip(sessions, streams):
            refused = [body for status, body in answers[session.id] if status == 503]
            assert all(body["error"]["code"] == "unavailable" for body in refused)
            state, log = session.get(), session.events()
            assert "truncated" not in log and log["last"] == state["lastEvent"]
            assert max(version for status, version in answers[session.id] if status == 200) == state["version"] - 1
            # the log replays to the state, and the follower was sent exactly the log
            replica = Replica(created[session.id])
            for block in split_blocks(log["events"]):
                replica.apply(block)
            replica.assert_matches(state)
            assert [frame["data"] for frame in stream.read_events(log["last"])] == log["events"]
            stream.close()
            session.state = state
        assert server.stop() == 0, "".join(server.log)
        server = start(small_disk / "minerva.sqlite")
        for session in sessions:
            session.server = server
            before = session.state
            assert session.get() == before and session.events()["last"] == before["lastEvent"]
    finally:
        server.stop()


def test_the_write_ahead_log_never_fills_a_small_disk_by_itself(small_disk):
    """SQLite's log is copied into the database every 10,000 pages (40 MiB), more than this disk
    holds: then the log alone would fill it and could not be copied back (that needs room in the
    database file), and every write would be refused from then on. On a small disk the store
    checkpoints within a quarter of the space free when it opened, and every write is taken."""
    server = start(small_disk / "minerva.sqlite")
    try:
        session = server.create_session()
        wal = small_disk / "minerva.sqlite-wal"
        largest = 0
        for index in range(3000):                      # about 12 KiB of log each: 35 MiB in all
            pushing = index % 2 == 0
            session.op("push" if pushing else "pop", {"screen": "followers", "params": {"userId": "y" * 500}} if pushing else {})
            largest = max(largest, wal.stat().st_size)
        assert largest < 3 * 1024 * 1024, largest
        state = session.get()
        assert state["version"] == 3001
        assert server.request("GET", "/healthz")[0] == 200
        assert server.stop() == 0, "".join(server.log)
        server = start(small_disk / "minerva.sqlite")
        session.server = server
        assert session.get() == state
    finally:
        server.stop()


def test_kill_9_during_creations_leaves_no_session_without_its_key(tmp_path):
    """Session creation and its Idempotency-Key are one transaction: after kill -9 at a random
    moment, a retry of every key answers one session, and no stored session is left that no key
    answers (a session nobody holds a token for)."""
    db = tmp_path / "creations.sqlite"
    rng = random.Random(2026)
    answered = {}                                              # key -> session id of its answer
    tokens = set()
    cut_short = 0                                              # keys the crash left unanswered
    for round_ in range(20):
        server = start(db)
        keys = []                                              # every key a request was sent with
        stop = threading.Event()

        def create(worker):
            number = 0
            while not stop.is_set():
                key = f"r{round_}-w{worker}-{number}"
                number += 1
                keys.append(key)
                try:
                    status, _, body = server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": key})
                except OSError:
                    return
                if status == 201:
                    answered[key] = body["id"]
                    tokens.add(body["token"])

        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = [pool.submit(create, worker) for worker in range(8)]
            time.sleep(rng.uniform(0.02, 0.1))
            server.process.send_signal(signal.SIGKILL)
            stop.set()
            for future in futures:
                future.exception()
        server.process.wait(timeout=10)
        cut_short += sum(key not in answered for key in keys)

        server = start(db)
        try:
            for key in keys:                                   # every client retries with its key
                status, _, body = server.request("POST", "/v1/sessions", {}, headers={"Idempotency-Key": key})
                assert status == 201
                if key in answered:
                    assert body["id"] == answered[key], "a retry after the crash made a second session"
                answered[key] = body["id"]
                tokens.add(body["token"])
        finally:
            assert server.stop() == 0, "".join(server.log)
    assert cut_short > 0, "the crashes never interrupted a creation; the test proved nothing"
    database = sqlite3.connect(db)
    stored = {row[0] for row in database.execute("SELECT id FROM session")}
    assert stored == set(answered.values()), "a stored session that no key answers"
    # The remembered answers carry tokens: the store keeps them sealed, and the keys only hashed.
    rows = database.execute("SELECT key, body FROM creation").fetchall()
    assert len(rows) == len(answered)
    assert not any(key.startswith("r") for key, _ in rows), "a creation's key is stored in clear"
    assert not any(token.encode() in bytes(body) for _, body in rows for token in tokens), "a token is stored in clear"
