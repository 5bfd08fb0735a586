"""Runs the README's walkthrough against the live server, so the README cannot rot.

Each ```sh block in the Walkthrough section runs in one bash process, in order; its output
must equal the ```json block after it (compared as JSON values, one per line or document).
"""
import json
import os
import re
import subprocess
import tempfile

from conftest import ROOT


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
