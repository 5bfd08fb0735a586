"""Unknown body fields: every navigation operation and the list PUT answer 400 naming the
field (with its path, and the nearest known field when one is close), and change nothing."""
import pytest

# (operation, setup that makes the corrected request possible, body, message, corrected body)
CASES = [
    ("push", [], {"screen": "settings", "param": {}}, "unknown field 'param'; did you mean 'params'?", {"screen": "settings", "params": {}}),
    ("present", [], {"screen": "login", "embed_in_navigation": True},
     "unknown field 'embed_in_navigation'; did you mean 'embedInNavigation'?", {"screen": "login", "embedInNavigation": True}),
    ("dismiss", [("present", {"screen": "login"})], {"nodeId": "n2"}, "unknown field 'nodeId'; did you mean 'node'?", {"node": "n2"}),
    ("pop", [("push", {"screen": "settings"}), ("push", {"screen": "settings"})], {"to_root": True},
     "unknown field 'to_root'; did you mean 'toRoot'?", {"toRoot": True}),
    ("pop", [("push", {"screen": "settings"})], {"to_root": None}, "unknown field 'to_root'; did you mean 'toRoot'?", {"toRoot": None}),
    ("set-root", [], {"screen": "settings", "navigatr": "v0"}, "unknown field 'navigatr'; did you mean 'navigator'?",
     {"screen": "settings", "navigator": "v0"}),
    ("set-root", [], {"stack": [{"screen": "home"}, {"screen": "settings", "parms": {}}]},
     "unknown field 'stack[1].parms'; did you mean 'params'?", {"stack": [{"screen": "home"}, {"screen": "settings", "params": {}}]}),
    ("navigate", [], {"screen": "settings", "form": "n1"}, "unknown field 'form'; did you mean 'from'?", {"screen": "settings", "from": "n1"}),
    ("deep-link", [], {"url": "/users/1", "animated": True}, "unknown field 'animated'; the known fields are 'url', 'sampleLists'", {"url": "/users/1"}),
    ("finish", [("present", {"screen": "login"})], {"node": "n2", "result": {"status": "cancelled", "reason": "x"}},
     "unknown field 'result.reason'; the known fields are 'status', 'value'", {"node": "n2", "result": {"status": "cancelled", "value": "x"}}),
    ("flags", [], {"set": ["signedIn"], "Clear": []}, "unknown field 'Clear'; did you mean 'clear'?", {"set": ["signedIn"], "clear": []}),
]

LIST_CASES = [
    ({"sections": [], "version": 2}, "unknown field 'version'; the known fields are 'sections'"),
    ({"sections": [{"id": "a", "items": [], "header": "A"}]}, "unknown field 'sections[0].header'; the known fields are 'id', 'items'"),
    ({"sections": [{"id": "a", "items": [{"id": "1", "kind": "row", "content": {"free": {"form": 1}}},
                                         {"id": "2", "kind": "row", "contnet": {}}]}]},
     "unknown field 'sections[0].items[1].contnet'; did you mean 'content'?"),
]


def refuse(session, method, path, body, message):
    """Sends a request that must be refused with 400 `message`, and checks that nothing changed."""
    before = session.get()
    last = session.events()["last"]
    status, _, document = session.call(method, path, body)
    assert status == 400, (path, body, status, document)
    assert document["error"] == {"code": "invalid_request", "message": message}
    assert session.get() == before
    assert session.events()["last"] == last


@pytest.mark.parametrize("operation, setup, body, message, corrected", CASES,
                         ids=[f"{case[0]}-{case[3].split(chr(39))[1]}" for case in CASES])
def test_unknown_fields_of_every_operation_are_400_and_change_nothing(server, operation, setup, body, message, corrected):
    session = server.create_session()
    for name, setup_body in setup:
        session.op(name, setup_body)
    refuse(session, "POST", "/" + operation, body, message)
    session.op(operation, corrected)  # the field's name alone was at fault


def test_unknown_fields_of_select_tab_are_400_and_change_nothing(tabs_server):
    session = tabs_server.create_session()
    refuse(session, "POST", "/select-tab", {"tab": "account", "tabs": ["home"]}, "unknown field 'tabs'; did you mean 'tab'?")
    assert session.op("select-tab", {"tab": "account"})["tabs"]["selected"] == "account"


@pytest.mark.parametrize("body, message", LIST_CASES, ids=["list", "section", "item"])
def test_unknown_fields_of_a_list_put_are_400_at_every_level_and_change_nothing(session, body, message):
    refuse(session, "PUT", "/nodes/n1/list", body, message)
    status, _, _ = session.call("GET", "/nodes/n1/list")
    assert status == 404  # no list was made
