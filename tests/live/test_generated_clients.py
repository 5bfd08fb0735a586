"""openapi.yaml read by the generators teams use, as it is written: the validators find nothing,
OpenAPI Generator's java, kotlin and typescript-fetch and openapi-python-client generate
without warnings, and the Python client generated from it drives a scripted session against the
real server (and reads answers of a later release, with members and event types it does not know).
"""
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
BIN = Path(sys.executable).parent

# What OpenAPI Generator 7.26 says of every OpenAPI 3.1 document, whatever it holds.
THREE_ONE_NOTICE = "OpenAPI 3.1 support is still in beta"
# (Answers' examples are in components/examples and request examples in their schemas: the
# generator warns of examples given in place, an OpenAPI 3.1 limit of its own.)


def warnings(output):
    return [line.split("WARN", 1)[1].split(" - ", 1)[1].strip() for line in output.splitlines() if " WARN " in line]


def test_openapi_generator_validates_the_document():
    result = subprocess.run([BIN / "openapi-generator-cli", "validate", "-i", SPEC], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "No validation issues detected" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("generator", ["java", "kotlin", "typescript-fetch"])
def test_openapi_generator_warns_of_nothing(generator, tmp_path):
    result = subprocess.run(
        [BIN / "openapi-generator-cli", "generate", "-i", SPEC, "-g", generator, "-o", tmp_path / generator],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr
    said = [warning for warning in warnings(result.stdout) if THREE_ONE_NOTICE not in warning]
    assert said == [], said


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The Python client openapi-python-client generates from openapi.yaml, imported."""
    folder = tmp_path_factory.mktemp("python-client")
    result = subprocess.run(
        [BIN / "openapi-python-client", "generate", "--path", SPEC, "--output-path", folder / "client", "--overwrite"],
        capture_output=True, text=True, timeout=300, env={"PATH": f"{BIN}:/usr/bin:/bin"})
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(folder / "client"))
    try:
        yield result.stdout + result.stderr
    finally:
        sys.path.remove(str(folder / "client"))


def test_openapi_python_client_warns_of_nothing(generated):
    assert "Warning" not in generated and "Unable to process" not in generated, generated


def test_the_generated_python_client_drives_a_session(generated, tabs_server):
    client_module = importlib.import_module("minerva_server_client")
    from minerva_server_client.api.lists import get_list, put_list
    from minerva_server_client.api.navigation import deep_link, navigate, push, select_tab
    from minerva_server_client.api.sessions import create_session, get_events, get_session
    from minerva_server_client.models import (
        CreateSessionRequest, DeepLinkRequest, ErrorDocument, ListItemInput, ListPutRequest, ListSectionInput, NavigateRequest,
        PushRequest, SelectTabRequest)

    anonymous = client_module.Client(base_url=tabs_server.url, raise_on_unexpected_status=True)
    created = create_session.sync_detailed(client=anonymous, body=CreateSessionRequest(), idempotency_key="python-client-1")
    assert created.status_code == 201 and created.parsed.version == 1 and created.parsed.tabs.selected == "home"
    again = create_session.sync_detailed(client=anonymous, body=CreateSessionRequest(), idempotency_key="python-client-1")
    assert again.parsed.id == created.parsed.id and again.headers["Idempotent-Replayed"] == "true"

    session = created.parsed
    client = client_module.AuthenticatedClient(base_url=tabs_server.url, token=session.token, raise_on_unexpected_status=True)
    state = navigate.sync(session.id, client=client, body=NavigateRequest(screen="profile", params={"userId": "42"}))
    assert state.version == 2 and [node.screen for node in state.root.children[0].children] == ["profile"]
    state = push.sync(session.id, client=client, body=PushRequest(screen="followers", params={"userId": "42"}))
    assert state.version == 3
    state = select_tab.sync(session.id, client=client, body=SelectTabRequest(tab="account"))
    assert state.version == 4 and state.tabs.selected == "account"
    state = deep_link.sync(session.id, client=client, body=DeepLinkRequest(url="/users/7"))
    assert state.version == 5 and state.tabs.selected == "home"
    focus = state.focus

    put = put_list.sync(session.id, focus, client=client, body=ListPutRequest(sections=[
        ListSectionInput(id="people", items=[ListItemInput(id="u1", kind="user"), ListItemInput(id="u2", kind="user")])]))
    assert put.version == 1 and put.diff.sections.inserted == [0]
    put_list.sync(session.id, focus, client=client, body=ListPutRequest(sections=[
        ListSectionInput(id="people", items=[ListItemInput(id="u2", kind="user"), ListItemInput(id="u1", kind="user")])]))
    page = get_list.sync(session.id, focus, client=client, since=1)
    assert page.version == 2 and len(page.diff.items.moved) == 1

    current = get_session.sync_detailed(session.id, client=client)
    assert current.parsed.version == 7 and current.headers["ETag"] == '"7"'
    waited = get_session.sync_detailed(session.id, client=client, if_none_match='"7"', wait=1)
    assert waited.status_code == 304

    page = get_events.sync(session.id, client=client, after=0)
    assert [event.seq for event in page.events] == list(range(1, page.last + 1))
    assert {type(event).__name__ for event in page.events} >= {"AddedEvent", "TabSelectedEvent", "ListChangedEvent"}

    stale = push.sync_detailed(session.id, client=client, body=PushRequest(screen="followers", params={"userId": "1"}), if_match='"3"')
    assert stale.status_code == 412 and stale.headers["ETag"] == '"7"'
    assert isinstance(stale.parsed, ErrorDocument) and stale.parsed.error.code == "precondition_failed"
    unknown = navigate.sync(session.id, client=client, body=NavigateRequest(screen="nowhere"))
    assert isinstance(unknown, ErrorDocument) and unknown.error.code == "unprocessable" and "nowhere" in unknown.error.message


def later(value):
    """The value as a later release might write it: an unknown member everywhere, each
    `tabSelected` event turned into an event of an unknown type, the removal reason `pop` into
    an unknown reason."""
    if isinstance(value, dict):
        value = {key: later(member) for key, member in value.items()}
        value["addedLater"] = {"by": "a later release"}
        if value.get("reason") == "pop":
            value["reason"] = "swipedAway"
        if value.get("type") == "tabSelected":
            value["type"] = "tabMoved"
            value["to"] = value.pop("tab")
        return value
    if isinstance(value, list):
        return [later(item) for item in value]
    return value


def test_the_generated_python_client_reads_answers_of_a_later_release(generated, tabs_server):
    from minerva_server_client.models import EventsPage, OtherEvent, StateFields

    session = tabs_server.create_session()
    session.call("POST", "/select-tab", {"tab": "account"})
    session.call("POST", "/navigate", {"screen": "profile", "params": {"userId": "1"}})
    session.call("POST", "/pop", {})
    state = StateFields.from_dict(later(session.get()))
    assert state.version == 4 and state.tabs.selected == "account" and state.additional_properties["addedLater"]
    _, _, events = session.call("GET", "/events?after=0")
    page = EventsPage.from_dict(later(events))
    assert isinstance(page.events[0], OtherEvent) and page.events[0].type_ == "tabMoved"
    assert page.events[0].additional_properties["to"] == "account"
    assert [type(event).__name__ for event in page.events[1:]] == ["AddedEvent", "RemovedEvent"]
    assert page.events[2].reason == "swipedAway"
