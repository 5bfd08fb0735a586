"""The history checker's own tests, on hand-made histories (no server): it finds each anomaly it is
meant to find — a stale read, a backwards read, a doubled write, a key applied twice, a long poll
older than its If-None-Match or never answered, a stale 412, a follower's gap — and passes good
histories, concurrent ones included, where operations overlap and either order is legal. A checker
that passed every history would prove nothing about the server: these tests are what makes its
silence mean something.

Times are in milliseconds from the history's start; every operation is on session "s".
"""
import pytest

from history_checker import (EVENTS_READ, KEYED_WRITE, LONG_POLL, READ, STREAM, VERSION_READ, WRITE,
                             Recorder, assert_consistent, check)

MS = 1_000_000


def state(version, focus=None, **extra):
    """A state document of `version`; `focus` stands for its content."""
    return {"id": "s", "version": version, "focus": focus or f"n{version}", "lastEvent": version - 1, **extra}


def added(seq, version, tag="t"):
    return {"seq": seq, "version": version, "type": "added", "params": {"userId": tag}, "final": True}


class Story:
    """A hand-made history, built operation by operation with the times given."""

    def __init__(self):
        self.recorder = Recorder()
        self.recorder.origin = 0

    def record(self, client, kind, start, end, status=200, body=None, etag=None, replayed=False,
               action="GET", path="A", error=None, **request):
        operation = self.recorder.invoke(client, "s", kind, path, action, **request)
        if error is not None:
            operation.fail(error)
        else:
            headers = {"ETag": f'"{etag}"'} if etag is not None else {}
            if replayed:
                headers["Idempotent-Replayed"] = "true"
            operation.answer(status, headers, body)
        operation.invoked, operation.completed = start * MS, end * MS
        return operation

    def read(self, client, start, end, version, path="B", **extra):
        return self.record(client, READ, start, end, body=state(version, **extra), etag=version, path=path)

    def write(self, client, start, end, version, tag, if_match=None, key=None, path="A"):
        kind = KEYED_WRITE if key else WRITE
        return self.record(client, kind, start, end, body=state(version), etag=version, action="push",
                           path=path, tag=tag, if_match=if_match, key=key)

    def kinds(self):
        return sorted(check(self.recorder).by_kind().elements())


# --- good histories pass -----------------------------------------------------------------------

def test_a_sequential_history_through_every_path_passes():
    story = Story()
    story.write("c1", 0, 10, 2, "a", path="A")
    story.read("c2", 11, 12, 2, path="B")
    story.record("c2", LONG_POLL, 13, 40, body=state(3), etag=3, path="nginx", if_none_match=2)
    story.write("c1", 20, 30, 3, "b", if_match=2, path="C")
    story.record("c3", WRITE, 41, 42, status=412, etag=3, action="pop", if_match=2)
    story.record("c3", VERSION_READ, 43, 44, body=state(2), etag=2, action="versions/2", requested=2)
    story.record("c3", LONG_POLL, 45, 1045, status=304, etag=3, if_none_match=3)
    story.record("f", EVENTS_READ, 46, 47, body={"events": [added(1, 2, "a"), added(2, 3, "b")], "last": 2},
                 etag=3, action="events", after=0)
    result = check(story.recorder)
    assert result.ok, result.report()
    assert result.counts["by kind"] == {WRITE: 3, READ: 1, LONG_POLL: 2, VERSION_READ: 1, EVENTS_READ: 1}


def test_reads_overlapping_a_write_may_see_either_version():
    story = Story()
    story.write("c1", 0, 5, 2, "a")
    story.write("c1", 10, 30, 3, "b")
    story.read("c2", 12, 20, 3)             # the write took effect before this read
    story.read("c3", 15, 25, 2)             # …and not yet for this one: started before c2's read ended
    story.read("c4", 19, 29, 2)             # started before c2's read ended, still during the write
    story.read("c4", 31, 32, 3)
    assert story.kinds() == []


def test_concurrent_writes_may_apply_in_either_order():
    story = Story()
    story.write("c1", 0, 20, 3, "a", path="A")
    story.write("c2", 1, 10, 2, "b", path="B")     # started first, finished first, applied first
    story.write("c3", 2, 30, 4, "c", path="C")
    story.read("c4", 31, 32, 4)
    assert story.kinds() == []


def test_a_retried_key_that_answers_the_first_outcome_passes():
    story = Story()
    first = story.record("c1", KEYED_WRITE, 0, 2500, status=503, action="push", key="k", tag="k",
                         body={"error": {"code": "unavailable", "message": "the change could not be confirmed; "
                               "the change may still have been applied: retry with the same Idempotency-Key"}})
    story.record("c1", KEYED_WRITE, 2600, 2610, body=state(2), etag=2, replayed=True, action="push", key="k",
                 tag="k", path="B")
    story.record("c1", KEYED_WRITE, 2620, 2630, body=state(2), etag=2, replayed=True, action="push", key="k",
                 tag="k", path="nginx")
    story.read("c2", 2640, 2650, 2)
    story.record("f", EVENTS_READ, 2700, 2710, body={"events": [added(1, 2, "k")], "last": 1}, etag=2, after=0)
    result = check(story.recorder)
    assert result.ok, result.report()
    assert first.outcome_unknown and result.counts["unknown outcomes"] == 1


def test_the_creations_token_is_not_part_of_the_content():
    story = Story()
    story.read("c1", 0, 1, 1, token="secret")
    story.read("c2", 2, 3, 1)
    assert story.kinds() == []


def test_a_follower_that_resumes_where_it_was_passes():
    story = Story()
    block = [{"seq": 3, "version": 3, "type": "removed"}, {"seq": 4, "version": 3, "type": "removed", "final": True}]
    stream = story.record("f", STREAM, 0, 100, action="events (stream)", after=1)
    for event in [added(2, 2), *block, added(5, 4)]:
        stream.event(event)
    story.record("f", EVENTS_READ, 101, 102, body={"events": [added(6, 5)], "last": 6}, etag=5, after=5)
    assert story.kinds() == []


def test_an_answer_is_read_from_its_headers_in_any_case_and_from_its_body():
    operation = Recorder().invoke("c", "s", KEYED_WRITE, "A", "push", key="k", tag="k")
    operation.answer(200, {"etag": 'W/"3"', "idempotent-replayed": "true"}, state(3, token="secret"))
    assert (operation.etag, operation.version, operation.last_event, operation.replayed) == (3, 3, 2, True)
    assert operation.digest == Recorder().invoke("c", "s", READ, "B", "GET").answer(200, {}, state(3)).digest
    assert operation.completed >= operation.invoked and operation.revealed == 3 and operation.observed is None


# --- each anomaly is found -----------------------------------------------------------------------

def test_a_read_after_an_acknowledged_write_that_answers_older_is_stale():
    story = Story()
    story.write("c1", 0, 10, 2, "a")
    story.write("c1", 11, 20, 3, "b", path="A")
    story.read("c2", 21, 22, 2, path="B")
    assert story.kinds() == ["stale-read"]


def test_a_client_whose_reads_go_backwards_is_found():
    story = Story()
    story.read("c1", 0, 1, 3, path="A")       # the write that made 3 is not in the history
    story.read("c1", 2, 3, 2, path="B")
    assert story.kinds() == ["backwards-read"]


def test_a_client_that_does_not_read_its_own_write_is_found():
    story = Story()
    story.write("c1", 0, 1, 5, "a", path="A")
    story.read("c1", 2, 3, 4, path="B")
    assert story.kinds() == ["stale-read"]


def test_two_writes_acknowledged_as_one_version_are_a_doubled_write():
    story = Story()
    story.write("c1", 0, 10, 3, "a", path="A")
    story.write("c2", 1, 11, 3, "b", path="B")
    assert story.kinds() == ["doubled-version"]


def test_one_key_answered_with_two_versions_is_applied_twice():
    story = Story()
    story.write("c1", 0, 10, 2, "k", key="k", path="A")
    story.write("c1", 11, 20, 3, "k", key="k", path="B")    # not a replay: applied again
    assert story.kinds() == ["applied-twice"]


def test_a_tag_in_two_blocks_of_the_log_is_applied_twice():
    story = Story()
    story.record("c1", KEYED_WRITE, 0, 2500, status=None, error=ConnectionResetError("reset"), action="push",
                 key="k", tag="k")
    story.write("c1", 2600, 2610, 3, "k", key="k", path="B")
    story.record("f", EVENTS_READ, 2700, 2710, body={"events": [added(1, 2, "k"), added(2, 3, "k")], "last": 2},
                 etag=3, after=0)
    assert story.kinds() == ["applied-twice"]


def test_an_acknowledged_write_missing_from_a_later_log_is_lost():
    story = Story()
    story.write("c1", 0, 10, 2, "a")
    story.write("c1", 11, 20, 3, "b")
    story.record("f", EVENTS_READ, 30, 31, body={"events": [added(1, 2, "a"), added(2, 3, "x")], "last": 2},
                 etag=3, after=0)
    assert story.kinds() == ["lost-write"]


def test_an_if_match_write_applied_on_another_version_is_a_lost_update():
    story = Story()
    story.write("c1", 0, 10, 2, "a")
    story.write("c2", 11, 20, 3, "b")
    story.write("c3", 5, 25, 4, "c", if_match=2)         # concurrent, but applied on 3, not on 2
    assert story.kinds() == ["lost-update"]


def test_a_long_poll_that_answers_older_than_its_if_none_match_is_stale():
    story = Story()
    story.write("c1", 0, 10, 5, "a", path="A")
    story.record("c1", LONG_POLL, 11, 12, body=state(4), etag=4, path="B", if_none_match=5)
    assert story.kinds() == ["stale-long-poll"]


def test_a_long_poll_that_outlives_its_wait_by_far_is_overdue():
    story = Story()
    story.record("f", EVENTS_READ, 0, 1200, body={"events": [], "last": 0}, etag=1, after=0, wait=1)
    story.record("f", EVENTS_READ, 1300, 16300, error=TimeoutError("timed out"), after=0, wait=1)
    story.record("c", LONG_POLL, 0, 3500, status=503, wait=1, if_none_match=1,
                 body={"error": {"code": "unavailable", "message": "storage cannot be read right now; retry later"}})
    assert story.kinds() == ["overdue-long-poll"]


def test_a_412_naming_a_version_older_than_an_acknowledged_one_is_stale():
    story = Story()
    story.write("c1", 0, 10, 5, "a", path="A")
    story.record("c1", WRITE, 11, 12, status=412, etag=4, action="push", path="B", if_match=5, tag="b")
    assert story.kinds() == ["stale-412"]


def test_a_412_naming_the_version_it_was_asked_for_is_contradictory():
    story = Story()
    story.record("c1", WRITE, 0, 1, status=412, etag=4, action="push", if_match=4, tag="b")
    assert story.kinds() == ["contradictory-412"]


def test_an_acknowledged_version_answered_404_is_missing():
    story = Story()
    ahead = {"error": {"code": "not_found", "message": "version 3 is ahead of this session, which is at version 2"}}
    story.write("c1", 0, 10, 3, "a", path="A")
    story.record("c2", VERSION_READ, 11, 12, status=404, action="versions/3", path="B", requested=3, body=ahead)
    story.record("c2", VERSION_READ, 5, 9, status=404, action="versions/3", path="B", requested=3, body=ahead)
    assert story.kinds() == ["missing-version"]            # the second one started before the ack


def test_an_events_page_behind_an_acknowledged_write_is_stale():
    story = Story()
    story.write("c1", 0, 10, 3, "a")                    # lastEvent 2
    story.record("f", EVENTS_READ, 11, 12, body={"events": [], "last": 1}, etag=2, after=1, action="events")
    assert story.kinds() == ["stale-events-read"]


def test_two_contents_for_one_version_are_a_conflict():
    story = Story()
    story.read("c1", 0, 1, 2, focus="n2")
    story.read("c2", 2, 3, 2, focus="n7")
    assert story.kinds() == ["content-conflict"]


def test_a_new_write_that_makes_a_version_already_seen_before_it_started_is_stale():
    story = Story()
    story.read("c1", 0, 1, 5)
    story.write("c2", 2, 3, 4, "a")
    assert story.kinds() == ["stale-write"]


def test_a_document_whose_etag_names_another_version_is_a_mismatch():
    story = Story()
    story.record("c1", READ, 0, 1, body=state(3), etag=2)
    assert story.kinds() == ["etag-mismatch"]


def test_one_event_delivered_with_two_contents_is_a_conflict():
    story = Story()
    story.record("f", EVENTS_READ, 0, 1, body={"events": [added(1, 2, "a")], "last": 1}, etag=2, after=0)
    story.record("g", EVENTS_READ, 2, 3, body={"events": [added(1, 2, "b")], "last": 1}, etag=2, after=0)
    assert story.kinds() == ["event-conflict"]


def test_a_document_whose_last_event_belongs_to_another_version_is_a_log_mismatch():
    story = Story()
    story.record("f", EVENTS_READ, 0, 1, body={"events": [added(1, 2, "a"), added(2, 3, "b")], "last": 2}, etag=3,
                 after=0)
    story.read("c1", 2, 3, 3, lastEvent=1)
    assert story.kinds() == ["log-mismatch"]


def test_a_follower_that_skips_an_event_has_a_gap():
    story = Story()
    stream = story.record("f", STREAM, 0, 100, action="events (stream)", after=0)
    for event in [added(1, 2), added(3, 4)]:
        stream.event(event)
    assert story.kinds() == ["follower-gap"]


def test_a_follower_that_resumes_with_a_gap_or_a_repeat_is_found():
    story = Story()
    story.record("f", EVENTS_READ, 0, 1, body={"events": [added(5, 6)], "last": 5}, etag=6, after=3)
    story.record("g", EVENTS_READ, 2, 3, body={"events": [added(4, 5), added(5, 6)], "last": 5}, etag=6, after=4)
    stream = story.record("h", STREAM, 0, 100, action="events (stream)", after=0)
    for event in [added(1, 2), added(2, 3), added(2, 3)]:
        stream.event(event)
    assert story.kinds() == ["follower-gap", "follower-repeat", "follower-repeat"]


def test_an_events_page_that_ends_before_the_last_it_names_is_short():
    story = Story()
    story.record("f", EVENTS_READ, 0, 1, body={"events": [added(5, 6)], "last": 7}, etag=7, after=4)
    assert story.kinds() == ["short-events-page"]


def test_a_block_broken_by_another_version_is_a_gap():
    story = Story()
    stream = story.record("f", STREAM, 0, 100, action="events (stream)", after=0)
    for event in [{"seq": 1, "version": 2, "type": "removed"}, added(2, 3)]:     # version 2's block never ended
        stream.event(event)
    assert story.kinds() == ["follower-gap"]


# --- the report ----------------------------------------------------------------------------------

def test_the_report_shows_the_operations_involved_with_their_times_paths_and_faults():
    story = Story()
    with story.recorder.fault("postgres frozen") as fault:
        pass
    fault.started, fault.ended = 5 * MS, 15 * MS
    story.write("writer", 0, 10, 3, "a", path="A")
    story.read("bystander", 9, 11, 3, path="C")
    story.read("reader", 12, 13, 2, path="B")
    with pytest.raises(AssertionError) as failure:
        assert_consistent(story.recorder)
    report = str(failure.value)
    assert "anomalies: stale-read 1" in report and "by fault: postgres frozen 1" in report
    excerpt = report.split("\n\n")[1].splitlines()
    assert excerpt[0].startswith("stale-read on session s: answered version 2 after a write acknowledged of version 3")
    assert excerpt[1].startswith("  » #0 0.000s..0.010s writer via A: write push tag a -> 200 v3")
    assert excerpt[2].startswith("    #1 0.009s..0.011s bystander via C: read GET -> 200 v3")
    assert excerpt[3].startswith("  » #2 0.012s..0.013s reader via B: read GET -> 200 v2")
    assert excerpt[4] == "    fault: postgres frozen 0.005s..0.015s"
