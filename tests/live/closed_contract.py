"""openapi.yaml as a closed world, for checking what the server sends against it.

The contract is open to additions (clients skip members, event types and values they do not
know), so an answer with a member the contract does not name would still validate against it.
The server itself must send nothing undocumented, so the live tests validate its answers against
this copy: every object schema of an answer closes (`unevaluatedProperties: false`), `Event`
loses `OtherEvent` (the server sends no type it does not document), and each open set of values
(a string with its known values in `x-extensible-enum`) admits only those values, and an object
whose members come in set combinations (`x-shapes`) only those. Request schemas are strict already.
"""
import copy
import json
from pathlib import Path

import yaml

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
REF = "#/components/schemas/"


def closed(spec):
    """A copy of `spec` whose answers' schemas admit nothing the contract does not name."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    requests = referenced_from(spec, request=True)
    members = {member["$ref"][len(REF):] for schema in walk(spec) for member in schema.get("allOf", []) if "$ref" in member}
    for name, schema in schemas.items():
        if name not in requests:
            close(schema, closing=name not in members)
    for response in spec["components"].get("responses", {}).values():
        close(response, closing=False)
    for item in spec["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict):
                for response in operation.get("responses", {}).values():
                    close(response, closing=False)
    event = schemas["Event"]
    event["anyOf"] = [member for member in event["anyOf"] if member["$ref"] != REF + "OtherEvent"]
    return spec


def close(node, closing=True):
    """Closes the object schemas in `node`: `closing` says whether `node` itself is one that
    stands alone (not a member of an `allOf`, whose siblings name the rest of its members)."""
    if isinstance(node, list):
        for item in node:
            close(item)
        return
    if not isinstance(node, dict) or "$ref" in node:
        return
    if "x-extensible-enum" in node:
        node["enum"] = node.pop("x-extensible-enum")
        return
    if "x-shapes" in node:
        # anyOf: the shapes are disjoint for objects, and a nullable object's null fits them all.
        node["anyOf"] = [{"required": shape, "propertyNames": {"enum": shape}} for shape in node.pop("x-shapes")]
    for key, value in node.items():
        if key in ("allOf", "if", "not"):
            # Members of an allOf are closed by the schema that holds them (their siblings name
            # the rest); the schemas of `if` and `not` test a condition, and closing one would
            # change what it tests.
            for member in value if isinstance(value, list) else [value]:
                close(member, closing=False)
        elif key in ("properties", "content"):
            for member in value.values():
                close(member)
        elif key not in ("enum", "const", "required", "example", "examples", "headers", "discriminator"):
            close(value)
    is_object = "properties" in node or "allOf" in node
    if closing and is_object and "additionalProperties" not in node and "unevaluatedProperties" not in node:
        node["unevaluatedProperties"] = False


def referenced_from(spec, request):
    """The component schemas that request bodies and parameters reach."""
    found = set()

    def follow(node):
        for schema in walk(node):
            ref = schema.get("$ref", "")
            if ref.startswith(REF) and ref[len(REF):] not in found:
                found.add(ref[len(REF):])
                follow(spec["components"]["schemas"][ref[len(REF):]])

    for item in spec["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and request:
                follow(operation.get("requestBody", {}))
    return found


def walk(node):
    """Every object in `node`, nested ones included."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for item in node:
            yield from walk(item)


def load():
    """The closed copy of the repository's openapi.yaml."""
    return closed(yaml.safe_load(SPEC.read_text()))


if __name__ == "__main__":
    print(json.dumps(load(), indent=1))
