"""A seeded population of people on the coffee app (tests/live/apps/coffee.json), each a
session made for a `user`, driven through the onboarding a screen at a time: on each of its
screens a person goes on with probability 0.8, else leaves. Control's onboarding has three
screens (welcome, notifications, location) and the short one one, so the short onboarding
converts better by construction (0.8 against 0.8³ = 0.512). Those onboarded open a drink (50%),
the cart (60% of those) and order (50%), and open their orders (20%), in every variant alike.

    python3 tests/live/experiment_population.py URL [PEOPLE] [SEED]   drives a running server
"""
import random
import sys

from population import Connections

GO_ON = 0.8


def onboard(connections, index, session, rng):
    """Walks one session's onboarding; returns whether it completed it."""
    welcome = session["focus"]
    steps = ["notifications", "location"] if session["experiments"]["short-onboarding"]["variant"] == "control" else []
    for screen in steps:
        if rng.random() >= GO_ON:
            return False
        status, _ = connections.request(index, "POST", f"/v1/sessions/{session['id']}/push", {"screen": screen}, session["token"])
        assert status == 200, (status, screen)
    if rng.random() >= GO_ON:
        return False
    status, _ = connections.request(index, "POST", f"/v1/sessions/{session['id']}/finish", {"node": welcome, "result": {"status": "success"}}, session["token"])
    assert status == 200, status
    return True


def order(connections, index, session, rng):
    """What an onboarded person does in the main flow."""
    path = f"/v1/sessions/{session['id']}"
    if rng.random() < 0.5:
        assert connections.request(index, "POST", path + "/push", {"screen": "drink", "params": {"drinkId": "7"}}, session["token"])[0] == 200
        if rng.random() < 0.6:
            assert connections.request(index, "POST", path + "/deep-link", {"url": "/cart"}, session["token"])[0] == 200
            if rng.random() < 0.5:
                assert connections.request(index, "POST", path + "/present", {"screen": "done"}, session["token"])[0] == 200
    if rng.random() < 0.2:
        assert connections.request(index, "POST", path + "/select-tab", {"tab": "orders", "dismiss": True}, session["token"])[0] == 200


def drive(urls, people=4000, seed=44):
    """Drives `people` people (`user` ids `person-00000`, …), their requests spread over `urls`
    in turn; returns {user: (variant, onboarded)}."""
    rng = random.Random(seed)
    connections = Connections(urls)
    outcome = {}
    try:
        for index in range(people):
            user = f"person-{index:05d}"
            status, session = connections.request(index, "POST", "/v1/sessions", {"user": user})
            assert status == 201, session
            onboarded = onboard(connections, index + 1, session, rng)
            if onboarded:
                order(connections, index, session, rng)
            outcome[user] = (session["experiments"]["short-onboarding"]["variant"], onboarded)
    finally:
        connections.close()
    return outcome


if __name__ == "__main__":
    figures = drive([sys.argv[1]], int(sys.argv[2]) if len(sys.argv) > 2 else 4000, int(sys.argv[3]) if len(sys.argv) > 3 else 44)
    for variant in ("control", "short"):
        people = [onboarded for chosen, onboarded in figures.values() if chosen == variant]
        print(f"{variant}: {len(people)} people, {sum(people)} onboarded")
