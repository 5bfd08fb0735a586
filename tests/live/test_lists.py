"""Lists over live HTTP: PUT answers the diff, GET ?since=, reload, lists in the state document."""


def cells(*ids, kind="user", **contents):
    return [{"id": id, "kind": kind, "content": contents.get(id, {"name": id})} for id in ids]


def put(session, node, sections, expect=200, headers=None):
    status, answer_headers, body = session.call("PUT", f"/nodes/{node}/list", {"sections": sections}, headers=headers)
    assert status == expect, body
    return body


def test_first_put_inserts_everything_and_counts_as_a_session_mutation(session):
    body = put(session, "n1", [{"id": "friends", "items": cells("u1", "u2")}, {"id": "others", "items": []}])
    assert body["version"] == 1
    assert body["diff"] == {"from": 0, "to": 1,
                            "sections": {"deleted": [], "inserted": [0, 1], "moved": [], "updated": []},
                            "items": {"deleted": [], "inserted": [], "moved": [], "updated": []}}
    assert session.get()["version"] == 2


def test_put_answers_the_diff_with_minimal_moves_and_updates(session):
    put(session, "n1", [{"id": "a", "items": cells("1", "2", "3", "4")}, {"id": "b", "items": cells("5")}])
    changed = cells("4", "1", "2", "5", "new")
    changed[1]["content"] = {"name": "renamed"}
    body = put(session, "n1", [{"id": "a", "items": changed}, {"id": "b", "items": []}])
    diff = body["diff"]
    assert body["version"] == 2 and diff["from"] == 1 and diff["to"] == 2
    assert diff["items"]["deleted"] == [{"section": 0, "item": 2}]
    assert diff["items"]["inserted"] == [{"section": 0, "item": 4}]
    assert diff["items"]["moved"] == [{"from": {"section": 0, "item": 3}, "to": {"section": 0, "item": 0}},
                                      {"from": {"section": 1, "item": 0}, "to": {"section": 0, "item": 3}}]
    assert diff["items"]["updated"] == [{"section": 0, "item": 0}]


def test_unchanged_put_still_counts_with_an_empty_diff(session):
    sections = [{"id": "a", "items": cells("1")}]
    put(session, "n1", sections)
    body = put(session, "n1", [{"id": "a", "items": [{"id": "1", "kind": "user", "content": {"name": "1"}}]}])
    assert body["version"] == 2
    assert body["diff"]["items"] == {"deleted": [], "inserted": [], "moved": [], "updated": []}


def test_get_since_and_reload(session):
    for version in range(1, 41):
        put(session, "n1", [{"id": "a", "items": cells(*[f"i{index}" for index in range(version)])}])
    status, _, body = session.call("GET", "/nodes/n1/list?since=38")
    assert status == 200 and body["version"] == 40 and body["diff"]["from"] == 38
    assert len(body["sections"][0]["items"]) == 40
    assert body["diff"]["items"]["inserted"] == [{"section": 0, "item": 38}, {"section": 0, "item": 39}]
    status, _, body = session.call("GET", "/nodes/n1/list?since=8")
    assert status == 200 and body["version"] == 40 and body["diff"]["from"] == 8
    status, _, body = session.call("GET", "/nodes/n1/list?since=2")
    assert status == 200 and body == {"version": 40, "sections": body["sections"], "diff": None, "reload": True}
    status, _, body = session.call("GET", "/nodes/n1/list?since=0")
    assert body["diff"]["sections"]["inserted"] == [0]
    status, _, body = session.call("GET", "/nodes/n1/list")
    assert body["diff"]["from"] == 39
    assert session.call("GET", "/nodes/n1/list?since=41")[0] == 422
    assert session.call("GET", "/nodes/n1/list?since=x")[0] == 400


def test_list_errors(session):
    assert session.call("GET", "/nodes/n1/list")[0] == 404                   # no list yet
    assert session.call("GET", "/nodes/n9/list")[0] == 404
    put(session, "n9", [], expect=404)
    put(session, "n1", [{"id": "a", "items": []}, {"id": "a", "items": []}], expect=422)
    body = put(session, "n1", [{"id": "a", "items": cells("x")}, {"id": "b", "items": cells("x")}], expect=422)
    assert "'x'" in body["error"]["message"]
    put(session, "n1", [{"id": "", "items": []}], expect=422)
    put(session, "n1", [{"id": "a", "items": [{"id": "", "kind": "k"}]}], expect=422)
    put(session, "n1", [{"id": "a"}], expect=400)
    put(session, "n1", [{"id": "a", "items": [{"id": 1, "kind": "k"}]}], expect=400)
    put(session, "n1", "nope", expect=400)
    status, _, body = session.call("PUT", "/nodes/n1/list", raw=b"")
    assert status == 400
    put(session, "n1", [], expect=412, headers={"If-Match": '"99"'})
    assert session.get()["version"] == 1


def test_a_list_goes_with_its_node(session):
    session.op("push", {"screen": "followers", "params": {"userId": "1"}})
    put(session, "n2", [{"id": "a", "items": cells("1")}])
    session.op("pop")
    session.op("push", {"screen": "followers", "params": {"userId": "1"}})
    assert session.call("GET", "/nodes/n2/list")[0] == 404
    assert session.call("GET", "/nodes/n3/list")[0] == 404


def test_state_document_carries_lists_at_three_levels_of_detail(session):
    put(session, "n1", [{"id": "a", "items": cells("1", "2")}])
    home = session.get()["root"]["children"][0]
    assert home["list"]["version"] == 1 and len(home["list"]["sections"][0]["items"]) == 2
    assert home["list"]["diff"]["from"] == 0
    status, _, state = session.call("GET", "?lists=summary")
    assert state["root"]["children"][0]["list"] == {"version": 1, "count": 2}
    status, _, state = session.call("GET", "?lists=none")
    assert "list" not in state["root"]["children"][0]
    status, _, body = session.call("GET", "?lists=all")
    assert status == 422


def test_content_is_compared_as_json(session):
    put(session, "n1", [{"id": "a", "items": [{"id": "1", "kind": "k", "content": {"x": 1, "y": [1.0]}}]}])
    body = put(session, "n1", [{"id": "a", "items": [{"id": "1", "kind": "k", "content": {"y": [1], "x": 1.0}}]}])
    assert body["diff"]["items"]["updated"] == []


def test_too_many_items_is_422(server, session):
    items = cells(*[f"c{index}" for index in range(10001)])
    body = put(session, "n1", [{"id": "a", "items": items}], expect=422)
    assert "10000" in body["error"]["message"]


def patch(session, node, body, expect=200, headers=None):
    status, _, answer = session.call("PATCH", f"/nodes/{node}/list", body, headers=headers)
    assert status == expect, answer
    return answer


def test_a_patch_changes_one_cell_of_a_long_list_without_sending_the_others(session):
    """A menu: one dish sold out is one upsert, answered with the diff a PUT of the whole result
    gives — one updated cell — and the list reads back with every other cell as it was."""
    dishes = [{"id": f"d{index}", "kind": "dish", "content": {"p": index}} for index in range(100)]
    put(session, "n1", [{"id": "mains", "items": dishes[:60]}, {"id": "desserts", "items": dishes[60:]}])
    sold_out = {"id": "d41", "kind": "dish", "content": {"p": 41, "soldOut": True}}
    body = patch(session, "n1", {"upsert": [{"cell": sold_out}]})
    assert body == {"version": 2, "diff": {"from": 1, "to": 2,
                                           "sections": {"deleted": [], "inserted": [], "moved": [], "updated": []},
                                           "items": {"deleted": [], "inserted": [], "moved": [], "updated": [{"section": 0, "item": 41}]}}}
    _, _, page = session.call("GET", "/nodes/n1/list")
    expected = dishes[:41] + [sold_out] + dishes[42:60]
    assert page["sections"][0]["items"] == expected and page["sections"][1]["items"] == dishes[60:]
    assert session.get()["version"] == 3


def test_a_patch_deletes_then_upserts_then_moves_and_answers_as_a_put_would(session):
    put(session, "n1", [{"id": "friends", "items": cells("u1", "u2", "u3")}, {"id": "others", "items": cells("u4")}])
    body = patch(session, "n1", {"delete": ["u2"],
                                 "upsert": [{"cell": {"id": "u9", "kind": "user", "content": {"name": "u9"}}, "before": "u1"},
                                            {"cell": {"id": "u1", "kind": "user", "content": {"name": "Ada"}}}],
                                 "move": [{"id": "u4", "section": "friends", "before": "u3"}]})
    _, _, page = session.call("GET", "/nodes/n1/list")
    assert [[item["id"] for item in section["items"]] for section in page["sections"]] == [["u9", "u1", "u4", "u3"], []]
    # The same result by PUT on another node makes the same diff.
    put(session, "n0", [{"id": "friends", "items": cells("u1", "u2", "u3")}, {"id": "others", "items": cells("u4")}])
    same = put(session, "n0", page["sections"])
    assert body["diff"]["items"] == same["diff"]["items"] and body["version"] == 2
    _, _, events = session.call("GET", "/events?after=0")
    assert [event["type"] for event in events["events"]][-3:] == ["listChanged"] * 3


def test_a_patch_the_list_cannot_take_changes_nothing(session):
    put(session, "n1", [{"id": "a", "items": cells("1", "2")}])
    version = session.get()["version"]
    for body, status, message in [
        ({}, 422, "give 'delete', 'upsert' or 'move'"),
        ({"delete": None, "move": None}, 422, "give 'delete', 'upsert' or 'move'"),
        ({"delete": []}, 400, "'delete' is empty"),
        ({"move": [{"id": "1", "section": None}]}, 422, "move[0]: give a 'section', a 'before', or both"),
        ({"delete": ["1"], "sections": []}, 400, "sections"),
        ({"delete": ["9"]}, 422, "delete[0]: no cell '9' in the list"),
        ({"upsert": [{"cell": {"id": "3", "kind": "row"}}]}, 422, "a new cell needs a 'section' or a 'before'"),
        ({"move": [{"id": "1", "section": "b"}]}, 422, "no section 'b' in the list (its sections: 'a')"),
        ({"delete": ["1"], "move": [{"id": "2", "before": "1"}]}, 422, "move[0]: 'before' names no cell of the list: '1'"),
    ]:
        answer = patch(session, "n1", body, expect=status)
        assert message in answer["error"]["message"], (body, answer)
    assert patch(session, "n2", {"delete": ["1"]}, expect=404)["error"]["message"] == "no node 'n2' in this session"
    assert "has no list yet" in patch(session, "n0", {"delete": ["1"]}, expect=404)["error"]["message"]
    assert patch(session, "n1", {"delete": ["1"]}, expect=412, headers={"If-Match": '"1"'})["error"]["code"] == "precondition_failed"
    assert session.get()["version"] == version
    _, _, page = session.call("GET", "/nodes/n1/list")
    assert [item["id"] for item in page["sections"][0]["items"]] == ["1", "2"] and page["version"] == 1
