"""The Docker image's runtime stage, run without a container engine: the Dockerfile's last stage
is rebuilt as a chroot from Debian's packages, as `docker build` would build it — debootstrap's
minbase of the stage's base (debian:bookworm-slim, read from its FROM) with the base image's apt
sources, then the stage's RUN as written (apt-get install of its pinned packages, the minerva
user and /data), then the release binary where the stage's COPY puts it. The server then runs
there as the image runs it, its ENTRYPOINT, ENV, USER and WORKDIR read from the Dockerfile: the
binary's libraries all resolve in the image, the HEALTHCHECK command passes inside it, and a
session kept in the image's SQLite store survives a restart (SIGTERM, as `docker stop` sends).

The ENTRYPOINT fixes port 8080, which something else on the machine may hold: each start of the
server gets a network namespace of its own (unshare --net, loopback up), the health check joins
it (nsenter), and the test's urllib client makes its requests from a thread that joined it
(setns). debootstrap mounts /proc and /sys in its target: it runs in a mount namespace of its
own, so that no mount outlives it however it ends; the root file system is a temporary folder,
removed after the tests. debootstrap comes from scripts/setup.sh --test-packages; the two
downloads (minbase, then the stage's packages with apt's indexes) are about 50 MB from
deb.debian.org, checked against Debian's archive keyring."""
import ctypes
import fnmatch
import itertools
import json
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import BINARY, ROOT, Client

DOCKERFILE = ROOT / "Dockerfile"
MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
# What the debian:SUITE-slim base image brings that apt reads: its sources (the release, its
# updates and its security updates, where the pins' +deb12uN rebuilds are) and no translations.
BASE_IMAGE_FILES = {
    "etc/apt/sources.list.d/debian.sources": """\
Types: deb
URIs: http://deb.debian.org/debian
Suites: {suite} {suite}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: {suite}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
""",
    "etc/apt/apt.conf.d/docker-no-languages": 'Acquire::Languages "none";\n',
}
# Docker's PATH in a container whose image sets none
DOCKER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CLONE_NEWNET = 0x40000000


@dataclass
class RuntimeStage:
    """What the Dockerfile's last stage says about the image it builds."""
    base: str
    runs: list = field(default_factory=list)          # (shell command, the ENV set before it)
    copies: list = field(default_factory=list)        # each COPY's words
    environment: dict = field(default_factory=dict)
    user: str = "root"
    workdir: str = "/"
    entrypoint: list = field(default_factory=list)
    healthcheck: list = field(default_factory=list)


def instructions(text):
    """Dockerfile text's instructions as (KEYWORD, arguments): lines continued by a trailing
    backslash joined as Docker joins them, comment lines (also inside a continuation) dropped."""
    found, continued = [], ""
    for line in text.splitlines():
        line = line.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            continued += line[:-1]
            continue
        keyword, _, arguments = (continued + line).strip().partition(" ")
        found.append((keyword.upper(), arguments.strip()))
        continued = ""
    return found


def runtime_stage(text):
    """The last FROM stage of Dockerfile text: the stage the image runs."""
    steps = instructions(text)
    start = max(index for index, (keyword, _) in enumerate(steps) if keyword == "FROM")
    stage = RuntimeStage(base=steps[start][1].split()[0])
    for keyword, arguments in steps[start + 1:]:
        if keyword == "RUN":
            assert stage.user == "root", "a RUN after USER: this test runs the stage's RUN as root"
            stage.runs.append((arguments, dict(stage.environment)))
        elif keyword == "COPY":
            stage.copies.append(arguments.split())
        elif keyword == "ENV":
            pairs = shlex.split(arguments)
            assert all("=" in pair for pair in pairs), f"ENV {arguments}: only ENV KEY=VALUE is read here"
            stage.environment.update(pair.split("=", 1) for pair in pairs)
        elif keyword == "USER":
            stage.user = arguments
        elif keyword == "WORKDIR":
            stage.workdir = arguments
        elif keyword == "ENTRYPOINT":
            stage.entrypoint = json.loads(arguments)
        elif keyword == "HEALTHCHECK":
            stage.healthcheck = json.loads(re.search(r"\bCMD\s+(.*)", arguments).group(1))
        else:
            assert keyword in ("VOLUME", "EXPOSE", "LABEL"), f"{keyword} in the runtime stage: this test does not run it"
    return stage


def debian_suite(stage):
    """The Debian release of the stage's base image (debian:bookworm-slim → bookworm)."""
    match = re.fullmatch(r"debian:([a-z]+)-slim", stage.base)
    assert match, f"the runtime stage's base is {stage.base}, not a debian:SUITE-slim image"
    return match.group(1)


def pinned_packages(stage):
    """The packages the stage's RUN installs with `apt-get install`, as {name: version pin}."""
    packages = {}
    for command, _ in stage.runs:
        words = shlex.split(command)
        for start, pair in enumerate(zip(words, words[1:])):
            if pair != ("apt-get", "install"):
                continue
            for word in itertools.takewhile(lambda word: word not in ("&&", "||", ";"), words[start + 2:]):
                if not word.startswith("-"):
                    name, _, pin = word.partition("=")
                    packages[name] = pin
    return packages


def binary_destination(stage):
    """Where the stage's COPY puts the server binary."""
    (copy,) = [words for words in stage.copies if words[-2].endswith("/minerva-server")]
    return copy[-1]


def run(command, what, timeout, environment=None):
    """Runs `command` to its end and returns its output; fails with `what` and the output's end
    unless it exits 0."""
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            timeout=timeout, env=environment)
    tail = "\n".join(result.stdout.splitlines()[-30:])
    assert result.returncode == 0, f"{what} failed (exit {result.returncode}): {shlex.join(command)}\n{tail}"
    return result.stdout


def build_image(rootfs, stage):
    """Builds the stage's root file system in `rootfs` as `docker build` would: its base, its RUN
    (as root, in Docker's environment), its COPY of the release binary."""
    debootstrap = shutil.which("debootstrap")
    assert debootstrap, "debootstrap is not installed: scripts/setup.sh --test-packages installs it (apt-get install debootstrap)"
    suite = debian_suite(stage)
    run(["unshare", "--mount", "--propagation", "private",
         debootstrap, "--variant=minbase", f"--keyring={KEYRING}", suite, str(rootfs), MIRROR],
        f"debootstrap of {suite}", timeout=1200)
    # debootstrap's index of the release stays in /var/lib/apt/lists: the RUN's apt-get update
    # fetches it again only if the archive's changed since
    (rootfs / "etc/apt/sources.list").unlink()
    for path, text in BASE_IMAGE_FILES.items():
        (rootfs / path).write_text(text.format(suite=suite))
    for command, environment in stage.runs:
        run(["chroot", str(rootfs), "/bin/sh", "-c", command], "the runtime stage's RUN", timeout=900,
            environment={"PATH": DOCKER_PATH, "HOME": "/root", **environment})
    shutil.copy2(BINARY, rootfs / binary_destination(stage).lstrip("/"))


def image_environment(rootfs, stage):
    """The environment a process of the image gets: Docker's PATH, HOME from the USER's
    /etc/passwd entry (/ without one), the stage's ENV."""
    uid = stage.user.split(":")[0]
    home = next((fields[5] for fields in (line.split(":") for line in (rootfs / "etc/passwd").read_text().splitlines())
                 if uid in (fields[0], fields[2])), "/")
    return {"PATH": DOCKER_PATH, "HOME": home, **stage.environment}


def as_the_image_runs(rootfs, stage, command):
    """`command` run in `rootfs` as the image runs its processes: as its USER, in its WORKDIR."""
    return ["chroot", f"--userspec={stage.user}", str(rootfs), "env", f"--chdir={stage.workdir}", *command]


def join_network_namespace(pid):
    """Moves the calling thread into the network namespace of process `pid`."""
    libc = ctypes.CDLL(None, use_errno=True)
    with open(f"/proc/{pid}/ns/net") as namespace:
        if libc.setns(namespace.fileno(), CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), f"setns into the network namespace of {pid}")


class ImageServer(Client):
    """The server started in the image by its ENTRYPOINT, in a network namespace of its own; its
    requests (conftest's Client) are made from a thread in that namespace."""

    def __init__(self, rootfs, stage, log_path):
        self.rootfs, self.stage, self.log_path = rootfs, stage, log_path
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh",
                 *as_the_image_runs(rootfs, stage, stage.entrypoint)],
                stdout=log, stderr=subprocess.STDOUT, env=image_environment(rootfs, stage))
        # unshare, sh, chroot and env each exec the next: the process is the server's. The thread
        # joins its namespace on the first request, once it listens.
        self.requests = ThreadPoolExecutor(1, initializer=join_network_namespace, initargs=(self.process.pid,))

    def wait_until_listening(self):
        """Waits for the server's "listening on" log line and takes its port."""
        deadline = time.monotonic() + 20
        while not (match := re.search(r"listening on http://[^\s\"]+:(\d+)", self.log_path.read_text())):
            assert self.process.poll() is None and time.monotonic() < deadline, \
                f"the server did not start in the image:\n{self.log_path.read_text()}"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{match.group(1)}"

    def request(self, *arguments, **options):
        return self.requests.submit(Client.request, self, *arguments, **options).result()

    def in_its_network(self, command):
        """`command` (in the image, as its USER) run in the server's network namespace: its exit code."""
        return subprocess.run(["nsenter", f"--net=/proc/{self.process.pid}/ns/net",
                               *as_the_image_runs(self.rootfs, self.stage, command)],
                              env=image_environment(self.rootfs, self.stage), timeout=30).returncode

    def stop(self):
        """SIGTERM, as `docker stop` sends, then the exit code (0 for a graceful stop)."""
        self.requests.shutdown()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise


@pytest.fixture(scope="module")
def image():
    """(root file system, stage): the runtime stage built in a temporary folder, removed after
    the module's tests."""
    assert BINARY.exists(), f"build the server first: {BINARY} is missing"
    stage = runtime_stage(DOCKERFILE.read_text())
    folder = Path(tempfile.mkdtemp(prefix="minerva-image-"))
    try:
        rootfs = folder / "rootfs"
        build_image(rootfs, stage)
        yield rootfs, stage
    finally:
        shutil.rmtree(folder)


@pytest.fixture
def start(image, tmp_path):
    """Starts the server in the image (as often as a test asks); stops what is still running."""
    servers = []

    def started():
        servers.append(ImageServer(*image, tmp_path / f"server-{len(servers) + 1}.log"))
        servers[-1].wait_until_listening()
        return servers[-1]
    yield started
    for server in servers:
        server.stop()


def test_the_runtime_stage_is_debian_bookworm_slim_with_every_package_pinned():
    """The build here is of bookworm, and the binary is built on the Swift image's bookworm."""
    stage = runtime_stage(DOCKERFILE.read_text())
    assert stage.base == "debian:bookworm-slim" and debian_suite(stage) == "bookworm"
    packages = pinned_packages(stage)
    assert {"libmicrohttpd12", "libsqlite3-0", "libpq5", "curl"} <= packages.keys()
    assert all(packages.values()), f"an unpinned package: {packages}"


def test_the_image_holds_the_pinned_versions_and_every_library_of_the_binary(image):
    rootfs, stage = image
    packages = pinned_packages(stage)
    installed = run(["chroot", str(rootfs), "dpkg-query", "--show", "--showformat", "${Package} ${Version}\n", *packages],
                    "dpkg-query in the image", timeout=60)
    versions = dict(line.split() for line in installed.splitlines())
    assert all(fnmatch.fnmatchcase(versions[name], pin) for name, pin in packages.items()), (packages, versions)
    libraries = run(["chroot", str(rootfs), "ldd", binary_destination(stage)], "ldd in the image", timeout=60)
    assert "not found" not in libraries, libraries


def test_the_server_runs_as_the_images_user_and_passes_its_health_check(image, start):
    _, stage = image
    server = start()
    uid, gid = stage.user.split(":")
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    assert re.search(rf"^Uid:\s+{uid}\s", status, re.MULTILINE) and re.search(rf"^Gid:\s+{gid}\s", status, re.MULTILINE)
    assert server.in_its_network(stage.healthcheck) == 0, server.log_path.read_text()
    assert server.stop() == 0, server.log_path.read_text()


def test_a_session_survives_a_restart_in_the_images_store(image, start):
    rootfs, stage = image
    store = stage.environment["MINERVA_STORE"]
    assert store.startswith("sqlite:/"), store
    server = start()
    session = server.create_session(flags=["onboarded", "signedIn"])
    session.op("navigate", {"screen": "profile", "params": {"userId": "42"}})
    before = session.get()
    assert server.stop() == 0, server.log_path.read_text()
    database = rootfs / store.removeprefix("sqlite:/")
    assert database.stat().st_uid == int(stage.user.split(":")[0]), "the store is the image user's"

    restarted = start()
    assert session.on(restarted).get() == before
    assert restarted.stop() == 0, restarted.log_path.read_text()
