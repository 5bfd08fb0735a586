"""Observability over live HTTP: /metrics in the Prometheus text format, request logs with ids."""
import json
import time

from prometheus_client.parser import text_string_to_metric_families

from conftest import APPS, RunningServer


def metrics(server):
    status, headers, _ = server.request("HEAD", "/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
    import urllib.request
    with urllib.request.urlopen(server.url + "/metrics") as response:
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


def test_metrics_parse_and_move_with_requests(server):
    before = metrics(server)
    session = server.create_session()
    session.op("push", {"screen": "settings"})
    session.op("pop")
    session.call("PUT", "/nodes/n1/list", {"sections": [{"id": "a", "items": []}]})
    server.request("GET", "/nowhere")
    after = metrics(server)
    assert value(after, "minerva_http_requests_total", route="push", method="POST", status="200") == \
        value(before, "minerva_http_requests_total", route="push", method="POST", status="200") + 1
    assert value(after, "minerva_http_requests_total", route="unknown", method="GET", status="404") >= 1
    assert value(after, "minerva_http_request_duration_seconds_count", route="push") >= 1
    assert value(after, "minerva_sessions") >= 1 and value(after, "minerva_nodes") >= 2
    assert value(after, "minerva_list_diffs_total") == value(before, "minerva_list_diffs_total") + 1
    assert value(after, "minerva_list_diff_duration_seconds_count") >= 1
    for type in ("added", "removed", "listChanged"):                 # the server is shared: at least ours
        assert value(after, "minerva_events_total", type=type) >= value(before, "minerva_events_total", type=type) + 1, type


def test_request_logs_are_json_with_request_ids_and_no_tokens(tmp_path):
    running = RunningServer("--app", str(APPS / "basic.json"), "--log-format", "json", "--log-level", "info")
    try:
        session = running.create_session()
        status, headers, _ = session.call("GET", headers={"X-Request-ID": "trace-123"})
        assert status == 200 and headers["X-Request-ID"] == "trace-123"
        status, headers, _ = session.call("GET")
        generated = headers["X-Request-ID"]
        session.op("push", {"screen": "settings"})
        time.sleep(0.3)
    finally:
        running.stop()
    lines = [json.loads(line) for line in running.log if line.startswith("{")]
    requests = [line for line in lines if line["message"] == "request"]
    assert any(line["request_id"] == "trace-123" and line["route"] == "session" and line["status"] == "200" for line in requests)
    assert any(line["request_id"] == generated for line in requests)
    assert all({"ts", "level", "label", "message"} <= set(line) for line in lines)
    assert session.token not in "".join(running.log)
