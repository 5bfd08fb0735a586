"""The states of the flows chapter that were wrong, each driven over real HTTP on a real app's
file: a bank (onboarding → identity check → PIN sign-in → four tabs, an investing tab behind a
quiz, a transfer sheet), a news reader (a 3-column split that shows its sections when compact)
and a food-ordering app (a cart sheet with a guarded checkout). Each test failed on the server
before these rules."""
from test_flows import summary

SIGNED_IN = ["onboarded", "verified", "signedIn"]


def walk(node):
    yield node
    for child in node["children"]:
        yield from walk(child)


def node_of(state, node_id):
    return next(node for node in walk(state["root"]) if node["id"] == node_id)


def stacks(state):
    """Each navigator's stack as screens, bottom first."""
    screens = {node["id"]: node["screen"] for node in walk(state["root"])}
    return {entry["id"]: [screens[node] for node in entry["stack"]] for entry in state["navigators"]}


# Item 2: a route builds the same tree in both size classes.

def test_a_compact_split_link_builds_the_tree_a_regular_one_builds(apps):
    """A 3-column split that shows `primary` when compact: the link puts the section list in
    `supplementary` and the article in `detail`, as at regular width; only what compact shows
    differs. No node is made and dropped inside the block."""
    news = apps["news"]
    trees = {}
    for size in ("regular", "compact"):
        session = news.create_session(sizeClass=size)
        state, block = session.block("POST", "/deep-link", {"url": "/sections/world/articles/7"})
        assert summary(block) == ["added section", "added article"], (size, block)
        assert [event["node"] for event in block] == ["n2", "n3"]
        assert stacks(state) == {"primary": ["sections"], "supplementary": ["section"], "detail": ["article"]}, size
        assert node_of(state, "n3")["params"] == {"id": "7"}
        trees[size] = state
    assert trees["compact"]["compactStack"] == ["n1"] and trees["compact"]["collapsed"] is True
    assert trees["regular"]["compactStack"] == ["n1"] and trees["regular"]["collapsed"] is False
    assert trees["compact"]["root"] == trees["regular"]["root"]


# Item 8: a collapse dismisses what a column compact does not show presents.

def test_a_collapse_dismisses_a_popover_from_a_column_compact_does_not_show(apps):
    """Regular: a share popover from the article (in `detail`). Compact shows `primary` only: the
    collapse dismisses the popover (reason `sizeClass`, its flow cancelled with that cause) in the
    block that says `sizeClassChanged`; presenting from the article is then refused. Back to
    regular, nothing comes back; a sheet from the sections (the column compact shows) stays."""
    session = apps["news"].create_session()
    session.op("deep-link", {"url": "/sections/world/articles/7"})
    share = session.op("present", {"screen": "share", "from": "n3", "anchor": {"item": "share-button"}})["focus"]
    state, block = session.block("POST", "/size-class", {"horizontal": "compact"})
    assert [(event["type"], event.get("node"), event.get("reason")) for event in block] == [
        ("removed", share, "sizeClass"), ("finished", share, None), ("sizeClassChanged", None, None)], block
    assert block[1]["result"] == {"status": "cancelled", "cause": "sizeClass"} and block[1]["held"] is False
    assert [entry["id"] for entry in state["navigators"]] == ["primary", "supplementary", "detail"]
    assert state["focus"] == "n1"
    # compact shows primary: presenting from the article is refused, from the focus is fine
    assert session.call("POST", "/present", {"screen": "share", "from": "n3", "anchor": {"item": "x"}})[0] == 409
    state = session.op("size-class", {"horizontal": "regular"})
    assert [entry["id"] for entry in state["navigators"]] == ["primary", "supplementary", "detail"]
    comments = session.op("present", {"screen": "comments", "params": {"article": "7"}, "from": "n1"})["focus"]
    state, block = session.block("POST", "/size-class", {"horizontal": "compact"})
    assert summary(block) == ["sizeClassChanged"] and state["focus"] == comments


# Item 3: a swipe meets every screen on the sheet's stack, and the app may change dismissible.

def test_a_sheet_whose_stack_holds_a_screen_that_says_no_cannot_be_swiped_away(apps):
    """The cart is dismissible; paying (pushed on the cart's stack) says `dismissible: false`: the
    user's swipe on the cart is `409 not_dismissible`, naming the paying screen; the app's own
    dismissal still works."""
    session = apps["food"].create_session(flags=["signedIn"])
    cart = session.op("navigate", {"screen": "cart"})["focus"]
    session.op("push", {"screen": "checkout"})
    paying = session.op("push", {"screen": "payment"})["focus"]
    before = session.get()["version"]
    status, _, body = session.call("POST", "/dismiss", {"node": cart, "interactive": True})
    assert status == 409 and body["error"]["code"] == "not_dismissible", body
    assert f"'{paying}' ('payment') on its stack" in body["error"]["message"], body
    assert session.get()["version"] == before
    session.op("pop", {})
    _, block = session.block("POST", "/dismiss", {"node": cart, "interactive": True})
    assert summary(block) == ["removed checkout dismiss", "removed cart dismiss", "finished cart cancelled"], block


def test_the_app_makes_a_shown_sheet_non_dismissible_while_paying_and_back(apps):
    """`POST …/nodes/{node}/presentation {"dismissible": false}`: one `presentationChanged`
    saying so; the user's swipe is then refused; `true` lets it again; the same value again
    changes nothing; a base root has nothing to swipe."""
    session = apps["food"].create_session()
    cart = session.op("navigate", {"screen": "cart"})["focus"]
    state, block = session.block("POST", f"/nodes/{cart}/presentation", {"dismissible": False})
    assert [{key: event[key] for key in ("type", "node", "dismissible")} for event in block] == [
        {"type": "presentationChanged", "node": cart, "dismissible": False}]
    assert "selected" not in block[0]
    assert node_of(state, cart)["dismissible"] is False
    version = state["version"]
    assert session.call("POST", f"/nodes/{cart}/presentation", {"dismissible": False})[2]["version"] == version
    status, _, body = session.call("POST", "/dismiss", {"node": cart, "interactive": True})
    assert status == 409 and body["error"]["code"] == "not_dismissible", body
    # the user moves the detent and the app lets the swipe again in one request
    state, block = session.block("POST", f"/nodes/{cart}/presentation", {"dismissible": True, "selected": "large"})
    assert [(event["type"], event["selected"], event["dismissible"]) for event in block] == [("presentationChanged", "large", True)]
    session.change("dismiss", {"node": cart, "interactive": True})
    assert session.call("POST", "/nodes/n1/presentation", {"dismissible": False})[0] == 409
    assert session.call("POST", "/nodes/n1/presentation", {})[0] == 400
    assert session.call("POST", "/nodes/n1/presentation", {"dismissable": False})[0] == 400


# Item 4: a guard on a tab's root holds on select-tab and on a link into the tab.

def test_selecting_a_guarded_tab_shows_its_guard_and_the_switch_waits_for_it(apps):
    """The invest tab requires `investor`: select-tab shows the quiz from the focus, the tab
    bar stays on accounts and the switch waits as the pending `selectTab`; finishing the quiz
    with success sets the flag and selects the tab in the same block; dismissing it drops the
    switch."""
    bank = apps["bank"]
    session = bank.create_session(flags=SIGNED_IN)
    state, block = session.block("POST", "/select-tab", {"tab": "invest"})
    quiz = state["focus"]
    assert summary(block) == ["added investorQuiz", "pendingChanged selectTab"], block
    assert state["tabs"]["selected"] == "accounts"
    assert state["pending"] == {"operation": "selectTab", "navigator": "tab:invest", "replacesStack": False,
                                "steps": [{"screen": "invest", "params": {}}], "flow": quiz}
    state, block = session.block("POST", "/finish", {"node": quiz, "result": {"status": "success"}})
    assert summary(block) == ["removed investorQuiz finish", "finished investorQuiz success", "tabSelected invest",
                              "flagsChanged", "pendingChanged None"], block
    assert state["tabs"]["selected"] == "invest" and "investor" in state["flags"] and state["pending"] is None

    other = bank.create_session(flags=SIGNED_IN)
    quiz = other.op("select-tab", {"tab": "invest"})["focus"]
    state = other.op("dismiss", {"node": quiz})
    assert state["tabs"]["selected"] == "accounts" and state["pending"] is None


def test_a_link_into_a_guarded_tab_waits_behind_its_guard(apps):
    """`/funds/9` opens in the invest tab: without `investor` the quiz comes first and the
    link's steps wait with the tab switch; on success the tab is selected and the fund shown."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    state = session.op("deep-link", {"url": "/funds/9"})
    quiz = state["focus"]
    assert state["tabs"]["selected"] == "accounts"
    assert [step["screen"] for step in state["pending"]["steps"]] == ["invest", "fund"]
    state, block = session.block("POST", "/finish", {"node": quiz, "result": {"status": "success"}})
    assert state["tabs"]["selected"] == "invest" and stacks(state)["tab:invest"] == ["invest", "fund"]
    assert node_of(state, state["focus"])["params"] == {"id": "9"}


# Item 5: a link followed in the sign-in flow leaves the link waiting for the main flow.

def test_a_link_followed_during_sign_in_keeps_the_payment_link_waiting(apps):
    """During PIN sign-in a payment link waits for the main flow; the forgot-PIN link, applied in
    the sign-in flow, leaves it; a newer link for the main flow replaces it; signing in applies
    it in the switching block."""
    session = apps["bank"].create_session(flags=["onboarded", "verified"])
    assert session.state["flow"] == "signIn"
    session.op("deep-link", {"url": "/pay/42"})
    state, block = session.block("POST", "/deep-link", {"url": "/forgot-pin"})
    assert summary(block) == ["added forgotPin"], block
    assert state["pending"] == {"operation": "deepLink", "url": "/pay/42", "flow": "main"}
    session.op("dismiss", {})
    state = session.op("deep-link", {"url": "/accounts/3"})
    assert state["pending"]["url"] == "/accounts/3"
    state, block = session.block("POST", "/finish", {"node": "n1", "result": {"status": "success"}})
    assert state["flow"] == "main" and state["tabs"]["selected"] == "accounts" and state["pending"] is None
    assert stacks(state)["tab:accounts"] == ["accounts", "account"]


# Item 6: removals from the top of what is shown down, across tabs.

def test_a_link_into_another_tab_removes_the_cover_before_that_tabs_screens(apps):
    """The statement covers the window over the accounts tab; a link into the payments tab
    removes it first (it is on top), then the payee it replaces on the hidden payments tab."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    session.op("deep-link", {"url": "/pay/7"})
    state = session.op("deep-link", {"url": "/accounts/1/statement"})
    assert state["tabs"]["selected"] == "accounts" and node_of(state, state["focus"])["screen"] == "statement"
    _, block = session.block("POST", "/deep-link", {"url": "/pay/8"})
    assert summary(block) == ["removed statement deepLink", "removed payee deepLink", "finished statement cancelled",
                              "added payee", "tabSelected payments"], block


# Item 7: query parameters become params only where the screen declares them.

def test_query_parameters_become_params_only_where_the_screen_declares_them(apps):
    """`amount` is declared by the payee screen: the query sets it. `utm_source` is not: ignored.
    `id` comes from the path: the query does not override it. What the link set can be changed
    with PATCH …/params, and the session's link says it back."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    state = session.op("deep-link", {"url": "https://bank.example.com/pay/42?amount=10&utm_source=mail&id=9"})
    payee = state["focus"]
    assert node_of(state, payee)["params"] == {"id": "42", "amount": "10"}
    assert session.call("GET", "/link")[2] == {"url": "/pay/42?amount=10"}
    state = session.op("deep-link", {"url": "/pay/42?amount=25&utm_campaign=spring"})
    assert state["focus"] == payee and node_of(state, payee)["params"] == {"id": "42", "amount": "25"}
    assert session.call("PATCH", f"/nodes/{payee}/params", {"set": {"amount": "30"}})[0] == 200


# Item 9: results held only when a screen returns one or a value came back.

def test_results_are_held_only_when_asked_for(apps):
    """A share popover swiped away sends `finished` (held: false) and leaves nothing to take;
    the transfer sheet says it returns a result: its cancel is held until taken; a finish with a
    value is held on any screen."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    share = session.op("present", {"screen": "share", "anchor": {"item": "share"}})["focus"]
    state, block = session.block("POST", "/dismiss", {"node": share, "interactive": True})
    assert summary(block) == ["removed share dismiss", "finished share cancelled"] and block[1]["held"] is False
    assert "results" not in node_of(state, "n1")
    transfer = session.op("present", {"screen": "transfer", "params": {"to": "savings"}})["focus"]
    state, block = session.block("POST", "/dismiss", {"node": transfer})
    assert block[-1]["held"] is True
    assert node_of(state, "n1")["results"] == {"transfer": {"status": "cancelled", "version": state["version"]}}
    share = session.op("present", {"screen": "share", "anchor": {"item": "share"}})["focus"]
    state = session.op("finish", {"node": share, "result": {"status": "success", "value": {"app": "mail"}}})
    assert node_of(state, "n1")["results"]["share"]["value"] == {"app": "mail"}


def test_a_completed_root_flow_leaves_no_result_on_the_app_coordinator(apps):
    """Onboarding's completion is its flag: `finished` (held: false), nothing held on `n0`."""
    session = apps["bank"].create_session()
    state, block = session.block("POST", "/finish", {"node": "n1", "result": {"status": "success"}})
    finished = [event for event in block if event["type"] == "finished"]
    assert [(event["screen"], event["held"]) for event in finished] == [("intro", False)]
    assert state["flow"] == "identity" and "results" not in state["root"]


# Flows, second chapter, item 2: screens that hold links.

def test_links_wait_while_the_confirm_step_is_shown_and_apply_in_order_when_it_leaves(apps):
    """The transfer's confirm step holds links: each arrives as its own version (heldLinksChanged)
    and changes nothing shown; at most four; a link that could not be followed is refused at once;
    the pop that leaves the step applies them, oldest first, in its block."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    session.op("present", {"screen": "transfer", "params": {"to": "savings"}})
    confirm = session.op("push", {"screen": "confirmTransfer"})
    state, block = session.block("POST", "/deep-link", {"url": "/accounts/1"})
    assert [(event["type"], event["links"]) for event in block] == [("heldLinksChanged", ["/accounts/1"])]
    assert state["heldLinks"] == ["/accounts/1"] and state["focus"] == confirm["focus"] and state["navigators"] == confirm["navigators"]
    state = session.op("deep-link", {"url": "/pay/7?amount=5"})
    assert state["heldLinks"] == ["/accounts/1", "/pay/7?amount=5"]
    before = session.get()
    assert session.op("deep-link", {"url": "/nowhere"}, expect=404)
    assert session.get()["version"] == before["version"]
    session.op("deep-link", {"url": "/accounts/2"})
    session.op("deep-link", {"url": "/funds/3"})
    answer = session.op("deep-link", {"url": "/accounts/3"}, expect=409)
    assert answer["error"]["code"] == "links_held" and "4" in answer["error"]["message"]
    # Back from the confirm step (the app's own button: it says no to a swipe): the links apply
    # in order, in the same block.
    state, block = session.block("POST", "/pop", {})
    assert block[-1]["type"] == "heldLinksChanged" and block[-1]["links"] == []
    # The last link, into the guarded invest tab, waits behind its guard as one followed at once would.
    assert "heldLinks" not in state and state["tabs"]["selected"] == "accounts"
    assert node_of(state, state["focus"])["screen"] == "investorQuiz" and state["pending"]["operation"] == "selectTab"
    # One block: the step popped, the transfer sheet the first link took away, what the links
    # left shown (the first account replaced by the second never showed), the guard's wait.
    assert [(event["type"], event.get("screen")) for event in block] == [
        ("removed", "confirmTransfer"), ("removed", "transfer"), ("finished", "transfer"), ("added", "payee"), ("added", "account"),
        ("added", "investorQuiz"), ("pendingChanged", None), ("heldLinksChanged", None)]


def test_signing_out_drops_the_links_a_screen_holds(apps):
    session = apps["bank"].create_session(flags=SIGNED_IN)
    session.op("present", {"screen": "transfer", "params": {"to": "savings"}})
    session.op("push", {"screen": "confirmTransfer"})
    session.op("deep-link", {"url": "/accounts/1"})
    state, block = session.block("POST", "/flags", {"clear": ["signedIn"]})
    assert {"type": "heldLinksChanged", "links": []}.items() <= next(event for event in block if event["type"] == "heldLinksChanged").items()
    assert "heldLinks" not in state and state["flow"] != "main"


# A lock over a flow that keeps it (flows, second chapter, item 1).

def test_a_lock_comes_over_a_transfer_in_progress_and_its_end_uncovers_it_whole(apps):
    """Backgrounding sets `locked`: the lock overlay comes over the main flow in one block, every
    node, list and UI state of the transfer kept beneath; a navigation change beneath is `409
    overlaid` and changes nothing; a link waits as the pending one; unlocking uncovers the transfer
    as it was and follows the link in the same block (held by the confirm step)."""
    session = apps["bank"].create_session(flags=SIGNED_IN)
    session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "a", "items": [{"id": "c1", "kind": "account", "content": {"name": "Checking"}}]}]})
    transfer = session.op("present", {"screen": "transfer", "params": {"to": "savings"}})["focus"]
    confirm = session.op("push", {"screen": "confirmTransfer"})
    session.call("PUT", f"/nodes/{confirm['focus']}/ui", {"amount": "120"})
    beneath = session.get()

    state, block = session.block("POST", "/flags", {"set": ["locked"]})
    lock = block[1]["node"]
    assert [(event["type"], event.get("overlay", event.get("screen"))) for event in block] == [
        ("overlayChanged", "lock"), ("added", "unlock"), ("flagsChanged", None)]
    assert block[1]["presentation"]["kind"] == "overlay" and block[1]["navigator"] == "overlay" and block[1]["parent"] == "n0"
    assert (state["overlay"], state["flow"], state["focus"]) == ("lock", "main", lock)
    assert [entry for entry in state["navigators"] if entry["id"] != "overlay"] == beneath["navigators"]
    assert node_of(state, confirm["focus"])["ui"] == {"amount": "120"} and node_of(state, "n1")["list"]["version"] == 1

    # Beneath the lock nothing moves: each refusal is 409 overlaid and leaves the version.
    for suffix, body in [("/pop", {"navigator": "v1"}), ("/dismiss", {"node": transfer}), ("/select-tab", {"tab": "cards", "dismiss": True}),
                         ("/push", {"from": "n1", "screen": "account", "params": {"id": "1"}}),
                         ("/finish", {"node": confirm["focus"], "result": {"status": "cancelled"}})]:
        status, _, answer = session.call("POST", suffix, body)
        assert (status, answer["error"]["code"]) == (409, "overlaid"), (suffix, answer)
        assert "overlay 'lock'" in answer["error"]["message"]
    assert session.get()["version"] == state["version"]
    # Data still changes beneath it; the lock's own screens come and go.
    assert session.call("PUT", "/nodes/n1/list", {"sections": []})[0] == 200
    session.op("present", {"screen": "forgotPin"})
    session.op("dismiss", {})
    state, block = session.block("POST", "/deep-link", {"url": "/accounts/7"})
    assert state["pending"] == {"operation": "deepLink", "url": "/accounts/7", "flow": "main"} and state["focus"] == lock

    state, block = session.block("POST", "/flags", {"clear": ["locked"]})
    assert [(event["type"], event.get("screen") or event.get("overlay")) for event in block] == [
        ("removed", "unlock"), ("overlayChanged", None), ("flagsChanged", None), ("pendingChanged", None), ("heldLinksChanged", None)]
    assert block[0]["reason"] == "flowChanged"
    assert "overlay" not in state and state["focus"] == confirm["focus"] and state["heldLinks"] == ["/accounts/7"]
    assert state["navigators"] == beneath["navigators"] and node_of(state, confirm["focus"])["ui"] == {"amount": "120"}


def test_signing_out_under_the_lock_leaves_for_sign_in(apps):
    """Clearing `signedIn` while locked switches flows: the lock and the flow beneath go, the
    waiting link is dropped, and a restore across the lock is refused."""
    session = apps["bank"].create_session(flags=SIGNED_IN + ["locked"])
    assert session.state["overlay"] == "lock" and session.state["version"] == 1
    session.op("present", {"screen": "forgotPin"})
    status, _, answer = session.call("POST", "/restore", {"version": 1})
    assert status == 200 and answer["overlay"] == "lock", answer
    session.op("flags", {"clear": ["locked"]})
    answer = session.call("POST", "/restore", {"version": 1})[2]
    assert answer["error"]["code"] == "conflict" and "overlay" in answer["error"]["message"]
    session.op("flags", {"set": ["locked"]})
    answer = session.call("POST", "/restore", {"version": 1})[2]
    assert answer["error"]["code"] == "conflict", "a lock shown again is another showing of it"
    assert session.op("deep-link", {"url": "/accounts/7"})["pending"]["url"] == "/accounts/7"
    state, block = session.block("POST", "/flags", {"clear": ["signedIn"]})
    assert state["flow"] == "signIn" and "overlay" not in state and state["pending"] is None
    assert [(event["type"], event.get("overlay", event.get("pending"))) for event in block if event["type"] in ("overlayChanged", "pendingChanged")] == [
        ("overlayChanged", None), ("pendingChanged", None)]
