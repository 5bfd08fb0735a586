"""Many clients on many sessions at once: nothing lost, nothing crossed."""
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import APPS, RunningServer


@pytest.fixture(scope="module")
def server():
    """The basic app with room for the deep stacks these tests build (a MiB a session, so the
    memory budget holds 2,000 of them)."""
    running = RunningServer("--app", str(APPS / "basic.json"), "--rate-limit", "0", "--max-session-bytes", "1048576", "--max-sessions", "2000")
    yield running
    assert running.stop() == 0, "".join(running.log)


def test_concurrent_clients_on_many_sessions(server):
    sessions = [server.create_session() for _ in range(40)]

    def drive(index):
        session = sessions[index]
        for step in range(25):
            session.op("push", {"screen": "followers", "params": {"userId": f"{index}-{step}"}})
        return session

    with ThreadPoolExecutor(max_workers=16) as pool:
        list(pool.map(drive, range(len(sessions))))
    for index, session in enumerate(sessions):
        state = session.get()
        assert state["version"] == 26
        stack = next(item for item in state["navigators"] if item["id"] == "v0")["stack"]
        assert len(stack) == 26
        leaf = state["root"]["children"][0]
        params = []
        while leaf["children"]:
            leaf = leaf["children"][0]
            params.append(leaf["params"]["userId"])
        assert params == [f"{index}-{step}" for step in range(25)]


def test_concurrent_clients_on_one_session_are_serialised(server):
    session = server.create_session()

    def push(_):
        status, _, state = session.call("POST", "/push", {"screen": "settings"})
        assert status == 200
        return state["version"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        versions = list(pool.map(push, range(200)))
    assert sorted(versions) == list(range(2, 202))
    assert session.get()["version"] == 201
