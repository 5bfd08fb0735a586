"""A simulated population: drives sessions through the demo app with known probabilities, seeded,
and returns the figures the analytics must give for it.

Each session starts on home (the home and account tabs are shown). From home it pushes profile
(70%), else it is deleted (15%) or left to expire (15%). From profile it pushes followers (60%),
else it pops back to home and is left there (20%), is deleted (10%) or left (10%). From followers
it pops back to profile and is left there (40%), is deleted (30%) or left (30%). What a session
leaves is expired by the server later (the caller moves the clock).

    python3 tests/live/population.py URL [SESSIONS] [SEED]   drives a running server, prints the figures
"""
import http.client
import json
import random
import sys
import urllib.parse
from collections import Counter


class Connections:
    """One keep-alive connection per server URL; request k of a session goes to URL k mod n."""

    def __init__(self, urls):
        self.connections = []
        for url in urls:
            address = urllib.parse.urlsplit(url)
            self.connections.append(http.client.HTTPConnection(address.hostname, address.port, timeout=10))

    def request(self, index, method, path, body=None, token=None):
        connection = self.connections[index % len(self.connections)]
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = "Bearer " + token
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        payload = response.read()
        return response.status, json.loads(payload) if payload else None

    def close(self):
        for connection in self.connections:
            connection.close()


def drive(urls, sessions=1000, seed=17, think=None):
    """Drives `sessions` sessions, calling `think(rng)` (when given) before each step after the
    first, where a test may let time pass; returns the expected figures:
    {"funnel": [reached home, profile, followers], "stopped": {step: Counter((screen, reason))},
     "shown": Counter(screen), "exits": {screen: Counter(reason)}}."""
    rng = random.Random(seed)
    connections = Connections(urls)
    shown, exits = Counter(), {}
    funnel = [0, 0, 0]
    stopped = {"home": Counter(), "profile": Counter()}

    def exit(screen, reason):
        exits.setdefault(screen, Counter())[reason] += 1

    try:
        for _ in range(sessions):
            requests = 0

            def call(method, suffix="", body=None):
                nonlocal requests
                if think:
                    think(rng)
                status, document = connections.request(requests, method, f"/v1/sessions/{session_id}{suffix}", body, token)
                requests += 1
                assert status in (200, 204), (method, suffix, status, document)

            status, created = connections.request(0, "POST", "/v1/sessions", {})
            assert status == 201, created
            requests = 1
            session_id, token = created["id"], created["token"]
            shown.update(["home", "account"])
            funnel[0] += 1
            draw = rng.random()
            if draw >= 0.7:
                reason = "deleted" if draw < 0.85 else "expired"
                if reason == "deleted":
                    call("DELETE")
                exit("home", reason)
                stopped["home"][("home", reason)] += 1
                continue
            call("POST", "/push", {"screen": "profile", "params": {"userId": "1"}})
            shown["profile"] += 1
            funnel[1] += 1
            draw = rng.random()
            if draw >= 0.6:
                if draw < 0.8:
                    call("POST", "/pop", {})
                    exit("profile", "pop")
                    exit("home", "expired")
                    stopped["profile"][("profile", "pop")] += 1
                else:
                    reason = "deleted" if draw < 0.9 else "expired"
                    if reason == "deleted":
                        call("DELETE")
                    exit("profile", reason)
                    stopped["profile"][("profile", reason)] += 1
                continue
            call("POST", "/push", {"screen": "followers", "params": {"userId": "1"}})
            shown["followers"] += 1
            funnel[2] += 1
            draw = rng.random()
            if draw < 0.4:
                call("POST", "/pop", {})
                exit("followers", "pop")
                exit("profile", "expired")
            else:
                reason = "deleted" if draw < 0.7 else "expired"
                if reason == "deleted":
                    call("DELETE")
                exit("followers", reason)
    finally:
        connections.close()
    return {"funnel": funnel, "stopped": stopped, "shown": shown, "exits": exits}


def main(arguments):
    if not 1 <= len(arguments) <= 3:
        sys.exit(__doc__)
    figures = drive([arguments[0]], *(int(argument) for argument in arguments[1:]))
    print(json.dumps({key: ({str(k): v for k, v in value.items()} if isinstance(value, dict) else value)
                      for key, value in figures.items()}, default=lambda counter: {str(k): v for k, v in counter.items()}, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
