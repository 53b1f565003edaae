"""A malformed spec stops with one clear message naming the file, the line and the field."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from conformance.errors import SpecError
from conformance.generate.dry_run import load_operator, load_specs
from conformance.run.config import RunConfig
from conformance.run.plan import Item
from conformance.run.pytest_plugin import Session
from conformance.spec.loader import specs_dir
from conformance.spec.model import SpecSet

KL_SPEC = (specs_dir() / "aclnnKlDivBackward.yaml").read_text(encoding="utf-8")


def _at(clause: str, rest: str = "") -> str:
    """The field path of the shipped KL spec's clause ``clause`` (its index derived, not counted)."""
    ids = re.findall(r"^  - id: (\S+)", KL_SPEC, re.M)
    return f"constraints[{ids.index(clause)}]{rest}"


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _load(text: str, specs) -> SpecError:
    with pytest.raises(SpecError) as info:
        load_operator(Path("bad.yaml"), specs.vocabulary, text=text)
    return info.value


def test_shipped_specs_load(specs):
    # (more operators join over time: the seed two must stay)
    assert {"aclnnKlDivBackward", "aclnnReplicationPad3dBackward"} <= set(specs.operators)
    text = (specs_dir() / "aclnnReplicationPad3dBackward.yaml").read_text(encoding="utf-8")
    ids = re.findall(r"^  - id: (\S+)", text, re.M)
    assert [c.id for c in specs.operator("aclnnReplicationPad3dBackward").constraints] == ids


def test_missing_field(specs):
    text = KL_SPEC.replace("    on_violation: ACLNN_ERR_PARAM_NULLPTR\n", "", 1)
    err = _load(text, specs)
    assert err.file == "bad.yaml" and err.field == _at("KL-NULL")
    assert err.line == _line_of(text, "- id: KL-NULL")
    assert "'on_violation' is required but missing" in str(err)


def test_wrong_type(specs):
    text = KL_SPEC.replace("max: 8", "max: eight")
    err = _load(text, specs)
    assert (err.field, err.line) == (_at("KL-RANK", ".max"), _line_of(text, "max: eight"))
    assert "expected integer, got str 'eight'" in str(err)


def test_unknown_constraint_kind(specs):
    text = KL_SPEC.replace("kind: broadcastable", "kind: broadcasts")
    err = _load(text, specs)
    assert (err.field, err.line) == (_at("KL-BCAST-TARGET", ".kind"), _line_of(text, "kind: broadcasts"))
    assert "'broadcasts' is not one of" in str(err)


def test_bad_expression(specs):
    text = KL_SPEC.replace('"broadcastable(gradOutput.shape', '"__import__(gradOutput.shape')
    err = _load(text, specs)
    assert err.field == _at("KL-BCAST-GRAD", ".all[0]")
    assert err.line == _line_of(text, "__import__")
    assert "only calls of" in str(err)


def test_expression_unknown_name(specs):
    text = KL_SPEC.replace("broadcast(gradOutput.shape, self.shape", "broadcast(gradOutput.shape, slf.shape")
    err = _load(text, specs)
    assert "unknown name 'slf'" in str(err) and err.field == _at("KL-BCAST-GRAD", ".all[1]")


def test_unknown_dtype(specs):
    text = KL_SPEC.replace("atlas-a2: [FLOAT, FLOAT16, BFLOAT16]", "atlas-a2: [FLOAT, FLOAT8, BFLOAT16]")
    err = _load(text, specs)
    assert (err.field, err.line) == (_at("KL-DTYPE", ".per_product.atlas-a2[1]"), _line_of(text, "FLOAT8"))
    assert "unknown dtype 'FLOAT8'" in str(err)


def test_unknown_status_code(specs):
    text = KL_SPEC.replace("on_violation: ACLNN_ERR_PARAM_NULLPTR", "on_violation: ACLNN_ERR_NULL")
    err = _load(text, specs)
    assert "unknown status code 'ACLNN_ERR_NULL'" in str(err) and err.field == _at("KL-NULL", ".on_violation")


def test_unknown_parameter_and_requires(specs):
    old = "params: [self, out]\n    on_violation: ACLNN_ERR_PARAM_INVALID\n\n  - id: KL-BCAST"
    err = _load(KL_SPEC.replace(old, old.replace("self", "slf")), specs)
    assert "unknown parameter 'slf'" in str(err)
    err = _load(KL_SPEC.replace("requires: [KL-NULL, KL-BCAST-TARGET]", "requires: [KL-NUL]"), specs)
    assert "requires unknown constraint id KL-NUL" in str(err)


def test_duplicate_id(specs):
    err = _load(KL_SPEC.replace("- id: KL-DTYPE-OUT", "- id: KL-DTYPE"), specs)
    assert "duplicate constraint id KL-DTYPE" in str(err)


def test_yaml_syntax_error(specs):
    text = KL_SPEC.replace("products: [atlas-training, atlas-inference, atlas-a2, atlas-a3]",
                           "products: [atlas-training, atlas-inference")
    err = _load(text, specs)
    assert "YAML syntax error" in str(err) and err.line is not None and err.line > 1


def test_unknown_product(specs):
    err = _load(KL_SPEC.replace("atlas-inference, atlas-a2", "atlas-inferenc, atlas-a2"), specs)
    assert "unknown product 'atlas-inferenc'" in str(err) and err.field == "products[1]"


def test_message_is_one_paragraph(specs):
    err = _load(KL_SPEC.replace("kind: broadcastable", "kind: broadcasts"), specs)
    assert "\n" not in str(err) and str(err).startswith("bad.yaml:")


def test_directory_with_bad_spec(tmp_path):
    (tmp_path / "aclnnX.yaml").write_text("api: [", encoding="utf-8")
    with pytest.raises(SpecError, match="aclnnX.yaml:1"):
        load_specs(tmp_path)


# The loader dry-runs the generate section, so these stop at load instead of mid-run.
@pytest.mark.parametrize(("old", "new", "field", "message"), [
    ("self: {shape: [1, 3], dtype: FLOAT}", "self: {shape: [1, -3], dtype: FLOAT}",
     "generate.examples[1].args.self.shape",
     "example 1 is not a valid case: shape must be a list of non-negative integers"),
    ("        reduction: 3\n", "        reductio: 3\n", "generate.examples[1].args.reductio",
     "example 1 is not a valid case: aclnnKlDivBackward has no parameter 'reductio'"),
    ("rank: [1, 8]", "rank: [-2, 8]", "generate.draws.full",
     "draw 'full': rank must lie in [0, 64], got [-2, 8]"),
    ("rank: [1, 8]", "rank: [8, 1]", "generate.draws.full",
     "draw 'full': rank range [8, 1] is inverted (low > high)"),
    ("gradOutput: grad_shape,", "gradOutput: logTarget,", "generate.args.gradOutput",
     "args.gradOutput must give a shape (non-negative integers) or null for tensor parameter "
     "'gradOutput'; at the low end it gives False"),
    ("gradOutput: grad_shape,", "gradOutput: 'grad_shape[9]',", "generate.args.gradOutput",
     "args.gradOutput fails on the values drawn at the low end: cannot evaluate 'grad_shape[9]': "
     "tuple index out of range"),
    ("reduction: reduction,", "reduction: '10 // (reduction - 2)',", "generate.args.reduction",
     "args.reduction fails on the values drawn at the middle: cannot evaluate "
     "'10 // (reduction - 2)': integer division or modulo by zero"),
    ("self_shape: {sub_broadcast: full", "self_shape: {sub_broadcast: 'full[0]'",
     "generate.draws.self_shape",
     "draw 'self_shape' fails on the values drawn at the low end: 'int' object is not iterable"),
], ids=["example-shape", "example-param", "rank-negative", "rank-inverted", "arg-not-shape",
        "arg-index", "arg-zero-division", "draw-wrong-type"])
def test_generate_section_that_cannot_run(specs, old, new, field, message):
    text = KL_SPEC.replace(old, new, 1)
    assert text != KL_SPEC
    err = _load(text, specs)
    assert err.field == field and message in str(err)
    assert err.line == _line_of(text, new.strip())  # the line that was changed


def test_requirement_cycle(specs):
    text = KL_SPEC.replace("params: [gradOutput, self, target, out]\n    on_violation: "
                           "ACLNN_ERR_PARAM_NULLPTR", "params: [gradOutput, self, target, out]\n"
                           "    requires: [KL-BCAST-GRAD]\n    on_violation: ACLNN_ERR_PARAM_NULLPTR", 1)
    err = _load(text, specs)
    assert err.field == _at("KL-NULL", ".requires")
    assert "constraint KL-NULL requires itself (KL-NULL -> KL-BCAST-GRAD -> KL-NULL)" in str(err)


def test_requiring_a_behavior_clause(specs):
    text = KL_SPEC.replace("requires: [KL-NULL, KL-BCAST-TARGET]", "requires: [KL-NULL, KL-NONCONTIGUOUS]")
    err = _load(text, specs)
    assert err.field == _at("KL-BCAST-GRAD", ".requires[1]")
    assert err.line == _line_of(text, "requires: [KL-NULL, KL-NONCONTIGUOUS]")
    assert "requires KL-NONCONTIGUOUS, a behavior clause" in str(err)


def test_expression_failing_only_on_a_value_hypothesis_draws_stops_that_item(specs, tmp_path):
    # reduction is sampled from [0, 1, 2, 3]: the dry run tries 0, 3 and 2, never 1
    text = KL_SPEC.replace("reduction: reduction,", "reduction: '3 // (reduction - 1)',", 1)
    spec = load_operator(Path("kl.yaml"), specs.vocabulary, text=text)
    one = SpecSet(specs.vocabulary, {spec.api: spec}, specs.version, "test")
    cfg = RunConfig("reference", ("atlas-a2",), (spec.api,), "quick", 0, 30, tmp_path)
    records: list = []
    session = Session(cfg, SimpleNamespace(item=records.append, case=lambda *args: None))
    session.specs = one
    item = Item(spec.api, "atlas-a2", "FLOAT", "numerics")
    with pytest.raises(pytest.fail.Exception) as info:
        session.run(item)
    assert str(info.value) == (f"{item.id} could not run: ExprError: cannot evaluate "
                               "'3 // (reduction - 1)': integer division or modulo by zero")
    assert [(r.item, r.error) for r in records] == [(item.id, str(info.value).split("run: ")[1])]
