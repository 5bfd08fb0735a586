"""A recorder and a checker of histories of Minerva Server's session API, in the spirit of Jepsen's
Knossos and Elle, but for the one model this API has.

Why: openapi.yaml promises, for several instances on one PostgreSQL, "the semantics of one: a
change acknowledged by one is seen by the next read on any other", keys that apply once, and
streams that hear every change in order, each once. A handful of asserts in a test proves that for
the interleavings the test happened to write; a history of every request of a concurrent run with
faults, checked as a whole, proves it for whatever interleavings the run produced, and names the
requests that broke it.

The model. A session is one register whose every successful change makes a new version (1, 2,
3 ...), each version one state document. Every answer that names a version (a state document, an
ETag of a 304, a 412 or an events page, an `Idempotent-Replayed` answer, `versions/{v}`) reveals
that the version is committed. So, for operations on one session (times are `time.monotonic_ns()`
taken by the client just before sending and just after the whole answer was read):

- one content per version: every answer naming version v carries the same document (minus the
  fields that belong to one answer, `VARYING_FIELDS`), every event seq the same event, and a
  state document's `lastEvent` is the final event of its version's block (anomalies
  content-conflict, event-conflict, etag-mismatch, log-mismatch);
- every acknowledged write is exactly one version: no two writes acknowledged at one version
  (doubled-version), all answers to one Idempotency-Key name one version and a full event log
  holds each write's tag in at most one block (applied-twice), an If-Match write applies on the
  version it names, `version == If-Match + 1` (lost-update), and a full log read after a write
  was acknowledged holds it at the version its answer named (lost-write);
- real time: an operation that asks for the current state (GET, long poll, events page, an
  If-Match write's 412, a new write's own version) and starts after an answer naming version v
  completed answers v or later, a new write later than v (stale-read, stale-long-poll,
  stale-events-read, stale-412, stale-write) — linearizability of a register whose versions are
  its history; a long poll with If-None-Match "v" never answers older than v (stale-long-poll);
  a 412 never names the version its If-Match named (contradictory-412); `versions/{v}` of a
  version revealed before it started answers 200, never 404 (missing-version);
- per client, reads never go backwards (backwards-read; a client's own writes count among the
  acknowledged ones above, so not seeing them is a stale read);
- a long poll (`wait=S`) answers within S seconds and a grace (`LATE_SECONDS`: a store that does
  not answer is a 503 within about 2 s), never hangs (overdue-long-poll);
- a follower (an event stream or a reader of `events?after=`) sees each event after the one it
  resumed from exactly once, in order: seqs without gaps or repeats, versions moving by one
  block at a time (follower-gap, follower-repeat); an events page holds every event up to the
  `last` it names (short-events-page: a client that follows on from `last`, as the contract lets
  it, would skip the others).

Usage: a `Recorder` is shared by the client threads; each request is `recorder.invoke(...)`, then
`operation.answer(status, headers, body)` or `operation.fail(error)` (streams: `event()` per
event and `close()`); faults are `with recorder.fault(name)`. `check(recorder)` returns a
`CheckResult` (counts and anomalies, each with the operations involved); `assert_consistent`
prints the counts and raises with an excerpt of the history around the first anomalies of each
kind.
"""
import hashlib
import json
import threading
import time
from bisect import bisect_left
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field

# Kinds of operation.
READ = "read"                    # GET /v1/sessions/{id}, with or without If-None-Match
LONG_POLL = "long-poll"          # GET …?wait=N with If-None-Match
WRITE = "write"                  # a navigation operation without Idempotency-Key (If-Match or not)
KEYED_WRITE = "keyed-write"      # with Idempotency-Key: a first attempt or a retry
VERSION_READ = "version-read"    # GET …/versions/{v}
EVENTS_READ = "events-read"      # GET …/events?after=N (JSON, at once or by long poll)
STREAM = "stream"                # GET …/events as server-sent events, one connection
KINDS = (READ, LONG_POLL, WRITE, KEYED_WRITE, VERSION_READ, EVENTS_READ, STREAM)
WRITES = (WRITE, KEYED_WRITE)

# Members of a state document that belong to one answer and not to its version: the bearer token
# of the creation's answer and what a restore's answer says came back. (A `lists` option other
# than the default changes the document too: the recorded reads use the default.)
VARYING_FIELDS = ("token", "restored")

# How much longer than its `wait` a long poll may take: the contract's 503 comes within about 2 s
# when the store does not answer; the rest is margin for a loaded two-core machine.
LATE_SECONDS = 8

# What a 503 says when the change may still have been applied (SessionError.outcomeUnknown).
OUTCOME_UNKNOWN = "may still have been applied"

# The stale-answer anomaly of each kind of operation that asks for the current state.
STALE = {READ: "stale-read", LONG_POLL: "stale-long-poll", EVENTS_READ: "stale-events-read",
         WRITE: "stale-write", KEYED_WRITE: "stale-write", "412": "stale-412"}


def digest(document):
    """A short digest of a JSON value, canonical (sorted keys, no spaces)."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()[:12]


def state_digest(state):
    return digest({name: value for name, value in state.items() if name not in VARYING_FIELDS})


def header(headers, name):
    """A header's value from urllib's or http.client's message, or a plain dict, any case."""
    if headers is None:
        return None
    value = headers.get(name)
    if value is None:
        value = next((value for key, value in headers.items() if key.lower() == name.lower()), None)
    return value


def tag_version(value):
    """The version of an entity tag ('"7"' or 'W/"7"'), else None."""
    if not value:
        return None
    text = value.strip().removeprefix("W/").strip('"')
    return int(text) if text.isdigit() else None


@dataclass(eq=False)
class Operation:
    """One request of one client on one session, and what came of it."""
    index: int
    client: str
    session: str
    kind: str
    path: str                         # how it went: "nginx" or an instance's name ("A", "B2" …)
    action: str                       # "GET", "push", "pop", "versions/7", "events", …
    invoked: int
    completed: int | None = None
    # the request
    if_match: int | None = None
    if_none_match: int | None = None
    key: str | None = None
    tag: str | None = None            # the userId a push or navigate carries, unique per change
    requested: int | None = None      # versions/{v}
    after: int | None = None          # the seq an events read or a stream resumed from
    wait: int | None = None           # a long poll's wait=S
    # the answer
    status: int | None = None
    etag: int | None = None
    version: int | None = None        # the state document's
    last_event: int | None = None     # the state document's lastEvent, an events page's last
    digest: str | None = None
    replayed: bool = False
    truncated: bool = False
    message: str | None = None        # an error document's message
    error: str | None = None          # no answer: what happened instead
    events: list = field(default_factory=list)

    def answer(self, status, headers=None, body=None):
        """Records an HTTP answer: its status, ETag, and what its JSON body says."""
        self.status = status
        self.etag = tag_version(header(headers, "ETag"))
        self.replayed = header(headers, "Idempotent-Replayed") == "true"
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            self.message = body["error"].get("message")
        elif isinstance(body, dict) and "events" in body:
            self.events = list(body["events"])
            self.last_event = body.get("last")
            self.truncated = bool(body.get("truncated"))
        elif isinstance(body, dict) and "version" in body:
            self.version = body["version"]
            self.last_event = body.get("lastEvent")
            self.digest = state_digest(body)
        elif body is not None and not isinstance(body, dict):
            self.message = str(body)[:200]
        self.completed = time.monotonic_ns()
        return self

    def fail(self, error):
        """Records that no answer came (a refused or broken connection, a timeout)."""
        self.error = f"{type(error).__name__}: {error}"[:200]
        self.completed = time.monotonic_ns()
        return self

    def event(self, event):
        """An event a stream delivered."""
        self.events.append(event)

    def close(self, error=None):
        """A stream ended: by the client, or by `error`."""
        if error is not None:
            self.error = f"{type(error).__name__}: {error}"[:200]
        self.completed = time.monotonic_ns()

    @property
    def observed(self):
        """The current version this answer names, if it asks for the current state: a state
        document's, a 304's, a 412's or an events page's ETag (not versions/{v}, not a replay)."""
        if self.kind == VERSION_READ or self.replayed:
            return None
        if self.status == 200:
            return self.version if self.version is not None else self.etag
        if self.status in (304, 412):
            return self.etag
        return None

    @property
    def revealed(self):
        """The highest version this answer proves committed, else None."""
        if self.kind == VERSION_READ:
            return self.requested if self.status == 200 else None
        if self.status == 200 and self.replayed:
            return self.version
        return self.observed

    @property
    def acknowledged(self):
        """A write answered 200: its version exists and holds this change."""
        return self.kind in WRITES and self.status == 200

    @property
    def outcome_unknown(self):
        """A write that may or may not have been applied: no answer (but for a refused
        connection, which sent nothing), a 503 saying so, or a proxy's 502 or 504."""
        if self.kind not in WRITES:
            return False
        if self.status is None:
            return "ConnectionRefused" not in (self.error or "")
        return (self.status == 503 and OUTCOME_UNKNOWN in (self.message or "")) or self.status in (502, 504)


@dataclass
class Fault:
    name: str
    started: int
    ended: int | None = None


class Recorder:
    """The history of a run, shared by its threads: operations in the order they were invoked,
    and the faults injected."""

    def __init__(self):
        self.origin = time.monotonic_ns()
        self.operations, self.faults = [], []
        self._lock = threading.Lock()

    def invoke(self, client, session, kind, path, action, **request):
        """A new operation, invoked now; `request` sets if_match, if_none_match, key, tag,
        requested, after or wait."""
        assert kind in KINDS, kind
        with self._lock:
            operation = Operation(len(self.operations), client, session, kind, path, action,
                                  time.monotonic_ns(), **request)
            self.operations.append(operation)
        return operation

    @contextmanager
    def fault(self, name):
        """Records `name` as a fault from entering the block to leaving it."""
        fault = Fault(name, time.monotonic_ns())
        with self._lock:
            self.faults.append(fault)
        try:
            yield fault
        finally:
            fault.ended = time.monotonic_ns()


@dataclass
class Anomaly:
    kind: str
    session: str
    message: str
    operations: list                  # the operation that broke the rule first, then its witnesses


class Floors:
    """For one set of answers: the highest version revealed by those completed before an instant,
    and the answer that revealed it first."""

    def __init__(self, revealing):
        entries = sorted(((operation.completed, operation.revealed, operation) for operation in revealing
                          if operation.revealed is not None), key=lambda entry: entry[0])
        self.times = [completed for completed, _, _ in entries]
        self.best, best = [], (0, None)
        for _, version, operation in entries:
            if version > best[0]:
                best = (version, operation)
            self.best.append(best)

    def before(self, instant):
        """(version, operation) of the highest version revealed strictly before `instant`."""
        index = bisect_left(self.times, instant)
        return self.best[index - 1] if index else (0, None)


class SessionCheck:
    """The rules above over one session's completed operations."""

    def __init__(self, session, operations):
        self.session = session
        self.operations = sorted(operations, key=lambda operation: operation.invoked)
        self.anomalies = []

    def run(self):
        self.check_contents()
        self.check_writes()
        self.check_real_time()
        self.check_followers()
        self.check_logs()
        self.check_long_polls()
        return self.anomalies

    def flag(self, kind, message, *operations):
        self.anomalies.append(Anomaly(kind, self.session, message, [op for op in operations if op is not None]))

    # --- one content per version, one event per seq ---------------------------------------------

    def check_contents(self):
        by_version, by_seq = {}, {}
        for operation in self.operations:
            if operation.digest is not None:
                if operation.etag is not None and operation.etag != operation.version:
                    self.flag("etag-mismatch", f"ETag \"{operation.etag}\" on a document of version "
                              f"{operation.version}", operation)
                first = by_version.setdefault(operation.version, operation)
                if first.digest != operation.digest:
                    self.flag("content-conflict", f"version {operation.version} answered with two "
                              f"contents ({first.digest}, {operation.digest})", operation, first)
            for event in operation.events:
                event_digest = digest(event)
                first = by_seq.setdefault(event["seq"], (event_digest, event, operation))
                if first[0] != event_digest:
                    self.flag("event-conflict", f"event {event['seq']} delivered as {first[1]} and as {event}",
                              operation, first[2])
        for operation in self.operations:
            if operation.digest is not None and operation.last_event:
                known = by_seq.get(operation.last_event)
                if known and (known[1]["version"] != operation.version or not known[1].get("final")):
                    self.flag("log-mismatch", f"version {operation.version} ends at event {operation.last_event}, "
                              f"which is {known[1]}", operation, known[2])

    # --- every acknowledged write is exactly one version ------------------------------------------

    def check_writes(self):
        makers, versions_of_key = defaultdict(dict), defaultdict(dict)
        for operation in self.operations:
            if not operation.acknowledged:
                continue
            if operation.key is not None:
                versions_of_key[operation.key].setdefault(operation.version, operation)
            if not operation.replayed:
                identity = operation.key if operation.key is not None else operation.index
                makers[operation.version].setdefault(identity, operation)
            if operation.if_match is not None and not operation.replayed and operation.version != operation.if_match + 1:
                self.flag("lost-update", f"If-Match \"{operation.if_match}\" applied as version {operation.version}",
                          operation)
        for version, writes in makers.items():
            if len(writes) > 1:
                self.flag("doubled-version", f"{len(writes)} writes acknowledged as version {version}",
                          *writes.values())
        for key, answers in versions_of_key.items():
            if len(answers) > 1:
                self.flag("applied-twice", f"Idempotency-Key {key} answered versions {sorted(answers)}",
                          *answers.values())

    # --- real-time order, monotonic reads ---------------------------------------------------------

    def check_real_time(self):
        everyone = Floors(self.operations)
        writes = Floors(operation for operation in self.operations if operation.acknowledged)
        by_client = defaultdict(list)
        for operation in self.operations:
            by_client[operation.client].append(operation)
        clients = {client: Floors(operations) for client, operations in by_client.items()}
        for operation in self.operations:
            if operation.kind == VERSION_READ:
                self.check_version_read(operation, everyone)
            elif operation.observed is not None:
                self.check_current(operation, writes, clients[operation.client], everyone)

    def check_current(self, operation, writes, own, everyone):
        """An answer naming the current version, against what was revealed before it started."""
        observed, new_write = operation.observed, operation.kind in WRITES and operation.status == 200
        stale = STALE["412" if operation.status == 412 else operation.kind]

        def older(floor):
            return observed <= floor if new_write else observed < floor

        if operation.kind == LONG_POLL and operation.status == 200 and operation.if_none_match is not None \
                and observed < operation.if_none_match:
            self.flag(stale, f"a long poll with If-None-Match \"{operation.if_none_match}\" answered version {observed}",
                      operation, self.revealer(operation, operation.if_none_match))
            return
        if operation.status == 304 and operation.if_none_match is not None and observed != operation.if_none_match:
            self.flag("etag-mismatch", f"304 for If-None-Match \"{operation.if_none_match}\" names version {observed}",
                      operation)
            return
        if operation.status == 412 and observed == operation.if_match:
            self.flag("contradictory-412", f"412 for If-Match \"{operation.if_match}\" names that very version",
                      operation)
            return
        for floors, kind, what in ((writes, stale, "a write acknowledged"),
                                   (own, stale if new_write else "backwards-read", "this client's earlier answer"),
                                   (everyone, stale, "an answer")):
            floor, witness = floors.before(operation.invoked)
            if floor and older(floor):
                verb = "made version" if new_write else "answered version"
                self.flag(kind, f"{verb} {observed} after {what} of version {floor} had completed",
                          operation, witness)
                return
        if operation.kind == EVENTS_READ:
            self.check_events_read_covers(operation, writes)

    def check_events_read_covers(self, operation, writes):
        """An events page must reach the final event of every version acknowledged before it."""
        floor, witness = writes.before(operation.invoked)
        if witness is not None and witness.last_event and operation.last_event is not None \
                and operation.last_event < witness.last_event:
            self.flag("stale-events-read", f"events page says last is {operation.last_event}, after version "
                      f"{floor} ending at event {witness.last_event} was acknowledged", operation, witness)

    def check_version_read(self, operation, everyone):
        floor, witness = everyone.before(operation.invoked)
        if operation.status == 404 and operation.requested <= floor:
            self.flag("missing-version", f"versions/{operation.requested} answered 404 ({operation.message}) after "
                      f"version {floor} was revealed", operation, witness)
        elif operation.status == 200 and operation.version != operation.requested:
            self.flag("etag-mismatch", f"versions/{operation.requested} answered version {operation.version}",
                      operation)

    def revealer(self, operation, version):
        """The client's own earlier operation that revealed `version` (how it knew of it)."""
        return next((earlier for earlier in reversed(self.operations) if earlier.client == operation.client
                     and earlier.completed is not None and earlier.completed < operation.invoked
                     and earlier.revealed == version), None)

    # --- long polls answer in time ------------------------------------------------------------------

    def check_long_polls(self):
        for operation in self.operations:
            if operation.wait is not None:
                took = (operation.completed - operation.invoked) / 1e9
                if took > operation.wait + LATE_SECONDS:
                    answer = f"answered {operation.status}" if operation.status is not None else "no answer"
                    self.flag("overdue-long-poll", f"a long poll with wait={operation.wait} took {took:.1f} s ({answer})",
                              operation)

    # --- followers --------------------------------------------------------------------------------

    def check_followers(self):
        for operation in self.operations:
            if operation.kind in (STREAM, EVENTS_READ) and (operation.kind == STREAM or operation.status == 200):
                self.check_follower(operation)

    def check_follower(self, operation):
        previous = None
        for event in operation.events:
            if previous is None:
                expected = (operation.after or 0) + 1
                resumed = f"resumed after {operation.after}, first event is {event['seq']}"
                if event["seq"] < expected:
                    self.flag("follower-repeat", resumed, operation)
                    return
                if event["seq"] > expected and not operation.truncated:
                    self.flag("follower-gap", resumed, operation)
                    return
            else:
                problem = self.follower_step(previous, event)
                if problem:
                    self.flag(problem[0], problem[1], operation)
                    return
            previous = event
        if operation.kind == EVENTS_READ and operation.last_event is not None:
            reached = previous["seq"] if previous else operation.after or 0
            if reached < operation.last_event and operation.last_event > (operation.after or 0):
                self.flag("short-events-page", f"events page after {operation.after} says last is "
                          f"{operation.last_event} (ETag \"{operation.etag}\") and its events end at {reached}", operation)

    @staticmethod
    def follower_step(previous, event):
        """What is wrong between two events one follower received in a row, else None."""
        if event["seq"] <= previous["seq"]:
            return "follower-repeat", f"event {event['seq']} after event {previous['seq']}"
        if event["seq"] > previous["seq"] + 1:
            return "follower-gap", f"event {event['seq']} after event {previous['seq']}"
        expected = previous["version"] + 1 if previous.get("final") else previous["version"]
        if event["version"] != expected:
            return "follower-gap", (f"event {event['seq']} of version {event['version']} after event "
                                    f"{previous['seq']} of version {previous['version']}"
                                    f"{' (final)' if previous.get('final') else ''}")
        return None

    # --- full logs: exactly once ------------------------------------------------------------------

    def check_logs(self):
        reported = set()
        for log in self.operations:
            if log.kind == EVENTS_READ and log.status == 200 and log.after == 0 and log.events:
                self.check_log(log, reported)

    def check_log(self, log, reported):
        blocks = defaultdict(list)
        for event in log.events:
            blocks[event["version"]].append(event)
        covered_from = log.events[0]["version"] + 1 if log.truncated else 0
        tags = defaultdict(set)
        for version, events in blocks.items():
            for event in events:
                if event.get("type") == "added" and isinstance(event.get("params"), dict) and "userId" in event["params"]:
                    tags[event["params"]["userId"]].add(version)
        writers = defaultdict(list)
        for operation in self.operations:
            if operation.kind in WRITES and operation.tag is not None:
                writers[operation.tag].append(operation)
        for tag, versions in tags.items():
            if len(versions) > 1 and ("twice", tag) not in reported:
                reported.add(("twice", tag))
                self.flag("applied-twice", f"the change tagged {tag} is in the log at versions {sorted(versions)}",
                          log, *writers.get(tag, []))
        for write in self.operations:
            if write.acknowledged and write.completed < log.invoked and write.version >= covered_from \
                    and ("lost", write.index) not in reported:
                problem = self.missing_from_log(write, blocks, tags)
                if problem:
                    reported.add(("lost", write.index))
                    self.flag("lost-write", problem, write, log)

    @staticmethod
    def missing_from_log(write, blocks, tags):
        block = blocks.get(write.version)
        if not block:
            return f"acknowledged as version {write.version}, which the log read after it does not hold"
        if write.tag is not None and write.version not in tags.get(write.tag, ()):
            return (f"acknowledged as version {write.version}, but the log holds its tag {write.tag} at "
                    f"{sorted(tags.get(write.tag, ())) or 'no version'}")
        return None


class CheckResult:
    """Counts of a history and its anomalies."""

    def __init__(self, recorder, anomalies, counts):
        self.recorder, self.anomalies, self.counts = recorder, anomalies, counts

    @property
    def ok(self):
        return not self.anomalies

    def by_kind(self):
        return Counter(anomaly.kind for anomaly in self.anomalies)

    def summary(self):
        lines = [f"history: {self.counts['operations']} operations on {self.counts['sessions']} sessions, "
                 f"{self.counts['versions']} versions, {self.counts['faults']} faults, "
                 f"{self.counts['events delivered']} events delivered"]
        for name in ("by kind", "by answer", "by path", "by fault"):
            lines.append(f"  {name}: " + ", ".join(f"{key} {value}" for key, value in sorted(self.counts[name].items())))
        lines.append(f"  writes of unknown outcome: {self.counts['unknown outcomes']}")
        lines.append("  anomalies: " + (", ".join(f"{kind} {count}" for kind, count in sorted(self.by_kind().items()))
                                        or "none"))
        return "\n".join(lines)

    def report(self, per_kind=1, context=8):
        """The summary, then an excerpt of the history around the first anomalies of each kind."""
        sections, shown = [self.summary()], Counter()
        for anomaly in self.anomalies:
            if shown[anomaly.kind] < per_kind:
                shown[anomaly.kind] += 1
                sections.append(self.excerpt(anomaly, context))
        return "\n\n".join(sections)

    def excerpt(self, anomaly, context):
        """The anomaly, its operations (marked »), the session's other operations invoked or
        completed between the first start and the last end of those (the `context` nearest to a
        start or an end of theirs; not a stream open all along), and the faults under way meanwhile."""
        involved = anomaly.operations
        start = min(operation.invoked for operation in involved)
        end = max(operation.completed or operation.invoked for operation in involved)
        instants = [instant for operation in involved for instant in (operation.invoked, operation.completed) if instant]
        overlapping = [operation for operation in self.recorder.operations
                       if operation.session == anomaly.session and operation not in involved
                       and (start <= operation.invoked <= end or start <= (operation.completed or end + 1) <= end)]
        nearest = sorted(overlapping, key=lambda operation: min(abs(operation.invoked - instant)
                                                                for instant in instants))[:context]
        lines = [f"{anomaly.kind} on session {anomaly.session}: {anomaly.message}"]
        for operation in sorted([*involved, *nearest], key=lambda operation: operation.invoked):
            lines.append(("  » " if operation in involved else "    ") + self.describe(operation))
        for fault in self.recorder.faults:
            if fault.started <= end and (fault.ended or end) >= start:
                lines.append(f"    fault: {fault.name} {self.at(fault.started)}..{self.at(fault.ended)}")
        return "\n".join(lines)

    def at(self, instant):
        return "…" if instant is None else f"{(instant - self.recorder.origin) / 1e9:.3f}s"

    def describe(self, operation):
        request = "".join([f' If-Match "{operation.if_match}"' if operation.if_match is not None else "",
                           f' If-None-Match "{operation.if_none_match}"' if operation.if_none_match is not None else "",
                           f" key {operation.key}" if operation.key else "",
                           f" tag {operation.tag}" if operation.tag and not operation.key else "",
                           f" after {operation.after}" if operation.after is not None else ""])
        if operation.status is None and operation.kind != STREAM:
            outcome = f"no answer ({operation.error})"
        else:
            outcome = " ".join(part for part in [
                str(operation.status) if operation.status is not None else "",
                f"v{operation.version}" if operation.version is not None else "",
                f'ETag "{operation.etag}"' if operation.etag is not None and operation.etag != operation.version else "",
                f"lastEvent {operation.last_event}" if operation.last_event is not None else "",
                f"content {operation.digest}" if operation.digest else "",
                "replayed" if operation.replayed else "",
                self.describe_events(operation.events) if operation.events else "",
                "truncated" if operation.truncated else "",
                f"({operation.message})" if operation.message else "",
                f"({operation.error})" if operation.error else ""] if part)
        return (f"#{operation.index} {self.at(operation.invoked)}..{self.at(operation.completed)} "
                f"{operation.client} via {operation.path}: {operation.kind} {operation.action}{request} -> {outcome}")

    @staticmethod
    def describe_events(events):
        return (f"events {events[0]['seq']}..{events[-1]['seq']} "
                f"(versions {events[0]['version']}..{events[-1]['version']})")


def count(recorder, operations):
    answers = Counter(f"no answer ({(operation.error or '').partition(':')[0]})" if operation.status is None
                      else str(operation.status) for operation in operations if operation.kind != STREAM)
    versions = defaultdict(int)
    for operation in operations:
        if operation.revealed:
            versions[operation.session] = max(versions[operation.session], operation.revealed)
    return {
        "operations": len(operations),
        "sessions": len({operation.session for operation in operations}),
        "versions": sum(versions.values()),
        "faults": len(recorder.faults),
        "events delivered": sum(len(operation.events) for operation in operations),
        "by kind": Counter(operation.kind for operation in operations),
        "by answer": answers,
        "by path": Counter(operation.path for operation in operations),
        "by fault": Counter(fault.name for fault in recorder.faults),
        "unknown outcomes": sum(operation.outcome_unknown for operation in operations),
    }


def check(recorder):
    """Every rule of the module's docstring over every session of the history; operations still
    in flight (never completed) are left out."""
    operations = [operation for operation in recorder.operations if operation.completed is not None]
    by_session = defaultdict(list)
    for operation in operations:
        by_session[operation.session].append(operation)
    anomalies = [anomaly for session, group in by_session.items() for anomaly in SessionCheck(session, group).run()]
    return CheckResult(recorder, anomalies, count(recorder, operations))


def assert_consistent(recorder, per_kind=1):
    """Checks the history, prints its counts, and fails with an excerpt around the anomalies."""
    result = check(recorder)
    print("\n" + result.summary())
    assert result.ok, result.report(per_kind)
    return result
