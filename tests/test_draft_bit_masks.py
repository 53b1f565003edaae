"""A dropout mask's size (bit_masks.py): the row "mask的shape不满足条件" settled by the mask's usage
note "元素个数需要为(align(self的元素个数,128)/8)" (or "shape需要为…"). Until read, the mask was a
guess drawn with the data tensor's shape, so most valid cases were ones a kernel refuses. On
invented pages in the vendor's layout (tests/fixtures/mask_pages), drafted here, and against
backends right in their own way (numpy's packbits) and wrong ones."""
from __future__ import annotations

from pathlib import Path

import pytest
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
from mask_backends import mask_refused, packed

from conformance.cases.oracle import explain
from conformance.draft.bit_masks import note
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser, SeededChooser
from conformance.generate.strategies import breaks_only

PAGES = Path(__file__).parent / "fixtures" / "mask_pages"
BACKENDS = Path(__file__).with_name("mask_backends.py")
SCALE, DROP = "aclnnToyMaskedScale", "aclnnToyBitDrop"
SCALE_ROW, DROP_ROW = "mask的shape不满足要求", "maskOut的shape不满足约束条件"

pytestmark = pytest.mark.usefixtures("no_packs_left")

drafted = drafted_pack_fixture(PAGES)
specs = drafted_specs_fixture()


@pytest.mark.parametrize(("text", "said"), [
    ("shape需要为(align(gradOutput的元素个数,128)/8)，表示比特数需要与128对齐", ("shape", "gradOutput")),
    ("元素个数需要为(align(self的元素个数, 128)/8)；当p=0时不处理", ("元素个数", "self")),
    ("shape需要为（align(input的元素个数，128)/8）。", ("shape", "input")),
    ("shape需要为(align(input的元素个数,64)/8)", None),  # (another padding: not this rule)
    ("元素个数需要为align(self的元素个数,128)", None),  # (bits, not bytes)
])
def test_the_note_phrasings(text, said):
    assert note(text) == said


def test_every_row_is_checkable_and_the_mask_is_drawn_from_the_data(drafted):
    assert_rows_checkable(drafted, 6)
    scale, drop = drafted_spec(drafted, SCALE), drafted_spec(drafted, DROP)
    assert scale["generate"]["draws"]["mask_bits_shape"] == {"expr": "[(prod(self_shape) + 127) // 128 * 16]"}
    assert scale["generate"]["args"]["mask"] == "mask_bits_shape"
    clause = next(c for q, c in by_quote(scale).items() if q.startswith(SCALE_ROW))
    assert clause["all"] == ["mask.numel == (self.numel + 127) // 128 * 16"]
    assert clause["break"] == {"mask_bits_shape": {"expr": "[abs((prod(self_shape) + 127) // 128 * 16 - 1)]"}}
    clause = next(c for q, c in by_quote(drop).items() if q.startswith(DROP_ROW))
    assert clause["all"] == [
        "len(maskOut.shape) == 1 and maskOut.shape[0] == (input.numel + 127) // 128 * 16"]
    quotes = [c["source"]["quote"] for c in (*scale["constraints"], *drop["constraints"])]
    assert not any("Drafted guess" in q for q in quotes)


@pytest.mark.parametrize("api", [SCALE, DROP])
def test_valid_cases_are_numpys_and_each_break_breaks_its_row_alone(specs, api):
    spec = specs.operator(api)
    sizes = set()
    for chooser in (FixedChooser("min"), FixedChooser("max"), *map(SeededChooser, range(40))):
        case = build_case(spec, specs.vocabulary, "atlas-a2", "FLOAT", chooser)
        assert not mask_refused(api, case.args)
        assert explain(case, specs).expected == "success"
        sizes.add(case.args["mask" if api == SCALE else "maskOut"].shape[0])
    assert sizes == {16, 32}  # (1 to 256 elements: one or two 128-bit blocks; 256 at the max)
    (cid,) = [c.id for c in spec.constraints if "MASK" in c.id]
    for mode in ("min", "max"):
        cases = broken_cases(spec, specs.vocabulary, "atlas-a2", "FLOAT", FixedChooser(mode), cid)
        assert cases and all(breaks_only(explain(k, specs), cid) for k in cases), mode
        assert all(mask_refused(api, k.args) for k in cases), mode  # (numpy refuses each)


def test_numpys_packed_size_is_the_documented_one():
    assert [packed(n) for n in (0, 1, 128, 129, 1111)] == [0, 16, 16, 32, 144]  # (align(1111,128) = 1152)


@pytest.mark.parametrize("shape", [[], [0, 3], [1111], [3, 1000, 1001], [2 ** 24 + 1], [7, 2 ** 31 + 5]])
def test_the_drafted_draw_and_break_agree_with_numpy_at_any_size(drafted, shape):
    """The draft's own expressions, evaluated at sizes past what a quick run draws (a 2^31-element
    tensor's mask: 2^28 bytes), give numpy's packed size and, broken, another one."""
    import math

    from conformance.spec.expressions import Expression

    spec = drafted_spec(drafted, SCALE)
    drawn = spec["generate"]["draws"]["mask_bits_shape"]["expr"]
    broken = next(c for q, c in by_quote(spec).items() if q.startswith(SCALE_ROW))["break"]
    names = frozenset({"self_shape"})
    want = list(Expression(drawn, names).evaluate({"self_shape": shape}))
    bad = list(Expression(broken["mask_bits_shape"]["expr"], names).evaluate({"self_shape": shape}))
    elements = math.prod(shape)
    assert want == [-(-elements // 128) * 16]
    if elements < 10 ** 7:  # (numpy packs the small ones in memory)
        assert want == [packed(elements)]
    assert bad[0] >= 0 and bad != want


@pytest.mark.parametrize("api", [SCALE, DROP])
@pytest.mark.parametrize("backend", ["oracle", "NumpyMasks"])
def test_backends_sizing_masks_right_pass(drafted, specs, api, backend, tmp_path):
    name = backend if backend == "oracle" else f"{BACKENDS}:{backend}"
    report = oracle_quick(drafted, api, tmp_path, name, max_examples=8)
    (cid,) = [c.id for c in specs.operator(api).constraints if "MASK" in c.id]
    assert_clean_pass(report, cid, 8)


def test_a_backend_taking_any_mask_is_caught_on_its_row_alone(drafted, specs, tmp_path):
    report = oracle_quick(drafted, SCALE, tmp_path, f"{BACKENDS}:MaskSizeUnchecked", max_examples=8)
    (cid,) = [c.id for c in specs.operator(SCALE).constraints if "MASK" in c.id]
    assert_caught_alone(report, cid)


def test_a_backend_wanting_unpadded_masks_is_caught(drafted, tmp_path):
    report = oracle_quick(drafted, DROP, tmp_path, f"{BACKENDS}:UnpaddedMask", max_examples=8)
    assert report["outcome"] == "nonconformant"
    assert {f["kind"] for f in report["findings"]} == {"status"}
