"""Experiment results (issue 44): counted exactly from what the store committed, on every
instance alike, with statistics that match scipy and statsmodels on the same counts. A seeded
population on the coffee app, whose short onboarding converts better by construction, finds the
lift that was built in; an A/A experiment in the same population flags nothing."""
import json

import closed_contract
import jsonschema
import pytest
import yaml
from conftest import APPS, RunningServer
from experiment_population import drive
from experiment_reference import comparison, holm, rate_interval, sample_ratio, sequential
from postgres import PostgresCluster
from test_experiments import coffee_experiments, expected_variant

ADMIN = "admin-secret"
PEOPLE = 4000
# What the short onboarding converts better by, built into the population: 0.8 − 0.8³.
GO_ON_LIFT = 0.8 - 0.8**3


def close(actual, expected, tolerance=1e-9):
    """Whether two figures (or [low, high] pairs) agree to `tolerance`, relative to their size."""
    if isinstance(expected, list):
        return len(actual) == 2 and all(close(a, e, tolerance) for a, e in zip(actual, expected))
    return abs(actual - expected) <= tolerance * max(1.0, abs(expected))


def test_the_reference_gives_the_issues_figures():
    figures = comparison(1000, 10000, 1100, 10000)
    assert round(figures["z"], 4) == 2.3066 and round(figures["pValue"], 5) == 0.02108
    assert [round(bound, 5) for bound in figures["absoluteInterval"]] == [0.0015, 0.0185]
    assert round(figures["relative"], 3) == 0.1 and [round(bound, 4) for bound in figures["relativeInterval"]] == [0.0109, 0.1891]
    chi_square, p_value = sample_ratio([50500, 49500], [0.5, 0.5])
    assert round(chi_square, 6) == 10.0 and round(p_value, 5) == 0.00157 and p_value >= 0.001
    half_width, sequential_p = sequential(0.02, 0.008, 20000)
    assert round(half_width, 5) == 0.02502 and round(sequential_p, 4) == 0.2766


@pytest.fixture(scope="module")
def population_app(tmp_path_factory):
    """The coffee app with an A/A experiment beside its two: by user (so that the seeded
    population draws the same every run), two variants that are the same app, judged by the
    onboarding."""
    app = json.loads((APPS / "coffee.json").read_text())
    app["experiments"]["onboarding-aa"] = {
        "unit": "user",
        "variants": [{"name": "control"}, {"name": "same", "patch": {}}],
        "metrics": [{"name": "onboarded", "completes": "onboarding"}],
    }
    path = tmp_path_factory.mktemp("apps") / "coffee-aa.json"
    path.write_text(json.dumps(app))
    return path


CLOSED = closed_contract.closed(yaml.safe_load(closed_contract.SPEC.read_text()))


def fits(document, schema):
    """Whether an answer fits the contract's schema as a closed world (closed_contract.py)."""
    errors = [error.message for error in jsonschema.Draft202012Validator({**CLOSED, "$ref": closed_contract.REF + schema}).iter_errors(document)]
    assert not errors, errors
    return True


def results(server, key):
    status, _, document = server.request("GET", f"/v1/admin/experiments/{key}", token=ADMIN)
    assert status == 200, document
    assert fits(document, "ExperimentResults")
    return document


def without_times(document):
    """A results document without what depends on when it was read."""
    document = json.loads(json.dumps(document))
    document.pop("at")
    for metric in document["metrics"]:
        for variant in metric["variants"]:
            variant.pop("timeline")
    return document


def check_against_reference(document):
    """Every lift and the ratio check of a results document against scipy and statsmodels on its
    own counts; returns the metrics by name."""
    counts = [variant["exposed"] for variant in document["variants"]]
    chi_square, p_value = sample_ratio(counts, [variant["weight"] for variant in document["variants"]])
    assert close(document["sampleRatio"]["chiSquare"], chi_square) and close(document["sampleRatio"]["pValue"], p_value)
    goals = []
    for metric in document["metrics"]:
        control = metric["variants"][0]
        assert control["lift"] is None
        for variant in metric["variants"]:
            assert close(variant["rateInterval"], rate_interval(variant["conversions"], variant["units"]))
        for variant in metric["variants"][1:]:
            lift, reference = variant["lift"], comparison(control["conversions"], control["units"], variant["conversions"], variant["units"])
            for name, figure in reference.items():
                assert close(lift[name], figure), (metric["name"], name, lift[name], figure)
            if metric["guardrail"]:
                assert lift["adjustedPValue"] is None
            else:
                goals.append((lift, reference["pValue"]))
    for (lift, _), adjusted in zip(goals, holm([p for _, p in goals])):
        assert close(lift["adjustedPValue"], adjusted)
    return {metric["name"]: metric for metric in document["metrics"]}


def test_a_seeded_population_on_two_instances_finds_the_lift_built_in(population_app):
    postgres = PostgresCluster.create()
    instances = []
    try:
        instances = [
            RunningServer("--app", str(population_app), "--rate-limit", "0", "--admin-token", ADMIN, "--store", postgres.url()) for _ in range(2)
        ]
        people = drive([instance.url for instance in instances], people=PEOPLE)
        # Both instances count the same rows.
        documents = [results(instance, "short-onboarding") for instance in instances]
        assert without_times(documents[0]) == without_times(documents[1])
        document = documents[0]
        assert document["status"] == "running" and document["unit"] == "user" and document["mixedUnits"] == 0
        # Every person assigned as the hash says (computed here apart), and exposed on the welcome.
        experiment = coffee_experiments()["short-onboarding"]
        for variant in document["variants"]:
            chosen = [user for user, (name, _) in people.items() if name == variant["name"]]
            assert all(expected_variant(experiment, user) == variant["name"] for user in chosen)
            assert variant["assigned"] == variant["exposed"] == len(chosen)
        assert all(variant["assigned"] > 1800 for variant in document["variants"])
        assert not document["sampleRatio"]["flagged"]
        metrics = check_against_reference(document)
        # Conversions exactly as the driver made them.
        onboarded = metrics["onboarded"]
        for variant in onboarded["variants"]:
            assert variant["conversions"] == sum(1 for name, done in people.values() if name == variant["name"] and done)
            assert variant["timeline"][-1]["conversions"] == variant["conversions"]
        # The lift built in (0.8 − 0.8³ = 0.288) lies inside its intervals, and is found.
        lift = onboarded["variants"][1]["lift"]
        assert lift["absoluteInterval"][0] < GO_ON_LIFT < lift["absoluteInterval"][1]
        assert lift["sequentialInterval"][0] < GO_ON_LIFT < lift["sequentialInterval"][1]
        assert lift["adjustedPValue"] < 0.001 and lift["sequentialPValue"] < 0.001
        # The order funnel is the same process in both variants: steps counted in order.
        for variant in metrics["first order"]["variants"]:
            steps = [step["units"] for step in variant["steps"]]
            assert steps == sorted(steps, reverse=True) and steps[-1] == variant["conversions"]

        # The A/A experiment in the same population flags nothing.
        same = results(instances[1], "onboarding-aa")
        assert not same["sampleRatio"]["flagged"] and sum(variant["exposed"] for variant in same["variants"]) == PEOPLE
        aa = check_against_reference(same)["onboarded"]["variants"][1]["lift"]
        assert aa["adjustedPValue"] >= 0.05 and aa["sequentialInterval"][0] < 0 < aa["sequentialInterval"][1]

        # Forgetting one person (their rows in both experiments by user): counted no more, on either instance.
        status, _, deleted = instances[0].request("DELETE", "/v1/admin/experiment-units?unit=person-00000", token=ADMIN)
        assert status == 200 and deleted == {"unit": "person-00000", "deleted": 2} and fits(deleted, "ExperimentUnitsDeleted")
        after = results(instances[1], "short-onboarding")
        assert sum(variant["assigned"] for variant in after["variants"]) == PEOPLE - 1
    finally:
        for instance in instances:
            instance.stop()
        postgres.cleanup()



def test_results_and_deletion_refuse_what_they_cannot_do(population_app):
    server = RunningServer("--app", str(population_app), "--admin-token", ADMIN)
    try:
        assert server.request("GET", "/v1/admin/experiments/short-onboarding")[0] == 401
        status, _, document = server.request("GET", "/v1/admin/experiments/short-onboardng", token=ADMIN)
        assert status == 404 and "it declares" in document["error"]["message"] and "'short-onboarding'" in document["error"]["message"]
        status, _, document = server.request("GET", "/v1/admin/experiments/short-onboarding?since=yesterday", token=ADMIN)
        assert status == 400 and "since" in document["error"]["message"]
        for query in ["", "?unit=", "?unit=a&unit=b", "?user=ada", "?unit=" + "x" * 257]:
            status, _, document = server.request("DELETE", "/v1/admin/experiment-units" + query, token=ADMIN)
            assert status == 400, (query, document)
        # Nothing counted yet: figures that cannot be computed are null.
        document = results(server, "short-onboarding")
        assert document["sampleRatio"] is None and all(variant["assigned"] == 0 for variant in document["variants"])
        assert all(variant["lift"] is None and variant["rate"] is None and variant["rateInterval"] is None for metric in document["metrics"] for variant in metric["variants"])
        # A forced variant: with the admin token only, of what the app has; not counted.
        body = {"user": "ada", "variants": {"short-onboarding": "short"}}
        assert server.request("POST", "/v1/sessions", body)[0] == 401
        for variants in ({"short-onboardng": "short"}, {"short-onboarding": "shorter"}):
            status, _, document = server.request("POST", "/v1/sessions", {**body, "variants": variants}, token=ADMIN)
            assert status == 422 and ("it declares" in document["error"]["message"] or "it has" in document["error"]["message"]), document
        assert server.request("POST", "/v1/sessions", {**body, "variants": {"short-onboarding": 2}}, token=ADMIN)[0] == 400
        for variant in ("short", "control"):
            status, _, forced = server.request("POST", "/v1/sessions", {**body, "variants": {"short-onboarding": variant}}, token=ADMIN)
            assert status == 201 and forced["experiments"]["short-onboarding"]["variant"] == variant
        assert all(variant["assigned"] == 0 for variant in results(server, "short-onboarding")["variants"])
        # A user id with characters a path could not hold is given percent-encoded.
        server.create_session(user="ada/lovelace@example.com")
        status, _, document = server.request("DELETE", "/v1/admin/experiment-units?unit=ada%2Flovelace%40example.com", token=ADMIN)
        assert status == 200 and document == {"unit": "ada/lovelace@example.com", "deleted": 2}
    finally:
        server.stop()
    # Without --admin-token the paths are unknown.
    plain = RunningServer("--app", str(population_app))
    try:
        assert plain.request("GET", "/v1/admin/experiments/short-onboarding", token=ADMIN)[0] == 404
    finally:
        plain.stop()
