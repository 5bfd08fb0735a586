#!/usr/bin/env python3
"""Creates sessions for the load benchmarks: `make-sessions.py URL COUNT FILE`.

Each session gets a 20-item list on its root node (so that stored and encoded state is not
trivially small), and its id and token go to FILE, one "ID TOKEN" a line.
"""
import http.client
import json
import sys
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

url, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
address = urllib.parse.urlsplit(url)
LIST = json.dumps({"sections": [{"id": "followers", "items": [
    {"id": f"u{index}", "kind": "user", "content": {"name": f"User {index}", "followers": index}} for index in range(20)]}]})


def make(batch):
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    made = []
    for _ in range(batch):
        connection.request("POST", "/v1/sessions", body="{}", headers={"Content-Type": "application/json"})
        state = json.loads(connection.getresponse().read())
        root = state["focus"]
        connection.request("PUT", f"/v1/sessions/{state['id']}/nodes/{root}/list", body=LIST,
                           headers={"Authorization": "Bearer " + state["token"]})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status
        made.append(f"{state['id']} {state['token']}")
    connection.close()
    return made


workers = 8
with ThreadPoolExecutor(max_workers=workers) as pool:
    batches = pool.map(make, [count // workers + (1 if index < count % workers else 0) for index in range(workers)])
    lines = [line for batch in batches for line in batch]
with open(path, "w") as file:
    file.write("\n".join(lines) + "\n")
