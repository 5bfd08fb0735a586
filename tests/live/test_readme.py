"""Runs the README's walkthrough against the live server, so the README cannot rot.

Each ```sh block in the Walkthrough section runs in one bash process, in order; its output
must equal the ```json block after it (compared as JSON values, one per line or document).
"""
import json
import os
import re
import subprocess
import tempfile

from conftest import ROOT, RunningServer


def walkthrough_blocks():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Walkthrough", 1)[1].split("\n## ", 1)[0]
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
    text = (ROOT / "README.md").read_text()
    block = re.search(r"Changing the app needs no restart.*?```sh\n(.*?)```", text, re.S).group(1)
    binary = ROOT / ".build" / "release" / "minerva-server"
    app = tmp_path / "app.json"
    app.write_text(subprocess.run([str(binary), "--print-demo-app"], capture_output=True, text=True, check=True).stdout)
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
