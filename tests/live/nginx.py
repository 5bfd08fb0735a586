"""Real nginx in front of live instances, run unprivileged from a temporary folder with the
repository's deploy/nginx/minerva.conf: the configuration compose.yaml mounts."""
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from conftest import ROOT, Client
from postgres import free_port

CONFIG = ROOT / "deploy" / "nginx" / "minerva.conf"

# The main file around minerva.conf. Temporary files and logs stay in the folder: Debian's
# nginx would otherwise use /var/lib/nginx and /var/log/nginx. The access log records which
# instance answered each request, so a test can see the round-robin.
MAIN = """worker_processes 1;
events { worker_connections 1024; }
http {
    client_body_temp_path body;
    proxy_temp_path proxy;
    fastcgi_temp_path fastcgi;
    uwsgi_temp_path uwsgi;
    scgi_temp_path scgi;
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log access.log upstream;
    include %s;
}
"""


class Nginx(Client):
    """nginx on a free loopback port, balancing over `instances` (RunningServers) round-robin, or
    each session to one instance (`by_session`: minerva.conf's consistent hash on the session id).
    `url` is its address, so that Session, EventStream and `request` work through it."""

    def __init__(self, instances, by_session=False):
        self.folder = Path(tempfile.mkdtemp(prefix="minerva-nginx-"))
        # nginx's workers run as `nobody` when the master is root: they must reach the folder
        os.chmod(self.folder, 0o755)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        (self.folder / "nginx.conf").write_text(MAIN % CONFIG)
        (self.folder / "minerva-listen.conf").write_text(f"listen 127.0.0.1:{self.port};\n")
        (self.folder / "minerva-instances.conf").write_text(
            ("hash $minerva_session consistent;\n" if by_session else "")
            + "".join(f"server {instance.url.removeprefix('http://')};\n" for instance in instances))
        self.process = subprocess.Popen(
            ["nginx", "-p", f"{self.folder}/", "-c", "nginx.conf", "-e", "error.log",
             "-g", f"daemon off; pid {self.folder}/nginx.pid;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("nginx did not start: " + self.error_log())
                time.sleep(0.05)

    def error_log(self):
        path = self.folder / "error.log"
        return path.read_text() if path.exists() else ""

    def upstreams(self):
        """(path, instance address) of every request nginx passed on, in the order they ended,
        from its access log."""
        path = self.folder / "access.log"
        lines = path.read_text().splitlines() if path.exists() else []
        return [(line.split()[1], line.split()[3]) for line in lines]

    def stop(self):
        """SIGTERM: nginx's fast shutdown, which does not wait for open event streams."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
