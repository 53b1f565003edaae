"""The lists the JSON schemas repeat (kinds of finding, check families) agree with the one list in
the code, and every predicate kind is breakable, automatically or through a spec's ``break``."""
from __future__ import annotations

import json
from importlib.resources import files

from conformance.generate.breaks import AUTOMATIC
from conformance.spec.loader import specs_dir
from conformance.spec.model import CHECK_KINDS, EXPLICIT_BREAK, KINDS
from conformance.spec.predicates import PREDICATES


def _schema(name: str) -> dict:
    return json.loads(files("conformance").joinpath(f"schema/{name}").read_text())


def _lists_of_kinds(schema: dict) -> list[list[str]]:
    """Every enum or required list of a schema that names the kind ``crash``."""
    return [node[key] for node in _walk(schema) for key in ("enum", "required")
            if isinstance(node.get(key), list) and "crash" in node[key]]


def test_report_schema_lists_every_kind_in_order():
    lists = _lists_of_kinds(_schema("report.schema.json"))
    assert len(lists) >= 2 and all(kinds == list(KINDS) for kinds in lists)  # $defs.kind, per_kind


def test_waiver_schema_lists_every_kind():
    lists = _lists_of_kinds(_schema("waivers.schema.json"))
    assert lists and all(kinds == list(KINDS) for kinds in lists)


def test_operator_schema_lists_the_check_kinds():
    text = (specs_dir() / "schema" / "operator.schema.json").read_text()
    enums = [node["enum"] for node in _walk(json.loads(text)) if "numerics" in node.get("enum", [])]
    assert enums == [list(CHECK_KINDS)]


def test_every_predicate_kind_breaks_automatically_or_by_the_spec():
    assert AUTOMATIC == frozenset(PREDICATES) - EXPLICIT_BREAK
    assert EXPLICIT_BREAK <= frozenset(PREDICATES)


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_the_report_schema_lists_the_clause_kinds_of_the_operator_schema():
    def enums(node):
        if isinstance(node, dict):
            if "not_null" in (node.get("enum") or []):
                yield node["enum"]
            for value in node.values():
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    operator = json.loads((specs_dir() / "schema" / "operator.schema.json").read_text())
    clause_kinds = max(enums(operator), key=len)  # the constraint kinds (behavior and expr included)
    # review clauses are no constraints: reports list them per operator, never as clauses
    assert clause_kinds[-1] == "review"
    assert list(enums(_schema("report.schema.json"))) == [clause_kinds[:-1]]
