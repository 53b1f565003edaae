"""Fuzz the spec loader: mutated shipped specs either load or stop with a SpecError, nothing else.

Each example starts from a shipped operator spec, applies 1-3 mutations over its YAML structure
(dropped keys, retyped values, hostile expressions, bad ids and names, a corrupted ``generate``
section), dumps it back to YAML and loads it. A second test makes mostly valid-but-unusual mutants
(narrower ranges, fewer options, other orders, bounds and texts), asserts most of them load, and
runs the boundary-case generator and the oracle on them: any exception there is a validation gap
of the loader.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from conformance.cases.oracle import explain
from conformance.errors import SpecError
from conformance.generate.dry_run import load_operator
from conformance.generate.strategies import boundary_cases
from conformance.spec.loader import load_vocabulary, specs_dir
from conformance.spec.model import OperatorSpec, SpecSet

SPEC_FILES = ("aclnnReplicationPad3dBackward.yaml", "aclnnKlDivBackward.yaml")
VOCAB = load_vocabulary(specs_dir() / "vocabulary.yaml")
BASES = {name: yaml.safe_load((specs_dir() / name).read_text(encoding="utf-8")) for name in SPEC_FILES}

OTHER_VALUES = (0, 1, -1, -7, 10**30, -(10**30), 2.5, -0.0, float("inf"), True, False, None, "",
                "x", "NOPE", [], [1, 2], ["a"], [5, 1], {}, {"a": 1}, {"mode": "above"})
HOSTILE = ("padding[", "__import__('os')", "self.shape[10**9]", "1/0", "a.__class__", "(" * 200,
           "self.shape[-100]", "padding[0] // 0", "10**30", "lambda: 0", "[x for x in padding]",
           "len(1)", "min()", "rank * 10**18 * 10**18", "shape.shape", "'a' + 1", "  ", "-" * 500 + "1",
           "not " * 300 + "True", "+" * 5000 + "1", "[" * 60 + "]" * 60, "grad_shape", "later_draw + 1")
UNKNOWN_NAMES = ("nosuch", "FLOAT128", "atlas-moon", "NCHW_WEIRD", "self", "__class__", "")
BAD_RANGES = ([5, 1], [1], [1, 2, 3], [-3, -1], [0, 10**30], ["a", "b"], [None, 1], [1.5, 2.5], 7)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every node below the root (dict keys and list indices)."""
    out: list[tuple[Any, ...]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        out.append(path + (key,))
        out.extend(_paths(child, path + (key,)))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def _generate(doc: dict[str, Any]) -> dict[str, Any]:
    gen = doc.get("generate")
    if not isinstance(gen, dict):
        gen = doc["generate"] = {}
    if not isinstance(gen.get("draws"), dict):
        gen["draws"] = {}
    return gen


def _constraints(doc: dict[str, Any]) -> list[Any]:
    cons = doc.get("constraints")
    if not isinstance(cons, list) or not cons:
        cons = doc["constraints"] = [{"id": "X-NEW", "kind": "expr"}]
    return cons


def _mutate(doc: dict[str, Any], data: st.DataObject) -> str:  # noqa: C901 - one branch per mutation
    kind = data.draw(st.sampled_from(("drop", "retype", "hostile", "ids", "unknown_names", "draw_op",
                                      "bad_range", "later_draw", "break_mode", "draw_value")))
    paths = _paths(doc)
    if kind == "drop" and paths:
        path = data.draw(st.sampled_from(paths))
        del _get(doc, path[:-1])[path[-1]]
    elif kind == "retype" and paths:
        _set(doc, data.draw(st.sampled_from(paths)), copy.deepcopy(data.draw(st.sampled_from(OTHER_VALUES))))
    elif kind == "hostile":
        strings = [p for p in paths if isinstance(_get(doc, p), str)]
        if strings:
            _set(doc, data.draw(st.sampled_from(strings)), data.draw(st.sampled_from(HOSTILE)))
    elif kind == "ids":
        cons = _constraints(doc)
        i = data.draw(st.integers(0, len(cons) - 1))
        if isinstance(cons[i], dict):
            other = cons[data.draw(st.integers(0, len(cons) - 1))]
            other_id = other.get("id", "X-Y") if isinstance(other, dict) else "X-Y"
            new = data.draw(st.sampled_from(("ZZ-UNKNOWN", other_id, "bad id", "")))
            if data.draw(st.booleans()):
                cons[i]["id"] = new
            else:
                cons[i]["requires"] = [new]
    elif kind == "unknown_names":
        name = data.draw(st.sampled_from(UNKNOWN_NAMES))
        lists = [p for p in paths if isinstance(_get(doc, p), list)
                 and p[-1] in ("params", "products", "formats", "requires", "views", "checks")
                 or (len(p) > 2 and p[-2] == "per_product" and isinstance(_get(doc, p), list))]
        dicts = [p for p in paths if p[-1] in ("params", "args", "per_product", "unsupported", "draws")
                 and isinstance(_get(doc, p), dict)]
        if lists and data.draw(st.booleans()):
            _get(doc, data.draw(st.sampled_from(lists))).append(name)
        elif dicts:
            target = _get(doc, data.draw(st.sampled_from(dicts)))
            target[name] = copy.deepcopy(next(iter(target.values()), "x"))
    elif kind == "draw_op":
        draws = _generate(doc)["draws"]
        name = data.draw(st.sampled_from([*draws, "fresh"]))
        draws[name] = data.draw(st.sampled_from(({"frobnicate": 1}, {"integers": [0, 1], "sampled": [1]},
                                                 {"shape": {"rank": 2}}, {"shape": {"bogus": 1}},
                                                 {"shape": 3}, {"sampled": []}, {"below": None},
                                                 {"sub_broadcast": "x", "min_rank": "many"},
                                                 {"expr": "1", "extra": 2}, {"booleans": True})))
    elif kind == "bad_range":
        draws = _generate(doc)["draws"]
        ranges = [p for p in _paths(draws) if p[-1] in ("integers", "rank", "dims", "max_numel",
                                                        "min_rank", "empty")]
        if ranges:
            value = copy.deepcopy(data.draw(st.sampled_from(BAD_RANGES)))
            _set(draws, data.draw(st.sampled_from(ranges)), value)
    elif kind == "later_draw":
        draws = _generate(doc)["draws"]
        if draws:
            last = list(draws)[-1]
            doc["generate"]["draws"] = {"early": {"expr": f"{last} + 1"}, **draws}
    elif kind == "break_mode":
        cons = [c for c in _constraints(doc) if isinstance(c, dict)]
        if cons:
            c = data.draw(st.sampled_from(cons))
            draw = data.draw(st.sampled_from([*(_generate(doc)["draws"]), "ghost"]))
            c["break"] = {draw: data.draw(st.sampled_from(({"mode": "sideways"}, {"mode": None},
                                                           {"mode": "above", "at": "x"}, {"integers": [5, 1]},
                                                           {"mode": "zero_dim", "at": [99]}, {})))}
    elif kind == "draw_value":
        draws = _generate(doc)["draws"]
        leaves = [p for p in _paths(draws) if isinstance(_get(draws, p), (str, int))]
        if leaves:
            # a copy: a shared list or dict placed twice (or inside itself) would leak into later
            # examples, or make the document cyclic
            value = copy.deepcopy(data.draw(st.sampled_from(HOSTILE + OTHER_VALUES)))
            _set(draws, data.draw(st.sampled_from(leaves)), value)
    return kind


def _benign(doc: dict[str, Any], data: st.DataObject) -> str:  # noqa: C901 - one branch per mutation
    """A mutation that keeps the spec valid but unusual: narrower ranges, fewer options, other
    orders, other bounds and texts, optional sections dropped."""
    kind = data.draw(st.sampled_from(("narrow", "dims", "max_numel", "sampled", "views", "drop",
                                      "quote", "precision", "reorder")))
    gen = _generate(doc)
    draws = [d for section in (gen.get("draws", {}), gen.get("large", {}).get("draws", {}))
             for d in section.values() if isinstance(d, dict)]
    if kind == "narrow":
        pairs = [d for d in draws if isinstance(d.get("integers"), list)
                 and all(isinstance(v, int) for v in d["integers"])]
        if pairs:
            d = data.draw(st.sampled_from(pairs))
            lo, hi = d["integers"]
            a = data.draw(st.integers(lo, hi))
            d["integers"] = [a, data.draw(st.integers(a, hi))]
    elif kind in ("dims", "max_numel"):
        shapes = [d["shape"] for d in draws if isinstance(d.get("shape"), dict)]
        if shapes:
            s = data.draw(st.sampled_from(shapes))
            if kind == "dims" and "numel" not in s:
                a = data.draw(st.integers(1, 6))
                s["dims"] = [a, data.draw(st.integers(a, 7))]
            elif kind == "max_numel":
                s["max_numel"] = data.draw(st.integers(1, 5000))
    elif kind == "sampled":
        lists = [d for d in draws if isinstance(d.get("sampled"), list) and d["sampled"]]
        if lists:
            d = data.draw(st.sampled_from(lists))
            d["sampled"] = data.draw(st.lists(st.sampled_from(d["sampled"]), min_size=1, max_size=4))
    elif kind == "views" and isinstance(gen.get("views"), list) and gen["views"]:
        gen["views"] = data.draw(st.lists(st.sampled_from(gen["views"]), unique=True))
    elif kind == "drop":
        key = data.draw(st.sampled_from(("views", "examples", "large", "precision", "unsupported")))
        (doc if key in ("precision", "unsupported") else gen).pop(key, None)
    elif kind == "quote":
        c = data.draw(st.sampled_from(_constraints(doc)))
        if isinstance(c, dict) and isinstance(c.get("source"), dict):
            c["source"]["quote"] = data.draw(st.text(min_size=1, max_size=40).filter(str.strip))
    elif kind == "precision":
        doc["precision"] = {"c": data.draw(st.floats(0.5, 8)), "extra_terms": data.draw(st.integers(0, 9))}
    elif kind == "reorder":
        doc["constraints"] = data.draw(st.permutations(_constraints(doc)))
    return kind


def _mutant(data: st.DataObject, benign: bool = False) -> tuple[str, list[str]]:
    doc = copy.deepcopy(BASES[data.draw(st.sampled_from(SPEC_FILES))])
    mutate = _benign if benign else _mutate
    kinds = [mutate(doc, data) for _ in range(data.draw(st.integers(1, 3)))]
    if benign and data.draw(st.integers(0, 3)) == 0:  # now and then one hostile mutation among them
        kinds.append(_mutate(doc, data))
    return yaml.safe_dump(doc, sort_keys=False), kinds


def _load(text: str) -> OperatorSpec | None:
    try:
        spec = load_operator(Path("fuzz.yaml"), VOCAB, text=text)
    except SpecError:
        return None
    assert isinstance(spec, OperatorSpec)
    return spec


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(st.data())
def test_mutated_specs_load_or_raise_spec_error(data):
    text, kinds = _mutant(data)
    note(f"mutations: {kinds}\n{text}")
    _load(text)  # any exception other than SpecError fails the test


# A spec that loads must run: the loader dry-runs its generate section (generate/dry_run.py), so the
# boundary phase and the oracle never meet an example that is not a case, an expression that does
# not evaluate on the drawn values, a draw fed a value of the wrong type or an inverted rank range.
# Nothing may escape here, not even a SpecError: that too would stop a run after it started.
# Most of these mutants are valid but unusual, so most load and the dry run and the generator
# really run on them (a mutant that stops at the schema tests nothing here).
@pytest.mark.slow
def test_loaded_mutants_generate_boundary_cases_and_judge_them():
    loaded: list[bool] = []

    @settings(max_examples=200, deadline=None, database=None, report_multiple_bugs=False,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(st.data())
    def run(data):
        text, kinds = _mutant(data, benign=True)
        note(f"mutations: {kinds}\n{text}")
        spec = _load(text)
        loaded.append(spec is not None)
        if spec is None:
            return
        specs = SpecSet(VOCAB, {spec.api: spec}, VOCAB.spec_version, "fuzz")
        for product in spec.products:
            for drawn in boundary_cases(specs, spec.api, product):
                explain(drawn.case, specs)

    run()
    rate = sum(loaded) / len(loaded)  # measured: 117-165 of 200 (the hostile mutants alone: 12)
    assert rate >= 0.5, f"only {sum(loaded)} of {len(loaded)} mutants loaded"


# Regressions found by the fuzzer: int() on min_rank / max_numel let TypeError/ValueError escape.
@pytest.mark.parametrize(("draw", "key", "value"), [
    ("grad_shape", "min_rank", [5, 1]), ("grad_shape", "min_rank", "padding["),
    ("full", "max_numel", [5, 1]), ("full", "max_numel", "__import__('os')")])
def test_draw_count_of_wrong_type_is_a_spec_error(draw, key, value):
    doc = copy.deepcopy(BASES["aclnnKlDivBackward.yaml"])
    spec = doc["generate"]["draws"][draw]
    (spec["shape"] if key == "max_numel" else spec)[key] = value
    with pytest.raises(SpecError) as info:
        load_operator(Path("fuzz.yaml"), VOCAB, text=yaml.safe_dump(doc, sort_keys=False))
    assert info.value.field == "generate"
    assert f"{draw!r}: {key} must be a non-negative integer" in str(info.value)


# Regression found by the fuzzer: a deeply nested expression raised RecursionError from ast.parse.
@pytest.mark.parametrize("text", ["not " * 3000 + "True", "-" * 2000 + "1", "+" * 5000 + "1"],
                         ids=["not", "minus", "plus"])
def test_deeply_nested_expression_is_a_spec_error(text):
    doc = copy.deepcopy(BASES["aclnnReplicationPad3dBackward.yaml"])
    index = next(i for i, c in enumerate(doc["constraints"]) if c.get("all"))  # the first expr clause
    doc["constraints"][index]["all"][0] = text
    with pytest.raises(SpecError) as info:
        load_operator(Path("fuzz.yaml"), VOCAB, text=yaml.safe_dump(doc, sort_keys=False))
    assert info.value.field == f"constraints[{index}].all[0]" and "nested" in str(info.value)
