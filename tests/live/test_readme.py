"""Runs the README's commands as printed against real servers, so the README cannot rot.

Each ```sh block in the Walkthrough section runs in one bash process, in order; its output
must equal the ```json block after it (compared as JSON values, one per line or document). Every
other command block the README prints (```sh, ```bash, ```sql) is run by a test below and its
outcome checked, or COMMAND_BLOCKS says why no test can run it; a new block without either fails.
So does a flag of `--help` that the README's table leaves out, or one it lists that the server
does not know.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from datetime import datetime, timezone

import pytest

from conftest import ROOT, Client, RunningServer
from postgres import PostgresCluster

# One at a time, after the parallel tests (scripts/test.sh): the README's commands signal every
# minerva-server (pkill -HUP) and wait for streams by the clock.
pytestmark = pytest.mark.serial

README = (ROOT / "README.md").read_text()
BINARY = ROOT / ".build" / "release" / "minerva-server"

# Every command block outside the walkthrough, by the start of its first line: the test that runs
# it as printed, or why none can.
COMMAND_BLOCKS = {
    "scripts/run-demo.sh ": "test_the_demo_command_serves_the_demo_app",
    "scripts/test.sh unit": "test_the_test_command_runs_the_jobs_it_is_given",
    "cat > my-app.json": "test_your_own_app_is_written_checked_and_served_as_printed",
    ".build/release/minerva-server --check-app app.json": "test_the_app_reload_commands_run_as_written",
    ".build/release/minerva-server --check-app tests/live/apps/coffee.json": "test_the_experiment_commands_print_what_the_readme_shows",
    "# 2,000 people (user ids person-00000": "test_the_experiment_results_print_what_the_readme_shows",
    "# server-sent events": "test_the_three_ways_to_follow_a_session_run_as_written",
    'ADMIN="Authorization: Bearer $MINERVA_ADMIN_TOKEN"': "test_the_analytics_reports_run_as_written",
    ".build/release/minerva-server --store postgres://": "test_the_database_role_and_the_instance_commands_run_as_written",
    "CREATE ROLE minerva": "test_the_database_role_and_the_instance_commands_run_as_written",
    "pip install openapi-python-client": "test_the_client_generators_run_as_written",
    "MINERVA_WRITE_CORPUS=1 swift test": "not run: it writes Model/Corpus/ again; the unit tests run GoldenCorpusTests "
                                         "(the same code, reading the corpus) on every run",
    "docker build": "not run: it needs a container engine, which no test here has (hadolint checks the Dockerfile)",
    "POSTGRES_PASSWORD=SECRET docker compose": "not run: it needs a container engine; test_deploy.py checks compose.yaml "
                                               "against the Compose specification and runs nginx -t on what it mounts",
}


def command_blocks():
    """Every ```sh, ```bash and ```sql block outside the walkthrough, in order."""
    before, rest = README.split("## Walkthrough", 1)
    after = rest.split("\n## ", 1)[1]
    return [body for text in (before, after) for body in re.findall(r"```(?:sh|bash|sql)\n(.*?)```", text, re.S)]


def command_block(start):
    """The command block whose first line starts with `start`."""
    found = [block for block in command_blocks() if block.startswith(start)]
    assert len(found) == 1, (start, found)
    return found[0]


def commands(block):
    """The block's command lines, without comment lines and each line's trailing comment."""
    lines = [line.split("  #", 1)[0].strip() for line in block.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


class ShellServer(Client):
    """A server started by a shell command as the README prints it (in a process group of its
    own, as a terminal would), found at the address its log line names."""

    def __init__(self, command, environment=None, timeout=30):
        self.process = subprocess.Popen(["bash", "-c", command], cwd=ROOT, env={**os.environ, **(environment or {})},
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.log = []
        listening = threading.Event()

        def read():
            for line in self.process.stdout:
                self.log.append(line)
                match = re.search(r"listening on (http://[^\s\"]+)", line)
                if match and not listening.is_set():
                    self.url = match.group(1)
                    listening.set()
        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not listening.wait(0.1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"{command} did not start: {''.join(self.log)}")

    def stop(self):
        """SIGTERM to the command's process group, as Ctrl-C would; then its exit code."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
        return self.process.wait(timeout=30)


def walkthrough_blocks():
    section = README.split("## Walkthrough", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(sh|json)\n(.*?)```", section, re.S)
    pairs = []
    for index, (kind, body) in enumerate(blocks):
        if kind == "sh":
            expected = blocks[index + 1][1] if index + 1 < len(blocks) and blocks[index + 1][0] == "json" else None
            pairs.append((body, expected))
    return pairs


def json_values(text):
    """Every JSON value in `text`, in order (values may span lines)."""
    decoder, values, position = json.JSONDecoder(), [], 0
    text = text.strip()
    while position < len(text):
        value, end = decoder.raw_decode(text, position)
        values.append(value)
        position = end
        while position < len(text) and text[position].isspace():
            position += 1
    return values


def test_readme_walkthrough(demo_server):
    pairs = walkthrough_blocks()
    assert len(pairs) >= 6
    marker = "@@walkthrough-block@@"
    script = "set -euo pipefail\n" + "".join(f"{body}\necho {marker}\n" for body, _ in pairs)
    with tempfile.TemporaryDirectory() as directory:
        result = subprocess.run(["bash", "-c", script], cwd=directory, capture_output=True, text=True,
                                env={**os.environ, "MINERVA": demo_server.url}, timeout=60)
        assert result.returncode == 0, result.stderr
        assert os.listdir(directory) == [], "the walkthrough leaves files behind"
    outputs = result.stdout.split(marker + "\n")[:-1]
    assert len(outputs) == len(pairs)
    for (command, expected), output in zip(pairs, outputs):
        if expected is None:
            assert output.strip() == "", command
        else:
            assert json_values(output) == json_values(expected), f"{command}\n---\n{output}"


def test_the_app_reload_commands_run_as_written(tmp_path):
    """The README's "Changing the app" commands, run as printed from a folder holding app.json
    and the build (a link to the repository's .build): the check passes, the signal reloads the
    file, and the version printed is the new one."""
    block = command_block(".build/release/minerva-server --check-app app.json")
    app = tmp_path / "app.json"
    app.write_text(subprocess.run([str(BINARY), "--print-demo-app"], capture_output=True, text=True, check=True).stdout)
    (tmp_path / ".build").symlink_to(ROOT / ".build")
    server = RunningServer("--app", str(app), "--rate-limit", "0")
    try:
        before = server.request("GET", "/v1/app")[2]["version"]
        document = json.loads(app.read_text())
        document["screens"]["home"]["title"] = "Home, reloaded"
        app.write_text(json.dumps(document))
        # the signal is asynchronous: the version is read again until it moves, for at most 10 s
        script = block + '\nfor _ in $(seq 100); do [ "$(curl -s $MINERVA/v1/app | jq -r .version)" != "$BEFORE" ] && break; sleep 0.1; done\n'
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                                env={**os.environ, "MINERVA": server.url, "BEFORE": before}, timeout=60)
        assert result.returncode == 0, result.stderr
        checked, printed = result.stdout.splitlines()[0], result.stdout.splitlines()[-1]
        after = server.request("GET", "/v1/app")[2]
        assert checked.startswith("app.json: app 'demo'") and after["version"] in checked
        assert after["version"] != before and after["screens"]["home"]["title"] == "Home, reloaded"
        assert printed == before or printed == after["version"]     # printed once, before or after the reload
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_the_experiment_commands_print_what_the_readme_shows():
    """The "Flow experiments" commands, run as printed from the repository against a server of
    coffee.json: the output is the text block after them, line for line (the session's variants
    come from the hash of "ada" and of its id, so only the check's lines and the shapes match)."""
    block = command_block(".build/release/minerva-server --check-app tests/live/apps/coffee.json")
    printed = README.split(block, 1)[1].split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    server = RunningServer("--app", str(ROOT / "tests/live/apps/coffee.json"), "--rate-limit", "0")
    try:
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=ROOT, capture_output=True, text=True,
                                env={**os.environ, "MINERVA": server.url}, timeout=60)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[:7] == printed[:7]
        experiments, assigned, exposed = json.loads(lines[7]), json.loads(lines[8]), json.loads(lines[9])
        assert experiments["short-onboarding"] == {"variant": "short"} and set(experiments) == {"cart-pushed", "short-onboarding"}
        assert [entry["experiment"] for entry in assigned] == ["cart-pushed", "short-onboarding"]
        assert exposed == {"type": "exposed", "experiment": "cart-pushed", "variant": experiments["cart-pushed"]["variant"]}
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_the_experiment_results_print_what_the_readme_shows():
    """The results commands of "Flow experiments", run as printed against a server of coffee.json
    with an admin token: the seeded population and the hash make the same figures every time, so
    the output is the text block after them, line for line."""
    block = command_block("# 2,000 people (user ids person-00000")
    printed = README.split(block, 1)[1].split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    server = RunningServer("--app", str(ROOT / "tests/live/apps/coffee.json"), "--rate-limit", "0", "--admin-token", "readme-admin")
    try:
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=ROOT, capture_output=True, text=True,
                                env={**os.environ, "MINERVA": server.url, "MINERVA_ADMIN_TOKEN": "readme-admin"}, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == printed
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_every_command_block_is_run_or_says_why_not():
    blocks = command_blocks()
    for block in blocks:
        handlers = [start for start in COMMAND_BLOCKS if block.startswith(start)]
        assert len(handlers) == 1, f"a README command block no test runs (add it to COMMAND_BLOCKS):\n{block}"
    for start, handler in COMMAND_BLOCKS.items():
        assert any(block.startswith(start) for block in blocks), f"COMMAND_BLOCKS names a block the README no longer has: {start}"
        assert handler.startswith("not run: ") or callable(globals().get(handler)), handler


def test_the_readme_lists_every_flag_of_help_and_no_other():
    """`.build/release/minerva-server --help` lists every flag, as the Configuration section says;
    its table names each of them once."""
    shown = subprocess.run([str(BINARY), "--help"], capture_output=True, text=True, check=True, timeout=30).stdout
    flags = set(re.findall(r"^\s+(--[a-z-]+)", shown, re.M)) - {"--help"}
    table = README.split("| flag | default | meaning |", 1)[1].split("\n\n", 1)[0]
    listed = re.findall(r"^\| `(--[a-z-]+)[^`]*`(?:, `(--[a-z-]+)`)?", table, re.M)
    documented = [flag for row in listed for flag in row if flag]
    assert sorted(documented) == sorted(flags)


def test_the_demo_command_serves_the_demo_app():
    """`scripts/run-demo.sh` installs what is missing, builds and serves the built-in demo app.
    It runs with `--port 0 --store memory` added, which the README says it passes on: a test cannot
    count on port 8080 being free (the user's demo may hold it, as the README allows), and the
    default store file is the user's. `scripts/test.sh`, the block's other line, is the command
    that runs this test."""
    demo, test = commands(command_block("scripts/run-demo.sh "))
    assert (demo, test) == ("scripts/run-demo.sh", "scripts/test.sh")
    assert "`scripts/run-demo.sh` passes its arguments on" in README
    server = ShellServer(f"{demo} --port 0 --store memory", timeout=900)  # time for a build when the sources changed
    try:
        assert server.url.startswith("http://127.0.0.1:")
        app = server.request("GET", "/v1/app")[2]
        assert app["name"] == "demo" and app["screens"]["home"]["sampleList"]["sections"]
        session = server.create_session()
        assert (session.state["flow"], session.state["root"]["children"][0]["screen"]) == ("onboarding", "welcome")
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_your_own_app_is_written_checked_and_served_as_printed(tmp_path):
    """"Next: your own app", run as printed from a folder with the clone's `.build` and `scripts`
    (links): the file is written, the check prints what the README says, and `run-demo.sh` serves
    it (with `--port 0 --store memory` added, as for the demo command): its first screen, a tap
    that brings the note's list with the node (`:noteId` filled in), the deep link the README
    names; the mistake the README quotes is refused with its words; git ignores the file."""
    block = command_block("cat > my-app.json")
    heredoc, rest = block.split("\nEOF\n", 1)
    check, serve = commands(rest)
    for name in (".build", "scripts"):
        (tmp_path / name).symlink_to(ROOT / name)
    written = subprocess.run(["bash", "-euo", "pipefail", "-c", heredoc + "\nEOF\n" + check], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
    assert written.returncode == 0, written.stderr
    promised = re.search(r'# exit 0: "(.*) …"', rest).group(1)
    assert re.fullmatch(re.escape(promised) + r" [0-9a-f]{64}", written.stdout.strip()), written.stdout

    mistake = json.loads((tmp_path / "my-app.json").read_text())
    mistake["screens"]["note"]["sampleList"]["sections"][0]["items"][0]["content"]["navigate"]["screen"] = "editt"
    (tmp_path / "my-app.json").write_text(json.dumps(mistake))
    refused = subprocess.run(["bash", "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    quoted = re.search(r"\(a cell naming `editt` says\n`(.*?)`\)", README, re.S).group(1)
    assert refused.returncode == 1 and refused.stderr.strip() == quoted, refused.stderr
    assert subprocess.run(["git", "check-ignore", "-q", "my-app.json"], cwd=ROOT).returncode == 0

    subprocess.run(["bash", "-c", heredoc + "\nEOF\n"], cwd=tmp_path, check=True)
    server = ShellServer(f"cd {tmp_path} && {serve} --port 0 --store memory", timeout=900)
    try:
        assert server.request("GET", "/v1/app")[2]["name"] == "notes"
        session = server.create_session()
        notes = session.state["focus"]
        assert session.state["root"]["children"][0]["screen"] == "notes"
        state = session.op("navigate", {"from": notes, "screen": "note", "params": {"noteId": "groceries"}, "sampleLists": True})
        status, _, listed = session.call("GET", f"/nodes/{state['focus']}/list")
        assert status == 200 and listed["sections"][0]["items"][0]["content"]["navigate"] == {
            "screen": "edit", "params": {"noteId": "groceries"}}
        assert "the deep link `/notes/ideas` in the page's bar opens a note" in " ".join(README.split())
        state = session.op("deep-link", {"url": "/notes/ideas"})
        assert next(node for node in walk(state["root"]) if node["id"] == state["focus"])["params"] == {"noteId": "ideas"}
    finally:
        assert server.stop() == 0, "".join(server.log)


def walk(node):
    """A node and its descendants, depth first."""
    yield node
    for child in node.get("children", []):
        yield from walk(child)


def test_the_test_command_runs_the_jobs_it_is_given():
    """The README's quicker loops name jobs `scripts/test.sh --help` lists. Those lines run builds
    and tests for minutes (and this test is one of them), so the runner is tried with quick jobs:
    it runs what it is given and ends with their table, a failed job is named and fails the run
    without stopping the others, and an unknown job is refused before anything runs."""
    lines = commands(command_block("scripts/test.sh unit"))
    usage = subprocess.run(["scripts/test.sh", "--help"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert usage.returncode == 2
    jobs = re.search(r"^jobs: (.*) \(default", usage.stderr, re.M).group(1).split()
    assert "timing" in jobs and "build-release" in jobs
    for line in lines:
        words = line.split()
        assert words[0] == "scripts/test.sh", line
        named = words[1:words.index("--")] if "--" in words else words[1:]
        assert all(word in jobs or word == "--screenshots" for word in named) and named, line

    # not this pytest's own settings (a junit file, an xdist worker's name)
    environment = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}

    def run(*arguments):
        result = subprocess.run(["scripts/test.sh", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=600,
                                env=environment)
        table = result.stdout.split("== summary", 1)[1] if "== summary" in result.stdout else ""
        rows = {line.split()[0]: line for line in table.splitlines()[2:] if line and line.split()[0] in ["setup", *jobs]}
        return result, rows

    result, rows = run("lint", "generated")
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(rows) == ["generated", "lint", "setup", "venv"] and all(row.endswith("passed") for row in rows.values()), rows
    assert result.stdout.rstrip().endswith("all passed\njobs: 4 passed, 0 failed")

    result, rows = run("lint", "live", "--", "--no-such-pytest-flag")
    assert result.returncode == 1, result.stdout + result.stderr
    assert sorted(rows) == ["build-release", "lint", "live", "setup", "venv"], rows
    assert "failed (exit 4)" in rows["live"] and rows["lint"].endswith("passed") and rows["build-release"].endswith("passed")
    assert "FAILED: live" in result.stdout and "unrecognized arguments: --no-such-pytest-flag" in result.stdout

    refused = subprocess.run(["scripts/test.sh", "lnit"], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "no job 'lnit'" in refused.stderr and "== setup" not in refused.stdout


def test_the_three_ways_to_follow_a_session_run_as_written():
    """A session at version 7 with 6 events: the stream prints every event from the first and
    then each new one, the long poll `after=12` waits until the 13th event exists, and the state's
    wait (`If-None-Match: "7"`) until the version moves."""
    stream, long_poll, state_wait = commands(command_block("# server-sent events"))
    server = RunningServer("--rate-limit", "0")
    try:
        session = server.create_session(flags=["onboarded", "signedIn"])
        for _ in range(3):
            session.op("navigate", {"screen": "profile", "params": {"userId": "42"}})
            session.op("pop", {})
        assert (session.state["version"], session.state["lastEvent"]) == (7, 6)
        environment = {**os.environ, "MINERVA": server.url, "SESSION": session.id, "TOKEN": session.token}

        def start(command):
            return subprocess.Popen(["bash", "-c", command], env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True, start_new_session=True)
        following = [start(command) for command in (stream, long_poll, state_wait)]
        time.sleep(1)
        assert [process.poll() for process in following[1:]] == [None, None], "both wait for a change"
        session.op("navigate", {"screen": "profile", "params": {"userId": "42"}})        # version 8, event 7
        moved = json.loads(following[2].communicate(timeout=10)[0])
        assert (moved["version"], moved["lastEvent"]) == (8, 7)
        assert following[1].poll() is None, "the long poll waits for an event after 12"
        for _ in range(3):
            session.op("pop", {})
            session.op("navigate", {"screen": "profile", "params": {"userId": "42"}})     # events 8 to 13
        page = json.loads(following[1].communicate(timeout=10)[0])
        assert [event["seq"] for event in page["events"]] == [13] and page["last"] == 13
        time.sleep(0.5)
        os.killpg(following[0].pid, signal.SIGTERM)
        frames = following[0].communicate(timeout=10)[0]
        assert [int(seq) for seq in re.findall(r"^id: (\d+)$", frames, re.M)] == list(range(1, 14))
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_the_analytics_reports_run_as_written():
    """The three reports on the demo app with the admin token in MINERVA_ADMIN_TOKEN, after a
    session went home → profile → followers."""
    token = "readme-admin"
    server = RunningServer("--rate-limit", "0", environment={"MINERVA_ADMIN_TOKEN": token})
    try:
        session = server.create_session(flags=["onboarded", "signedIn"])
        session.op("deep-link", {"url": "/users/42/followers"})
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", command_block('ADMIN="Authorization')], capture_output=True,
                                text=True, timeout=60, env={**os.environ, "MINERVA": server.url, "MINERVA_ADMIN_TOKEN": token})
        assert result.returncode == 0, result.stderr
        screens, funnel, flows = json_values(result.stdout)
        since = datetime.fromisoformat(re.search(r"since=([0-9TZ:-]+)", README).group(1).replace("Z", "+00:00"))
        if datetime.now(timezone.utc) > since:                   # the README's date is in the past
            assert {"home", "profile", "followers"} <= {row["screen"] for row in screens["screens"]}
        assert [(step["screen"], step["sessions"]) for step in funnel["steps"]] == [("home", 1), ("profile", 1), ("followers", 1)]
        assert flows["flows"] == []                                 # no flow finished
    finally:
        assert server.stop() == 0, "".join(server.log)


def test_the_database_role_and_the_instance_commands_run_as_written(tmp_path):
    """The README's SQL, run as printed by a superuser of a private cluster whose database `app`
    stands for one the role does not own; then its instance commands, with the cluster's address
    for db.internal's and `--port 0` added (a test cannot count on port 8080): both instances serve
    one session. The role works in the database it was granted too."""
    cluster = PostgresCluster.create(database="app")
    instances = []
    try:
        sql = command_block("CREATE ROLE minerva")
        result = subprocess.run([*cluster.psql("app"), "-f", "-"], input=sql, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        address = f"127.0.0.1:{cluster.port}"
        for command in commands(command_block(".build/release/minerva-server --store postgres://")):
            assert "db.internal" in command
            command = command.replace("db.internal:5432", address).replace("db.internal", address)
            instances.append(ShellServer(command + " --port 0"))
        session = instances[0].create_session()
        session.op("navigate", {"screen": "signUp"})
        assert session.on(instances[1]).get() == session.state
        granted = commands(command_block(".build/release/minerva-server --store postgres://"))[0]
        granted = granted.replace("db.internal:5432/minerva", f"{address}/app")
        instances.append(ShellServer(granted + " --port 0"))
        assert instances[-1].create_session().state["version"] == 1
    finally:
        stopped = [instance.stop() for instance in instances]
        cluster.cleanup()
    assert stopped == [0] * len(instances)


def test_the_client_generators_run_as_written(tmp_path):
    """In a folder holding a copy of openapi.yaml, within the tests' virtual environment (first on
    PATH, as `. .venv/bin/activate` puts it): the packages are there already, so pip installs
    nothing, and each generator writes its client there."""
    shutil.copy(ROOT / "openapi.yaml", tmp_path / "openapi.yaml")
    venv = ROOT / ".venv" / "bin"
    block = command_block("pip install openapi-python-client")
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PATH": f"{venv}:{os.environ['PATH']}", "VIRTUAL_ENV": str(venv.parent)})
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert list(tmp_path.glob("*/*/__init__.py")), sorted(path.name for path in tmp_path.iterdir())  # the Python package
    assert (tmp_path / "client-ts" / "apis").is_dir() and (tmp_path / "client-ts" / "runtime.ts").is_file()


@pytest.fixture(autouse=True)
def _no_stray_files():
    """The README's commands leave nothing behind in the repository."""
    before = set(os.listdir(ROOT))
    yield
    assert set(os.listdir(ROOT)) - before == set()
