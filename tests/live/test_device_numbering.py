"""Changes numbered per device (`Minerva-Device-Change: <device>/<seq>`): the session keeps each
device's newest number for its whole life — past the idempotency window, across a restart, on
every instance of a shared store — and answers a number it applied as applied; a gap is `409`;
a numbered change that changes nothing still takes a version; the device's time of a change
(`Minerva-Device-Time`) is what analytics record, within the server's clock and the session's life."""
import datetime
import json
import re
import time
import urllib.request

import pytest
import yaml

from conftest import APPS, ROOT, RunningServer
from postgres import PostgresCluster

TABS = ("--app", str(APPS / "tabs.json"), "--rate-limit", "0")
PROFILE = {"screen": "profile", "params": {"userId": "1"}}
ADMIN = "admin-secret-for-device-times"


def numbered(device, seq, **more):
    return {"Minerva-Device-Change": f"{device}/{seq}", **more}


def rfc3339(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def apply(session, name, body, headers):
    """A change that must apply, on a server whose clock may be moved (its events' times then are too)."""
    status, headers, document = session.call("POST", "/" + name, body, headers)
    assert status == 200 and "Minerva-Already-Applied" not in headers, document
    return document


def expect_applied(session, name, body, headers, version, made):
    """A number the session applied: 200, nothing applied again, the current state, marked."""
    before = session.get()
    status, answer_headers, document = session.call("POST", "/" + name, body, headers)
    assert status == 200, document
    assert answer_headers["Minerva-Already-Applied"] == "true"
    assert answer_headers.get("Minerva-Applied-Version") == (None if made is None else str(made))
    assert document["version"] == version == before["version"] and document == session.get()


def test_a_numbered_change_is_kept_per_device_and_named_by_its_block(tabs_server):
    session = tabs_server.create_session()
    events = session.change("push", PROFILE, numbered("phone-1", 1))
    assert events[-1]["device"] == "phone-1" and events[-1]["deviceSeq"] == 1
    assert all("device" not in event and "deviceSeq" not in event for event in events[:-1])
    assert session.get()["devices"] == {"phone-1": {"seq": 1, "version": 2}}
    # Another device numbers its own changes from 1.
    session.change("pop", {}, numbered("tablet:7", 1))
    session.change("push", PROFILE, numbered("phone-1", 2))
    assert session.get()["devices"] == {"phone-1": {"seq": 2, "version": 4}, "tablet:7": {"seq": 1, "version": 3}}
    # Unnumbered changes go on beside them.
    session.change("pop")
    assert session.get()["devices"] == {"phone-1": {"seq": 2, "version": 4}, "tablet:7": {"seq": 1, "version": 3}}


def test_an_applied_number_answers_as_applied_and_a_gap_is_409(tabs_server):
    session = tabs_server.create_session()
    session.change("push", PROFILE, numbered("phone", 1))
    session.change("pop", {}, numbered("phone", 2))
    # The same change again, or an older one, or another change under an applied number.
    expect_applied(session, "pop", {}, numbered("phone", 2), version=3, made=3)
    expect_applied(session, "push", PROFILE, numbered("phone", 1), version=3, made=2)
    expect_applied(session, "present", {"screen": "login"}, numbered("phone", 2), version=3, made=3)
    # Answered as applied before If-Match: a retry with the version it was sent at still is.
    expect_applied(session, "pop", {}, numbered("phone", 2) | {"If-Match": '"2"'}, version=3, made=3)
    before = session.get()
    # A stale If-Match comes before the gap; a malformed body too.
    status, _, document = session.call("POST", "/push", PROFILE, numbered("phone", 4) | {"If-Match": '"1"'})
    assert status == 412, document
    status, _, document = session.call("POST", "/push", {"screen": 3}, numbered("phone", 4))
    assert status == 400, document
    status, _, document = session.call("POST", "/push", PROFILE, numbered("phone", 4))
    assert status == 409 and document["error"]["code"] == "device_seq_gap", document
    assert "next number for it is 3" in document["error"]["message"]
    assert session.get() == before
    # A refused change takes no number: the next change takes it.
    status, _, document = session.call("POST", "/push", {"screen": "nowhere"}, numbered("phone", 3))
    assert status == 422 and session.get() == before, document
    session.change("push", PROFILE, numbered("phone", 3))


def test_an_applied_list_put_whose_node_is_gone_answers_the_state(tabs_server):
    """The answer to an applied number is the state document whatever the endpoint: a list PUT's
    own answer (its list's diff) can no longer be made once another device popped its node."""
    session = tabs_server.create_session()
    node = session.op("push", PROFILE)["focus"]
    body = {"sections": [{"id": "a", "items": [{"id": "1", "kind": "row", "content": None}]}]}
    status, headers, document = session.call("PUT", f"/nodes/{node}/list", body, numbered("phone", 1))
    assert status == 200 and document["version"] == 1 and "diff" in document, document
    expect_applied(session, "pop", {}, numbered("phone", 1), version=3, made=3)
    session.other_client().change("pop")
    status, headers, document = session.call("PUT", f"/nodes/{node}/list", body, numbered("phone", 1))
    assert status == 200 and headers["Minerva-Already-Applied"] == "true" and headers["Minerva-Applied-Version"] == "3"
    assert document == session.get() and headers["ETag"] == f'"{document["version"]}"'


def test_a_numbered_change_that_changes_nothing_takes_a_version(tabs_server):
    session = tabs_server.create_session()
    before = session.get()
    status, _, document = session.call("POST", "/select-tab", {"tab": before["tabs"]["selected"]})
    assert status == 200 and document["version"] == before["version"], "an unnumbered no-op makes no version"
    events = session.change("select-tab", {"tab": before["tabs"]["selected"]}, numbered("phone", 1))
    assert [event["type"] for event in events] == ["unchanged"]
    assert events[0]["device"] == "phone" and events[0]["deviceSeq"] == 1
    after = session.get()
    assert {key: value for key, value in after.items() if key not in ("version", "lastEvent", "devices")} == \
        {key: value for key, value in before.items() if key not in ("version", "lastEvent")}
    expect_applied(session, "select-tab", {"tab": before["tabs"]["selected"]}, numbered("phone", 1), version=2, made=2)
    # An If-Match naming the version before an unchanged block still matches (it changed nothing).
    session.change("push", PROFILE, {"If-Match": f'"{before["version"]}"'})


@pytest.mark.parametrize("headers, message", [
    ({"Minerva-Device-Change": "phone"}, "Minerva-Device-Change: a device's change number is <device>/<number>"),
    ({"Minerva-Device-Change": "phone/"}, "Minerva-Device-Change: a device's change number is <device>/<number>"),
    ({"Minerva-Device-Change": "/1"}, "a device id is 1 to 64 characters"),
    ({"Minerva-Device-Change": "phone/1/2"}, "Minerva-Device-Change: a device's change number is <device>/<number>"),
    (numbered("phone", 0), "from 1 to 999999999999999"),
    (numbered("phone", "01"), "from 1 to 999999999999999"),
    (numbered("phone", "+1"), "from 1 to 999999999999999"),
    (numbered("phone", 10 ** 15), "from 1 to 999999999999999"),
    (numbered("phone", "one"), "<device>/<number>"),
    (numbered("a phone", 1), "A-Z a-z 0-9"),
    (numbered("d" * 65, 1), "1 to 64"),
    ({"Minerva-Device-Time": "yesterday"}, "RFC 3339"),
    ({"Minerva-Model-Version": "0"}, "Minerva-Model-Version"),
    ({"Minerva-Model-Version": "+1"}, "Minerva-Model-Version"),
    ({"Minerva-Model-Version": "1234567890"}, "Minerva-Model-Version"),
    ({"Minerva-Model-Version": "latest"}, "Minerva-Model-Version"),
])
def test_malformed_numbering_headers_are_400_and_change_nothing(tabs_server, headers, message):
    session = tabs_server.create_session()
    before = session.get()
    status, _, document = session.call("POST", "/push", PROFILE, headers)
    assert status == 400 and document["error"]["code"] == "invalid_request" and message in document["error"]["message"], document
    assert session.get() == before


def test_the_contracts_device_time_pattern_is_what_the_server_takes(tabs_server):
    """`Minerva-Device-Time`'s pattern in openapi.yaml names exactly the timestamps the server reads:
    dates that exist (February 29 in leap years only), hours to 23, minutes to 59, seconds to 60,
    offsets within a day; every other one is `400` and changes nothing."""
    pattern = re.compile(yaml.safe_load((ROOT / "openapi.yaml").read_text())["components"]["parameters"]["DeviceTime"]["schema"]["pattern"])
    dates = ["2026-11-29", "2024-02-29", "2000-02-29", "1900-02-29", "2023-02-29", "2026-04-30", "2026-04-31", "2026-12-31",
             "2026-13-01", "2026-00-10", "2026-01-00", "3082-93-10", "0000-02-29"]
    times = ["T21:30:00Z", "t23:59:60.5z", "T24:00:00Z", "T12:60:00Z", "T12:00:61Z", "T08:00:00+05:30", "T08:00:00-23:59",
             "T08:00:00+24:00", "T08:00:00.Z", "T08:00:00"]
    session = tabs_server.create_session()
    for date in dates:
        for time_of_day in times:
            stamp = date + time_of_day
            before = session.get()["version"]
            status, _, document = session.call("POST", "/size-class", {"horizontal": "compact"}, {"Minerva-Device-Time": stamp})
            assert (status == 200) == bool(pattern.match(stamp)), (stamp, status, document)
            assert status in (200, 400), (stamp, document)
            if status == 400:
                assert session.get()["version"] == before, stamp


def test_a_client_of_another_model_is_applied_and_counted(tabs_server):
    session = tabs_server.create_session()
    status, _, info = tabs_server.request("GET", "/v1/server")
    other = str(info["modelVersion"] + 1)

    def counted():
        with urllib.request.urlopen(tabs_server.url + "/metrics", timeout=10) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("minerva_changes_from_other_models_total "):
                    return float(line.split()[1])
        return 0.0

    before = counted()
    session.change("push", PROFILE, {"Minerva-Model-Version": str(info["modelVersion"])})
    status, headers, document = session.call("POST", "/pop", {}, {"Minerva-Model-Version": other})
    assert status == 200 and headers["Minerva-Model-Version"] == str(info["modelVersion"]), document
    assert counted() == before + 1


@pytest.mark.serial
def test_an_applied_number_outlives_the_key_window_and_a_restart(tmp_path):
    """`--clock-offset-file` moves the server's clock two days on, past the one-day key window:
    the key is forgotten, the device's number is not, after a restart too."""
    clock = tmp_path / "clock-offset"
    clock.write_text("0")
    arguments = (*TABS, "--store", f"sqlite:{tmp_path / 'store.sqlite'}", "--clock-offset-file", str(clock), "--session-ttl", "30d")
    server = RunningServer(*arguments)
    try:
        session = server.create_session()
        # A tablet's change, then 40 of the phone's: the stored head is written again after 32
        # versions, and then holds the tablet's mark alone (no event after it names the tablet).
        session.change("push", PROFILE, numbered("tablet", 1))
        for seq in range(1, 41):
            name, body = ("pop", {}) if seq % 2 else ("push", PROFILE)
            session.change(name, body, numbered("phone", seq, **{"Idempotency-Key": f"key-{seq}"}))
        status, headers, _ = session.call("POST", "/push", PROFILE, numbered("phone", 40, **{"Idempotency-Key": "key-40"}))
        assert status == 200 and headers["Idempotent-Replayed"] == "true"
        clock.write_text(str(2 * 86_400))
        time.sleep(0.3)
        # The key is forgotten: without the number the same request would apply again.
        expect_applied(session, "push", PROFILE, numbered("phone", 40, **{"Idempotency-Key": "key-40"}), version=42, made=42)
        assert server.stop() == 0, "".join(server.log)
        server = RunningServer(*arguments)
        session = session.on(server)
        assert session.get()["devices"] == {"phone": {"seq": 40, "version": 42}, "tablet": {"seq": 1, "version": 2}}
        expect_applied(session, "push", PROFILE, numbered("phone", 40, **{"Idempotency-Key": "key-40"}), version=42, made=42)
        expect_applied(session, "pop", {}, numbered("phone", 39), version=42, made=41)
        expect_applied(session, "pop", {}, numbered("tablet", 1), version=42, made=2)
        status, _, document = session.call("POST", "/push", PROFILE, numbered("phone", 42))
        assert status == 409 and document["error"]["code"] == "device_seq_gap"
        assert apply(session, "push", PROFILE, numbered("phone", 41))["devices"]["phone"] == {"seq": 41, "version": 43}
        assert apply(session, "pop", {}, numbered("tablet", 2))["devices"]["tablet"] == {"seq": 2, "version": 44}
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_every_instance_of_a_shared_store_knows_every_devices_number():
    with PostgresCluster.create() as postgres:
        instances = [RunningServer(*TABS, "--store", postgres.url()) for _ in range(2)]
        try:
            session = instances[0].create_session()
            for seq in range(1, 7):
                on = session.on(instances[seq % 2])
                name, body = ("push", PROFILE) if seq % 2 else ("pop", {})
                on.change(name, body, numbered("phone", seq))
                # Sent again through the other instance: applied, never twice.
                expect_applied(session.on(instances[(seq + 1) % 2]), name, body, numbered("phone", seq), version=seq + 1, made=seq + 1)
            status, _, document = session.on(instances[1]).call("POST", "/pop", {}, numbered("phone", 9))
            assert status == 409 and document["error"]["code"] == "device_seq_gap"
        finally:
            assert [instance.stop() for instance in instances] == [0, 0]


@pytest.mark.serial
def test_analytics_record_the_devices_time_within_the_servers_clock_and_the_session(tmp_path):
    clock = tmp_path / "clock-offset"
    clock.write_text("0")
    server = RunningServer(*TABS, "--admin-token", ADMIN, "--clock-offset-file", str(clock))
    try:
        created = time.time()
        session = server.create_session()
        clock.write_text("100")
        time.sleep(0.3)
        # Tapped 20 s after the session started (the server's clock is 100 s on): home was shown 20 s.
        apply(session, "push", PROFILE, numbered("phone", 1, **{"Minerva-Device-Time": rfc3339(created + 20)}))
        # A time later than the server's clock is the server's: profile was shown about 80 s.
        apply(session, "pop", {}, numbered("phone", 2, **{"Minerva-Device-Time": rfc3339(created + 10_000)}))
        # A time before the session started is the server's too: home again, about 0 s.
        apply(session, "push", {"screen": "followers", "params": {"userId": "1"}},
              numbered("phone", 3, **{"Minerva-Device-Time": rfc3339(created - 3_600)}))
        status, _, report = server.request("GET", "/v1/admin/analytics/screens", token=ADMIN)
        assert status == 200, report
        times = {row["screen"]: row["timeOnScreen"] for row in report["screens"]}
        assert times["profile"]["samples"] == 1 and times["profile"]["median"] == pytest.approx(80, abs=3), times
        assert times["home"]["samples"] == 2 and times["home"]["p90"] == pytest.approx(20, abs=3), times
        # Events keep the server's time.
        events = session.events()["events"]
        assert all(abs(datetime.datetime.strptime(event["at"], "%Y-%m-%dT%H:%M:%S.%fZ")
                       .replace(tzinfo=datetime.timezone.utc).timestamp() - (time.time() + 100)) < 10 for event in events), events
    finally:
        assert server.stop() == 0, "".join(server.log)
