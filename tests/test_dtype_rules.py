"""The vendor's promotion tables and cast rules as the vocabulary encodes them (spec/dtype_rules.py):
cells checked by hand against the pages, and against numpy where the vendor agrees with it."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from conformance.errors import SpecError
from conformance.spec.dtype_rules import DtypeRules
from conformance.spec.loader import VOCABULARY_FILE, specs_dir
from conformance.spec.pack_vocabulary import add_pack
from conformance.spec.yaml_lines import LocatedYaml


@pytest.fixture(scope="module")
def rules(vocab):
    return vocab.dtype_rules


# Cells read off the pages by hand (table 1: tensor with tensor; table 2: tensor column, scalar row).
@pytest.mark.parametrize("a, b, want", [
    ("FLOAT16", "FLOAT", "FLOAT"), ("BFLOAT16", "FLOAT16", "FLOAT"), ("INT8", "UINT8", "INT16"),
    ("BOOL", "INT8", "INT8"), ("INT32", "FLOAT16", "FLOAT16"), ("INT64", "BFLOAT16", "BFLOAT16"),
    ("DOUBLE", "COMPLEX64", "COMPLEX128"), ("FLOAT", "COMPLEX64", "COMPLEX64"),
    ("UINT16", "UINT16", "UINT16"), ("UINT16", "FLOAT", None), ("UINT32", "INT32", None),
    ("UINT64", "BOOL", None)])
def test_tensor_tensor_cells(rules, a, b, want):
    assert rules.promote(a, b) == want
    assert rules.promote(b, a) == want  # the page's table is symmetric


@pytest.mark.parametrize("tensor, scalar, want", [
    ("FLOAT16", "FLOAT", "FLOAT16"), ("BOOL", "FLOAT", "FLOAT"), ("INT8", "DOUBLE", "FLOAT"),
    ("UINT16", "INT8", "UINT16"), ("BOOL", "UINT16", None), ("FLOAT16", "COMPLEX64", "COMPLEX32"),
    ("FLOAT", "INT64", "FLOAT"), ("INT32", "COMPLEX128", "COMPLEX64")])
def test_tensor_scalar_cells(rules, tensor, scalar, want):
    assert rules.promote(tensor, scalar, "tensor_scalar") == want


def test_complex32_is_kept_but_foreign(rules, vocab):
    assert rules.foreign == {"COMPLEX32"}
    assert "COMPLEX32" not in vocab.dtypes


def test_agrees_with_numpy_outside_the_documented_differences(rules, vocab):
    """The vendor's own (PyTorch-like) rules differ from numpy's in two ways: the wide unsigned
    integers promote only with themselves, and a float or complex with an integer or bool keeps
    the float's (complex's) dtype where numpy widens it (FLOAT with INT32: numpy DOUBLE)."""
    wide_unsigned = {"UINT16", "UINT32", "UINT64"}
    differ = 0
    for a, b in itertools.product(vocab.dtypes, repeat=2):
        mine = rules.promote(a, b)
        numpy = vocab.dtype_of_numpy(np.promote_types(vocab.dtypes[a].numpy, vocab.dtypes[b].numpy))
        kinds = (vocab.dtypes[a].kind, vocab.dtypes[b].kind)
        if {a, b} & wide_unsigned:
            assert mine == (a if a == b else None), (a, b)
        elif kinds[0] in ("float", "complex") and kinds[1] in ("int", "bool"):
            assert mine == a, (a, b)
        elif kinds[1] in ("float", "complex") and kinds[0] in ("int", "bool"):
            assert mine == b, (a, b)
        else:
            assert mine == numpy, (a, b)
        differ += mine != numpy
    assert differ == 98  # of 225 pairs


@pytest.mark.parametrize("source, target, want", [
    ("FLOAT", "FLOAT", "yes"), ("INT32", "FLOAT16", "yes"), ("BOOL", "COMPLEX64", "yes"),
    ("FLOAT16", "COMPLEX128", "yes"), ("INT64", "INT8", "yes"),
    ("FLOAT", "BOOL", "no"), ("INT32", "BOOL", "no"), ("COMPLEX64", "INT32", "no"),
    ("FLOAT", "INT32", "disputed"), ("COMPLEX128", "DOUBLE", "disputed"),
    ("COMPLEX32", "FLOAT", "no")])
def test_casts(rules, source, target, want):
    assert rules.cast(source, target) == want


def test_bad_tables_are_spec_errors(vocab):
    base = {"short": {"a": "FLOAT"}, "casts": {"categories": {"float": ["FLOAT"]}, "rules": []},
            "promotion": {"tensor_tensor": {"source": {"page": "p"}, "columns": ["a"],
                                            "rows": {"a": ["a", "a"]}}}}
    with pytest.raises(SpecError, match="2 cells for 1 columns"):
        DtypeRules(base, vocab.dtypes)
    base["promotion"]["tensor_tensor"]["rows"] = {"a": ["b"]}
    with pytest.raises(SpecError, match="unknown short name 'b'"):
        DtypeRules(base, vocab.dtypes)


def test_a_pack_cannot_change_the_tables():
    import copy

    import yaml

    from conformance.spec.loader import _schema

    base = yaml.safe_load((specs_dir() / VOCABULARY_FILE).read_text(encoding="utf-8"))
    same = LocatedYaml({"dtype_rules": base["dtype_rules"]}, {}, "pack/vocabulary.yaml")
    assert add_pack(base, same, _schema("vocabulary.schema.json"))["dtype_rules"] == base["dtype_rules"]
    changed = copy.deepcopy(base["dtype_rules"])
    changed["casts"]["rules"][0]["allow"]["float"].append("integer")
    pack = LocatedYaml({"dtype_rules": changed}, {}, "pack/vocabulary.yaml")
    with pytest.raises(SpecError, match="pack/vocabulary.yaml.*dtype_rules differ"):
        add_pack(base, pack, _schema("vocabulary.schema.json"))
