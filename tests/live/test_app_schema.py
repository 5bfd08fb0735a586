"""app-description.schema.json (JSON Schema draft 2020-12, for editors) and the server agree:
the demo app and every app the tests use validate; structurally invalid files are refused by
both; the checks a schema cannot express are the server's alone."""
import json
import subprocess

import jsonschema
import pytest

from conftest import APPS, BINARY, ROOT

SCHEMA = json.loads((ROOT / "app-description.schema.json").read_text())
INVALID = ROOT / "Tests" / "InvalidApps"
# Files only the server can refuse: what they get wrong is a relation between parts.
SERVER_ONLY = {
    "undeclared-screen.json", "route-step-missing-param.json", "launch-unknown-flow.json", "launch-last-can-fail.json",
    "flow-unreachable.json", "route-without-flow.json", "key-not-a-param.json", "completes-read-by-no-rule.json",
    "completing-flow-without-unless.json", "sample-cell-duplicate-id.json", "sample-cell-undeclared-screen.json",
    "sample-cell-missing-param.json", "sample-cell-unknown-node-param.json", "presented-tab-root.json", "guarded-first-tab.json",
}


def schema_errors(document):
    return list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(document))


def server_accepts(path):
    result = subprocess.run([str(BINARY), "--check-app", str(path)], capture_output=True, text=True, timeout=30)
    return result.returncode == 0, result.stderr


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_demo_app_and_every_test_app_validate(tmp_path):
    demo = subprocess.run([str(BINARY), "--print-demo-app"], capture_output=True, text=True, check=True, timeout=30).stdout
    documents = {"demo": json.loads(demo)} | {path.name: json.loads(path.read_text()) for path in APPS.glob("*.json")}
    for name, document in documents.items():
        assert schema_errors(document) == [], name
    # with "$schema" naming it, as an editor's file would, the server still serves it
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"$schema": "./app-description.schema.json", **json.loads(demo)}))
    assert server_accepts(named)[0]


@pytest.mark.parametrize("name", sorted(path.name for path in INVALID.glob("*.json")))
def test_invalid_files_are_refused_by_the_server_and_structural_ones_by_the_schema_too(name):
    path = INVALID / name
    accepted, reason = server_accepts(path)
    assert not accepted and reason, name
    if name in SERVER_ONLY:
        assert schema_errors(json.loads(path.read_text())) == [], f"{name} is structurally valid"
    else:
        assert schema_errors(json.loads(path.read_text())), f"the schema accepts {name}, which the server refuses: {reason}"
