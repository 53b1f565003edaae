"""An in-place tensor (role inout) against backends written from the page: a correct in-place
kernel gets no finding (as an input, selfRef would fail inputs-unchanged on every call), a write
outside its view is still caught, and a pure input written is still caught."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import drafted_pack_fixture

import conformance
from conformance.generate.dry_run import load_specs

PAGES = Path(__file__).parent / "fixtures" / "pages" / "layouts"
BACKENDS = "tests/inplace_backends.py"

pytestmark = [pytest.mark.usefixtures("no_packs_left"), pytest.mark.slow]
drafted = drafted_pack_fixture(PAGES)


def _run(drafted, backend: str, op: str, tmp_path, profile: str = "quick") -> dict:
    return conformance.run_suite(f"{BACKENDS}:{backend}", specs=[drafted], ops=[op], products=["atlas-a2"],
                                 profile=profile, max_examples=10, isolate=False, report_dir=tmp_path / "r")


def test_selfref_is_drafted_inout(drafted):
    spec = load_specs(str(drafted)).operator("aclnnInplaceFrob")
    assert spec.params["selfRef"].role == "inout"


@pytest.mark.parametrize("profile", ["quick", "ci"])
def test_a_correct_in_place_kernel_gets_no_finding(drafted, tmp_path, profile):
    for op in ("aclnnInplaceFrob", "aclnnFrob"):
        report = _run(drafted, "InPlace", op, tmp_path / op, profile)
        assert report["errors"] == [] and report["findings"] == [], (op, report["findings"][:1])
        judged = {r["kind"] for r in report["results"] if r["outcome"] == "pass"}
        assert {"status", "out-of-bounds-write", "determinism"} <= judged


def test_a_write_outside_the_in_place_view_is_caught(drafted, tmp_path):
    report = _run(drafted, "PlantedStray", "aclnnInplaceFrob", tmp_path)
    assert {f["kind"] for f in report["findings"]} == {"out-of-bounds-write"}


def test_a_pure_input_written_is_still_caught(drafted, tmp_path):
    report = _run(drafted, "PlantedClobber", "aclnnFrob", tmp_path)
    assert {f["kind"] for f in report["findings"]} == {"inputs-unchanged"}


def test_as_an_input_selfref_would_have_failed_every_correct_kernel(drafted, tmp_path):
    """What drafts said before role inout (a row saying 输入 for selfRef): a false finding."""
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(drafted, pack)
    spec = pack / "aclnnInplaceFrob.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "selfRef: {kind: tensor, role: inout}" in text
    spec.write_text(text.replace("role: inout", "role: input"), encoding="utf-8")
    report = _run(pack, "InPlace", "aclnnInplaceFrob", tmp_path)
    assert {f["kind"] for f in report["findings"]} == {"inputs-unchanged"}
