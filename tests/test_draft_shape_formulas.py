"""A tensor's shape written as a formula in the constraints section (shape_formulas.py): "需满足shape
约束：updates.shape = indices.shape + varRef.shape[1:]" settles the row "updates的shape不满足对应shape
约束". Until read, indices and updates were guesses drawn with varRef's shape, so most valid cases
were ones a kernel refuses. On an invented page in the vendor's layout (tests/fixtures/formula_pages),
drafted here, and against a backend right in its own way (numpy's fancy indexing) and a wrong one."""
from __future__ import annotations

from pathlib import Path

import pytest
from formula_backends import slices_shape, updates_refused
from helpers import (
    assert_caught_alone,
    assert_clean_pass,
    assert_rows_checkable,
    by_quote,
    drafted_pack_fixture,
    drafted_spec,
    drafted_specs_fixture,
    oracle_quick,
)

from conformance.cases.oracle import explain
from conformance.draft.patterns import match
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "formula_pages"
BACKENDS = Path(__file__).with_name("formula_backends.py")
API, ROW = "aclnnToyScatterScale", "updates的shape不满足shape约束条件"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize("text", ["updates的shape不满足对应shape约束", "x、y的shape不满足shape约束条件"])
def test_the_rows_are_vague_shape_rows(text):
    assert match(text, ("updates", "x", "y")).pattern == "vague shape"


def test_every_row_is_checkable_and_updates_is_drawn_from_the_formula(drafted):
    assert_rows_checkable(drafted, 3)
    spec = drafted_spec(drafted, API)
    draws, args = spec["generate"]["draws"], spec["generate"]["args"]
    # (varRef 1-3 dims, updates 1-4: indices 1 or 2, so updates stays within its 4)
    assert draws["indices_formula_shape"]["shape"]["rank"] == [1, 2]
    assert draws["updates_formula_shape"] == {"expr": "indices_formula_shape + varRef_shape[1:]"}
    assert (args["indices"], args["updates"]) == ("indices_formula_shape", "updates_formula_shape")
    clause = next(c for q, c in by_quote(spec).items() if q.startswith(ROW))
    assert clause["all"] == ["updates.shape == indices.shape + varRef.shape[1:]"]
    assert not any("Drafted guess" in c["source"]["quote"] for c in spec["constraints"])


def test_valid_cases_are_numpys_and_the_break_breaks_its_row_alone(specs):
    spec = specs.operator(API)
    ranks = set()
    for chooser in (FixedChooser("min"), FixedChooser("max"), *map(SeededChooser, range(40))):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", chooser)
        assert not updates_refused(case.args)
        assert explain(case, specs).expected == "success"
        ranks.add(len(case.args["updates"].shape))
    assert ranks == {1, 2, 3, 4}
    (cid,) = [c.id for c in spec.constraints if c.id.endswith("-SHAPE")]
    for mode in ("min", "max"):
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), cid)
        assert cases and all(breaks_only(explain(k, specs), cid) for k in cases), mode
        assert all(updates_refused(k.args) for k in cases), mode  # (numpy refuses each)


def test_numpys_slices_are_the_formulas_at_large_sizes():
    """The formula and numpy's fancy indexing agree past a quick run's sizes (numpy builds int8
    zeros of varRef's shape: 2^24 elements here)."""
    for var, idx in (((2 ** 12, 2 ** 12), (3, 5)), ((2 ** 24,), (7,)), ((1, 2 ** 23, 2), (2,))):
        assert slices_shape(var, idx) == idx + var[1:]


@pytest.mark.parametrize("backend", ["oracle", "NumpyScatter"])
def test_backends_shaping_updates_right_pass(drafted, specs, backend, tmp_path):
    name = backend if backend == "oracle" else f"{BACKENDS}:{backend}"
    report = oracle_quick(drafted, API, tmp_path, name, max_examples=8)
    (cid,) = [c.id for c in specs.operator(API).constraints if c.id.endswith("-SHAPE")]
    assert_clean_pass(report, cid, 8)


def test_a_backend_taking_any_updates_is_caught_on_its_row_alone(drafted, specs, tmp_path):
    report = oracle_quick(drafted, API, tmp_path, f"{BACKENDS}:UpdatesShapeUnchecked", max_examples=8)
    (cid,) = [c.id for c in specs.operator(API).constraints if c.id.endswith("-SHAPE")]
    assert_caught_alone(report, cid)


def test_two_formulas_for_one_tensor_are_left_for_review():
    """TfScatterAdd's page gives two (either may hold): no one formula to judge by."""
    from types import SimpleNamespace

    from conformance.draft.facts import Sentence
    from conformance.draft.shape_formulas import formula

    tensors = ["updates", "indices", "varRef"]
    said = (Sentence("updates.shape = indices.shape + varRef.shape[1:]", None),
            Sentence("indices.shape[-1] <= varRef.shape.rank且updates.shape = indices.shape[:-1] + "
                     "varRef.shape[indices.shape[-1]:]", None))
    ctx = SimpleNamespace(tensors=tensors, params={t: {"kind": "tensor"} for t in tensors},
                          facts=SimpleNamespace(constraints=said))
    assert formula(ctx, "updates") is None
    one = SimpleNamespace(**{**vars(ctx), "facts": SimpleNamespace(constraints=(
        Sentence("需满足shape约束：updates.shape = indices.shape + varRef.shape[1:]。", None),))})
    assert formula(one, "updates")[0] == ("updates", "indices", "varRef", 1)
