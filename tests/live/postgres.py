"""A private PostgreSQL cluster in a temporary folder, on a free loopback port: for the unit tests
(scripts/test.sh runs this file) and the live tests of the PostgreSQL store (imported).

No database runs on CI, and a fault test must be free to stop or freeze its database without
disturbing any other test, so every user of PostgreSQL starts a cluster of its own. Debian keeps
initdb and pg_ctl off PATH, under /usr/lib/postgresql/VERSION/bin; both refuse to run as root,
so as root they run as the `postgres` user, who owns the folder.

    python3 tests/live/postgres.py start     prints "FOLDER URL" of a new cluster
    python3 tests/live/postgres.py stop FOLDER
"""
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

AS_ROOT = os.geteuid() == 0


def binaries():
    """The newest installed version's bin folder (Debian's layout)."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(path.parts[-3]))
    if not versions:
        raise RuntimeError("PostgreSQL is not installed: run scripts/setup.sh --test")
    return versions[-1].parent


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresCluster:
    """A cluster in `folder` (data in folder/data, its socket and log beside it) on `port`."""

    def __init__(self, folder, port=None, database="minerva"):
        self.folder, self.port, self.database = Path(folder), port, database
        self.data = self.folder / "data"
        self.bin = binaries()
        self.frozen = []

    @classmethod
    def create(cls, database="minerva"):
        """initdb, start and CREATE DATABASE; the folder is removed again if any step fails."""
        cluster = cls(tempfile.mkdtemp(prefix="minerva-pg-"), free_port(), database)
        try:
            if AS_ROOT:
                shutil.chown(cluster.folder, "postgres", "postgres")
            # --no-sync: a test cluster need not survive a power cut, and initdb's fsyncs cost seconds
            cluster._run("initdb", "-D", str(cluster.data), "-A", "trust", "-U", "postgres", "--no-sync")
            cluster._start_on_a_free_port()
            cluster.sql(f'CREATE DATABASE "{database}"', database="postgres")
        except BaseException:
            cluster.cleanup()
            raise
        return cluster

    def _run(self, program, *args):
        command = [str(self.bin / program), *args]
        if AS_ROOT:
            command = ["su", "postgres", "-s", "/bin/sh", "-c", shlex.join(command)]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed ({result.returncode}): {result.stdout}{result.stderr}{self.log_tail()}")
        return result.stdout

    def url(self, database=None):
        return f"postgres://postgres@127.0.0.1:{self.port}/{database or self.database}"

    def start(self):
        """Starts the cluster on its port (again, after stop: same port, so URLs stay valid)."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-t", "60", "-o", options, "start")

    def _start_on_a_free_port(self, attempts=5):
        """Starts the cluster for the first time. A free port can be taken by another process
        (a test running beside this one) between `free_port` and the postmaster's bind: then
        another port is tried."""
        for attempt in range(attempts):
            try:
                self.start()
                return
            except RuntimeError as error:
                if attempt == attempts - 1 or "Address already in use" not in str(error):
                    raise
                self.port = free_port()

    def stop(self, mode="immediate"):
        """`immediate` drops every connection at once, as a crash would; `fast` shuts down cleanly."""
        self.thaw()
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self):
        return (self.data / "postmaster.pid").exists()

    def processes(self):
        """The postmaster's pid, then its children's (backends, checkpointer, walwriter …)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            try:
                status = (entry / "status").read_text()
            except (OSError, ValueError):
                continue                                         # not a process, or it just ended
            if f"\nPPid:\t{postmaster}\n" in status:
                children.append(int(entry.name))
        return [postmaster, *children]

    def freeze(self):
        """SIGSTOP the postmaster, then its children: the database hangs, connections stay open
        and new ones are accepted by the kernel but never answered, as on a hung host.
        The postmaster first, so that it forks no child that would escape."""
        assert not self.frozen, "already frozen"
        postmaster = self.processes()[0]
        os.kill(postmaster, signal.SIGSTOP)
        self.frozen = [postmaster]
        for pid in self.processes()[1:]:
            try:
                os.kill(pid, signal.SIGSTOP)
                self.frozen.append(pid)
            except ProcessLookupError:
                pass

    def thaw(self):
        for pid in reversed(self.frozen):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.frozen = []

    def sql(self, query, database=None):
        """Runs `query` through psql over TCP and returns its rows as lists of strings."""
        result = subprocess.run([*self.psql(database), "-c", query], capture_output=True, text=True, timeout=30)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {query}\n{result.stderr}")
        return [line.split("\t") for line in result.stdout.splitlines()]

    def psql(self, database=None):
        return [str(self.bin / "psql"), "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database or self.database]

    def lock_every_row(self):
        """A psql process whose open transaction holds FOR UPDATE on every row of every table:
        writes to those rows wait, plain reads do not. Closing its stdin ends it, and its
        transaction rolls back. Lets a test hold a write in flight for as long as it likes."""
        tables = [row[0] for row in self.sql(
            "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables "
            "WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")]
        holder = subprocess.Popen(self.psql(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        holder.stdin.write("BEGIN;\n" + "".join(f"SELECT count(*) FROM (SELECT FROM {table} FOR UPDATE) AS locked;\n"
                                                for table in tables) + "SELECT 'all locked';\n")
        holder.stdin.flush()
        for line in holder.stdout:
            if line.strip() == "all locked":
                return holder
        raise RuntimeError(f"psql could not lock the rows ({holder.wait()})")

    def waiting_for_locks(self, application_name):
        """How many connections of that application_name wait for a lock now."""
        return int(self.sql("SELECT count(*) FROM pg_stat_activity "
                            f"WHERE application_name = '{application_name}' AND wait_event_type = 'Lock'")[0][0])

    def terminate(self, application_name):
        """pg_terminate_backend on every connection of that application_name; how many there were."""
        rows = self.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        f"WHERE application_name = '{application_name}'")
        return sum(row == ["t"] for row in rows)

    def connections(self, application_name):
        return int(self.sql(f"SELECT count(*) FROM pg_stat_activity WHERE application_name = '{application_name}'")[0][0])

    def log_tail(self, lines=20):
        try:
            return "\n-- postgres log:\n" + "\n".join((self.folder / "log").read_text().splitlines()[-lines:])
        except OSError:
            return ""

    def cleanup(self):
        """Stops the cluster if it runs (thawed first: a stopped process ignores the stop) and
        removes its folder."""
        try:
            if self.running():
                self.stop()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.cleanup()


def main(arguments):
    if arguments[:1] == ["start"] and len(arguments) == 1:
        cluster = PostgresCluster.create()
        print(cluster.folder, cluster.url())
    elif arguments[:1] == ["stop"] and len(arguments) == 2:
        folder = Path(arguments[1])
        if not folder.name.startswith("minerva-pg-"):                # never rm -rf a folder we did not make
            sys.exit(f"not a cluster folder of this script: {folder}")
        PostgresCluster(folder).cleanup()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
