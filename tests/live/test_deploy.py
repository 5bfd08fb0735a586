"""compose.yaml, which no container engine here can run: it is valid under the Compose
specification's JSON Schema, it mounts the nginx configuration the live tests run, its nginx
balances exactly its instances, and nginx accepts the configuration as mounted (nginx -t)."""
import os
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from nginx import CONFIG

COMPOSE = ROOT / "compose.yaml"


def compose():
    return yaml.safe_load(COMPOSE.read_text())


def nginx_mounts():
    """The nginx service's bind mounts as {path in the container: file in the repository}."""
    mounts = {}
    for volume in compose()["services"]["nginx"]["volumes"]:
        source, target, *_ = volume.split(":")
        mounts[target] = (ROOT / source).resolve()
    return mounts


def instances():
    """The services that run Minerva Server: those built from the repository's Dockerfile."""
    return {name: service for name, service in compose()["services"].items() if service.get("build") == "."}


def test_compose_file_is_valid_under_the_compose_specification():
    checker = Path(sys.executable).parent / "check-jsonschema"
    result = subprocess.run([str(checker), "--builtin-schema", "vendor.compose-spec", str(COMPOSE)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_runs_the_nginx_configuration_of_the_tests():
    mounts = nginx_mounts()
    # the official image includes conf.d/*.conf in its http block, as tests/live/nginx.py does
    assert mounts["/etc/nginx/conf.d/default.conf"] == CONFIG.resolve()
    # minerva.conf includes its two files by relative paths: the image resolves them in /etc/nginx
    assert {"/etc/nginx/minerva-instances.conf", "/etc/nginx/minerva-listen.conf"} <= mounts.keys()


def test_compose_nginx_balances_every_instance_and_they_share_its_database():
    upstreams = Path(nginx_mounts()["/etc/nginx/minerva-instances.conf"]).read_text()
    servers = [line.split()[1].rstrip(";") for line in upstreams.splitlines() if line.startswith("server ")]
    assert sorted(servers) == sorted(f"{name}:8080" for name in instances())      # the Dockerfile's port
    assert len(servers) >= 2
    database = compose()["services"]["postgres"]["environment"]
    for name, service in instances().items():
        store = urllib.parse.urlsplit(service["environment"]["MINERVA_STORE"])
        assert (store.scheme, store.hostname, store.username, store.path) == \
            ("postgres", "postgres", database["POSTGRES_USER"], "/" + database["POSTGRES_DB"]), name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"), reason="needs root for a mount namespace")
def test_nginx_accepts_the_configuration_as_compose_mounts_it(tmp_path):
    # /etc/nginx as the image has it: its main file includes conf.d/*.conf in http, and the
    # mounted files sit at their targets. Temporary paths stay in the folder.
    prefix = tmp_path / "etc-nginx"
    (prefix / "conf.d").mkdir(parents=True)
    (prefix / "nginx.conf").write_text(
        "events {}\nhttp {\n    client_body_temp_path body;\n    proxy_temp_path proxy;\n"
        "    fastcgi_temp_path fastcgi;\n    uwsgi_temp_path uwsgi;\n    scgi_temp_path scgi;\n"
        "    include conf.d/*.conf;\n}\n")
    for target, source in nginx_mounts().items():
        shutil.copy(source, prefix / Path(target).relative_to("/etc/nginx"))
    # nginx resolves the instances' names when it reads the configuration: name them in a hosts
    # file seen only inside a mount namespace of this test's own.
    hosts = tmp_path / "hosts"
    hosts.write_text("".join(f"127.0.0.1 {name}\n" for name in instances()))
    script = f'mount --bind "{hosts}" /etc/hosts && exec nginx -t -p "{prefix}/" -c nginx.conf -e stderr'
    result = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and "test is successful" in result.stderr, result.stderr
