"""The app description changes without a restart: SIGHUP reads --app again (a valid file serves
new sessions at once, an invalid one keeps the app in use), GET /v1/app carries the version, and
--check-app validates a file for CI pipelines."""
import json
import re
import signal
import subprocess
import urllib.request

from conftest import APPS, BINARY, RunningServer


def app_file(tmp_path, name="app.json", change=None):
    app = json.loads((APPS / "basic.json").read_text())
    if change:
        change(app)
    path = tmp_path / name
    path.write_text(json.dumps(app, indent=2))
    return path


def sessions_by_version(server):
    request = urllib.request.Request(server.url + "/metrics")
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(r'^minerva_sessions_in_memory\{app_version="([0-9a-f]+)"\} (\d+)', text, re.M)
    return {version: int(count) for version, count in found if int(count)}


def reload(server, *parts):
    server.process.send_signal(signal.SIGHUP)
    assert server.logged("received SIGHUP", *parts), "".join(server.log)


def test_sighup_serves_a_changed_app_to_new_sessions_and_keeps_the_old_ones(tmp_path):
    path = app_file(tmp_path)
    server = RunningServer("--app", str(path), "--rate-limit", "0")
    try:
        before = server.request("GET", "/v1/app")[2]
        assert re.fullmatch(r"[0-9a-f]{64}", before["version"])
        old = server.create_session()
        old.op("push", {"screen": "settings"})

        # Reformatted only: the same version.
        path.write_text(json.dumps(json.loads(path.read_text()), separators=(",", ":")))
        reload(server, "serving")
        assert server.request("GET", "/v1/app")[2]["version"] == before["version"]

        # A new screen: new sessions see it at once; the old session goes on with its own app.
        app_file(tmp_path, change=lambda app: app["screens"].update({"inbox": {"presentation": "push", "title": "Inbox"}}))
        reload(server, "serving", "version")
        after = server.request("GET", "/v1/app")[2]
        assert after["version"] != before["version"] and after["screens"]["inbox"]["title"] == "Inbox"
        new = server.create_session()
        assert new.op("push", {"screen": "inbox"})["version"] == 2
        assert old.op("pop")["version"] == 3
        old.op("push", {"screen": "inbox"}, expect=422)
        # /metrics counts the sessions in memory by the app version they run
        assert sessions_by_version(server) == {before["version"]: 1, after["version"]: 1}

        # An invalid file keeps the app in use, and the log says why.
        path.write_text('{"root": {"screen": "home"}, "screens": {"home": {"presentaton": "push"}}}')
        reload(server, "cannot be served", "presentaton")
        assert server.request("GET", "/v1/app")[2]["version"] == after["version"]
        assert server.create_session().op("push", {"screen": "inbox"})["version"] == 2
    finally:
        assert server.stop() == 0


def test_check_app_validates_a_file_and_exits():
    good = subprocess.run([str(BINARY), "--check-app", str(APPS / "basic.json")], capture_output=True, text=True, timeout=30)
    assert good.returncode == 0 and re.search(r"app 'basic', \d+ screens, \d+ routes, version [0-9a-f]{64}", good.stdout), good
    bad = subprocess.run([str(BINARY), "--check-app", str(APPS / "missing.json")], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 1 and "cannot read" in bad.stderr, bad


def test_check_app_names_the_json_path_of_a_typo(tmp_path):
    path = app_file(tmp_path, change=lambda app: app["screens"]["home"].update({"presentaton": "push"}))
    result = subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert "screens.home.presentaton: unknown field; did you mean 'presentation'?" in result.stderr, result.stderr
