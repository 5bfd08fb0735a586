"""The contract's examples are answers the server could give, and the closed-world copy that the
live tests check answers with (closed_contract.py) refuses what the contract does not name while
the open contract lets clients read it."""
import jsonschema
import pytest
import yaml

import closed_contract

OPEN = yaml.safe_load(closed_contract.SPEC.read_text())
CLOSED = closed_contract.closed(OPEN)


def validator(spec, schema):
    """A validator of `schema` (a schema of `spec`, whose `$ref`s it follows)."""
    return jsonschema.Draft202012Validator({**spec, **schema})


def resolved(spec, node):
    """`node`, or what its `$ref` (to a response or an example) names."""
    while "$ref" in node and not node["$ref"].startswith(closed_contract.REF):
        target = spec
        for part in node["$ref"][2:].split("/"):
            target = target[part]
        node = target
    return node


def answer_examples():
    for path, item in CLOSED["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                for media_type, content in resolved(CLOSED, response).get("content", {}).items():
                    if media_type != "application/json" or "schema" not in content:
                        continue
                    examples = [("example", content["example"])] if "example" in content else [
                        (name, resolved(CLOSED, example)["value"]) for name, example in content.get("examples", {}).items()]
                    for name, value in examples:
                        yield pytest.param(content["schema"], value, id=f"{method.upper()} {path} {status} {name}")


@pytest.mark.parametrize(("schema", "example"), list(answer_examples()))
def test_every_example_of_an_answer_fits_the_closed_contract(schema, example):
    """(Request examples sit in their schemas' `examples` and are schemathesis's first cases.)"""
    errors = [error.message for error in validator(CLOSED, schema).iter_errors(example)]
    assert not errors, errors


def test_the_closed_contract_refuses_what_the_open_one_lets_clients_skip(tabs_server):
    session = tabs_server.create_session()
    session.call("POST", "/navigate", {"screen": "profile", "params": {"userId": "1"}})
    session.call("POST", "/pop", {})
    session.call("PUT", "/nodes/n1/list", {"sections": []})
    state = session.get()
    summary = session.call("GET", "?lists=summary")[2]
    _, _, page = session.call("GET", "/events?after=0")
    _, _, error = session.call("POST", "/push", {"screen": "nowhere"})
    removed = next(event for event in page["events"] if event["type"] == "removed")
    assert removed["reason"] == "pop"
    schemas = {name: {"$ref": closed_contract.REF + name} for name in ("State", "EventsPage", "ErrorDocument")}
    for spec in (OPEN, CLOSED):
        for document, name in ((state, "State"), (summary, "State"), (page, "EventsPage"), (error, "ErrorDocument")):
            validator(spec, schemas[name]).validate(document)
    common = {key: removed[key] for key in ("seq", "version", "at")}
    later = [
        ({**state, "addedLater": True}, "State"),
        ({**state, "root": {**state["root"], "addedLater": True}}, "State"),
        ({**page, "events": [{**common, "type": "tabMoved"}]}, "EventsPage"),
        ({**page, "events": [{**removed, "reason": "swipedAway"}]}, "EventsPage"),
        ({**summary, "root": {**summary["root"], "list": {"version": 1, "count": 0, "sections": []}}}, "State"),  # two shapes
        ({"error": {**error["error"], "code": "gone_fishing"}}, "ErrorDocument"),
    ]
    for document, name in later:
        validator(OPEN, schemas[name]).validate(document)
        assert not validator(CLOSED, schemas[name]).is_valid(document), document


def test_the_app_example_is_the_demo_apps_document(demo_server):
    content = OPEN["paths"]["/v1/app"]["get"]["responses"]["200"]["content"]["application/json"]
    example = content["example"] if "example" in content else resolved(OPEN, next(iter(content["examples"].values())))["value"]
    assert demo_server.request("GET", "/v1/app")[2] == example
