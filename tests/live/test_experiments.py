"""Flow experiments (issue 44): an app description declares variants of itself as JSON Merge
Patches; each session is assigned by GrowthBook's hash of its unit (computed here apart from the
server), runs its variants' app by version on every instance and after a restart, and is exposed
by the change that first shows a screen where the variants differ. A changed allocation moves no
session; a declared winner moves every one."""
import json
import re
import signal
import subprocess
import time
import urllib.request

import pytest

from conftest import APPS, BINARY, RunningServer
from postgres import PostgresCluster

COFFEE = APPS / "coffee.json"


def fnv1a32(text):
    """FNV-1a, 32 bits, over the text's UTF-8 bytes."""
    value = 0x811C9DC5
    for byte in text.encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def position(seed, unit):
    """GrowthBook's hash, version 2: the unit's place in [0, 1) for a seed."""
    return fnv1a32(str(fnv1a32(seed + unit))) % 10000 / 10000


def expected_variant(experiment, unit):
    """The variant of a 50/50 experiment of full coverage (GrowthBook's bucket ranges)."""
    names = [variant["name"] for variant in experiment["variants"]]
    return names[0] if position(experiment.get("key"), unit) < 0.5 else names[1]


def coffee_experiments():
    experiments = json.loads(COFFEE.read_text())["experiments"]
    for key, experiment in experiments.items():
        experiment["key"] = key
    return experiments


def test_the_reference_hash_gives_growthbooks_published_figures():
    assert [position("seed", "a"), position("seed", "b"), position("foo", "ab")] == [0.0505, 0.2696, 0.2575]


def test_a_user_runs_the_variant_the_hash_gives_on_every_instance_and_after_a_restart():
    experiments = coffee_experiments()
    postgres = PostgresCluster.create()
    instances = []
    try:
        instances = [RunningServer("--app", str(COFFEE), "--rate-limit", "0", "--store", postgres.url()) for _ in range(3)]
        made = []
        for index in range(24):
            user = f"user-{index}"
            for offset in range(2):
                session = instances[(index + offset) % 3].create_session(user=user)
                memberships = session.state["experiments"]
                assert memberships["short-onboarding"]["variant"] == expected_variant(experiments["short-onboarding"], user)
                assert memberships["cart-pushed"]["variant"] == expected_variant(experiments["cart-pushed"], session.id)
                made.append(session)
        # Every other instance reads each session with the same variants and app version.
        for index, session in enumerate(made):
            read = session.on(instances[(index + 2) % 3]).get()
            assert read["experiments"] == session.state["experiments"] and read["appVersion"] == session.state["appVersion"]
        for instance in instances:
            assert instance.stop() == 0
        instances = [RunningServer("--app", str(COFFEE), "--rate-limit", "0", "--store", postgres.url())]
        for session in made[::5]:
            read = session.on(instances[0]).get()
            assert read["experiments"] == session.state["experiments"] and read["appVersion"] == session.state["appVersion"]
    finally:
        for instance in instances:
            instance.stop()
        postgres.cleanup()


def test_a_session_runs_its_variants_app_and_the_change_that_shows_a_differing_screen_exposes_it():
    server = RunningServer("--app", str(COFFEE), "--rate-limit", "0")
    try:
        status, _, app = server.request("GET", "/v1/app")
        assert status == 200 and sorted(app["experiments"]) == ["cart-pushed", "short-onboarding"]
        for index in range(12):
            session = server.create_session(user=f"ada-{index}", flags=["onboarded"])
            memberships = session.state["experiments"]
            # The main flow's screens are the same in every variant: not exposed yet.
            assert all("exposedAt" not in membership for membership in memberships.values())
            status, _, own = server.request("GET", f"/v1/app/versions/{session.state['appVersion']}")
            assert status == 200 and "experiments" not in own and own["version"] == session.state["appVersion"]
            assert {entry["experiment"]: entry["variant"] for entry in own["assigned"]} == {
                key: membership["variant"] for key, membership in memberships.items()}
            pushed = memberships["cart-pushed"]["variant"] == "pushed"
            assert own["screens"]["cart"]["presentation"] == ("push" if pushed else "present")
            assert ("notifications" in own["screens"]) == (memberships["short-onboarding"]["variant"] == "control")
            block = session.change("deep-link", {"url": "/cart"})
            assert block[-1]["type"] == "exposed" and block[-1]["experiment"] == "cart-pushed"
            assert block[-1]["variant"] == memberships["cart-pushed"]["variant"]
            state = session.get()
            assert "exposedAt" in state["experiments"]["cart-pushed"] and "exposedAt" not in state["experiments"]["short-onboarding"]
            # Once: showing it again exposes nothing.
            session.op("pop" if pushed else "dismiss", {})
            assert all(event["type"] != "exposed" for event in session.change("deep-link", {"url": "/cart"}))
        # A session made on the onboarding, whose first screen differs, is exposed when made.
        made = server.create_session(user="grace")
        assert "exposedAt" in made.state["experiments"]["short-onboarding"]
        # Without a user it is in no experiment by user.
        assert list(server.create_session().state["experiments"]) == ["cart-pushed"]
    finally:
        server.stop()


@pytest.mark.parametrize("user", ["", "x" * 257, 7])
def test_a_bad_user_is_refused_and_makes_no_session(user):
    server = RunningServer("--app", str(COFFEE))
    try:
        status, _, document = server.request("POST", "/v1/sessions", {"user": user})
        assert status in (400, 422) and "user" in document["error"]["message"], document
        with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
            assert re.search(r"^minerva_sessions 0(\.0)?$", answer.read().decode(), re.M)
    finally:
        server.stop()


def check_app(tmp_path, change):
    app = json.loads(COFFEE.read_text())
    change(app)
    path = tmp_path / "app.json"
    path.write_text(json.dumps(app))
    return subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=60)


def test_check_app_prints_each_variants_version_and_names_the_variant_at_fault(tmp_path):
    good = check_app(tmp_path, lambda app: None)
    assert good.returncode == 0, good.stderr
    assert "experiment 'short-onboarding' by user, coverage 100%:" in good.stdout
    assert "'short' 50%, version " in good.stdout and "'pushed' 50%, version " in good.stdout

    def broken(app):
        app["experiments"]["cart-pushed"]["variants"][1]["patch"] = {"screens": {"cart": {"style": "sideways"}}}
    bad = check_app(tmp_path, broken)
    assert bad.returncode != 0
    assert "experiments.cart-pushed.variants[1].patch" in bad.stderr and "variant 'pushed' makes an app that cannot be served" in bad.stderr

    def typo(app):
        app["experiments"]["cart-pushed"]["varients"] = app["experiments"]["cart-pushed"].pop("variants")
    misspelt = check_app(tmp_path, typo)
    assert misspelt.returncode != 0 and "did you mean 'variants'?" in misspelt.stderr


def reload(server, path, app):
    path.write_text(json.dumps(app))
    seen = len(server.log)
    server.process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    while not any("received SIGHUP" in line for line in server.log[seen:]):
        assert time.monotonic() < deadline, "".join(server.log)
        time.sleep(0.02)


def test_a_new_allocation_moves_no_session_and_a_declared_winner_moves_every_one(tmp_path):
    app = json.loads(COFFEE.read_text())
    path = tmp_path / "coffee.json"
    path.write_text(json.dumps(app))
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        sessions = [server.create_session(user=f"u{index}", flags=["onboarded"]) for index in range(10)]
        version = server.request("GET", "/v1/app")[2]["version"]
        # Other weights and less coverage: the same versions, no session moves.
        app["experiments"]["cart-pushed"]["coverage"] = 0.5
        app["experiments"]["cart-pushed"]["variants"][0]["weight"] = 0.9
        app["experiments"]["cart-pushed"]["variants"][1]["weight"] = 0.1
        reload(server, path, app)
        assert server.request("GET", "/v1/app")[2]["version"] == version
        made = {session.id: session.state for session in sessions}
        for session in sessions:
            state = session.get()
            assert state["appVersion"] == made[session.id]["appVersion"] and state["version"] == 1
        # A winner: every session runs it from its next use (an appChanged move), its assignment kept.
        app["experiments"]["cart-pushed"]["winner"] = "pushed"
        reload(server, path, app)
        for session in sessions:
            state = session.get()
            assert state["experiments"] == made[session.id]["experiments"] and state["appVersion"] != made[session.id]["appVersion"]
            status, _, own = server.request("GET", f"/v1/app/versions/{state['appVersion']}")
            assert own["screens"]["cart"]["presentation"] == "push"
            assert "cart-pushed" not in [entry["experiment"] for entry in own.get("assigned", [])]
            assert state["version"] == 2 and session.events()["events"][-1]["type"] == "appChanged"
    finally:
        server.stop()


def test_instances_reloaded_one_by_one_never_move_a_session_back(tmp_path):
    """A rolling reload on one database: an instance still on the file before an experiment (or
    before its winner) answers 409 app_changed to a session that runs what only the newer file
    declares, rather than moving it back; the session's version never goes back and forth."""
    app = json.loads(COFFEE.read_text())
    plain = dict(app)
    del plain["experiments"]
    won = json.loads(COFFEE.read_text())
    won["experiments"]["cart-pushed"]["winner"] = "pushed"
    files = {}
    for name, document in [("plain", plain), ("coffee", app), ("won", won)]:
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(document))
    postgres = PostgresCluster.create()
    instances = []
    try:
        for first, second in [("plain", "coffee"), ("coffee", "won")]:
            older = RunningServer("--app", str(files[first]), "--rate-limit", "0", "--store", postgres.url())
            newer = RunningServer("--app", str(files[second]), "--rate-limit", "0", "--store", postgres.url())
            instances += [older, newer]
            made_on_newer = newer.create_session(user="ada", flags=["onboarded"])
            made_on_older = older.create_session(user="ada", flags=["onboarded"])
            for _ in range(3):
                status, _, document = older.request("GET", f"/v1/sessions/{made_on_newer.id}", token=made_on_newer.token)
                assert status == 409 and document["error"]["code"] == "app_changed", document
                assert made_on_newer.on(newer).get()["version"] == 1
            # The newer instance moves a session of the older file forward, once.
            moved = made_on_older.on(newer).get()
            for _ in range(3):
                assert made_on_older.on(newer).get()["version"] == moved["version"]
                status, _, _ = older.request("GET", f"/v1/sessions/{made_on_older.id}", token=made_on_older.token)
                assert status in (200, 409)
                assert made_on_older.on(newer).get()["version"] == moved["version"]
            older.stop()
            newer.stop()
    finally:
        for instance in instances:
            instance.stop()
        postgres.cleanup()
