"""Spec packs: operators from directories outside the package (--specs DIR, run_suite(specs=...),
the conformance.specs entry point), read by every process of a run."""
from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers import KL

import conformance
from conformance.cli.main import main
from conformance.errors import SpecError
from conformance.spec import loader

SHIPPED = loader.specs_dir()
COPY = "aclnnKlDivBackwardCopy"


@pytest.fixture
def pack(tmp_path, monkeypatch):
    """A pack with one operator: the KL spec under another name (its reference is KL's)."""
    monkeypatch.delenv(loader.SPECS_ENV, raising=False)
    text = (SHIPPED / f"{KL}.yaml").read_text().replace(f"api: {KL}", f"api: {COPY}", 1)
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / f"{COPY}.yaml").write_text(text)
    yield tmp_path / "pack"
    os.environ.pop(loader.SPECS_ENV, None)  # main() sets it for the process


@pytest.mark.slow
def test_specs_and_lint_read_a_pack(pack, capsys):
    assert main(["specs", "--specs", str(pack)]) == 0
    listed = capsys.readouterr().out
    assert COPY in listed and KL in listed
    assert main(["lint", "--specs", str(pack)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert f"ok   {pack / (COPY + '.yaml')}: {COPY}: 15 clauses" in lines
    assert sum(line.startswith("ok   ") for line in lines) == len(list(SHIPPED.glob("*.yaml"))) + 1


@pytest.mark.slow  # a -n 2 run: workers start, load the pack, run
def test_a_run_with_a_pack_reaches_every_worker(pack, tmp_path):
    report = conformance.run_suite("reference", specs=[pack], ops=[COPY], profile="quick", max_examples=3,
                                   workers="2", report_dir=tmp_path / "r", keyword="boundary or FLOAT16")
    assert report["outcome"] == "conformant" and report["apis"] == [COPY]
    assert {i["item"].split("/")[0] for i in report["items"]} == {COPY}


@pytest.mark.parametrize("make, words", [
    (lambda p: (p / "vocabulary.yaml").write_text("spec_version: '9.0.0'\n"),
     "spec_version 9.0.0 differs from the shipped vocabulary's"),
    (lambda p: (p / "vocabulary.yaml").write_text(
        "products:\n  - {id: atlas-a2, doc_names: [Atlas A2], soc: [Ascend910B]}\n"),
     "product 'atlas-a2' is already defined differently: a pack may only add entries"),
    (lambda p: (p / f"{KL}.yaml").write_text((SHIPPED / f"{KL}.yaml").read_text()),
     f"operator {KL} is defined twice"),
])
def test_a_pack_that_clashes_is_one_line(pack, capsys, make, words):
    make(pack)
    assert main(["specs", "--specs", str(pack)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]


def test_a_missing_or_empty_pack_dir_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(loader.SPECS_ENV, raising=False)
    (tmp_path / "empty").mkdir()
    for where, words in ((tmp_path / "nope", "not a directory"), (tmp_path / "empty", "no spec file")):
        assert main(["specs", "--specs", str(where)]) == 2
        assert words in capsys.readouterr().err


def test_entry_point_packs_come_after_the_shipped_one(tmp_path, monkeypatch, pack):
    def fake(group):
        assert group == loader.PACK_GROUP
        return [SimpleNamespace(name="mine", value="mine:dir", load=lambda: lambda: str(pack)),
                SimpleNamespace(name="aclnn-seeds", value="x", load=lambda: loader.specs_dir)]
    monkeypatch.setattr(loader, "entry_points", fake)
    loader._spec_dirs.cache_clear()
    try:
        assert loader.spec_dirs() == (SHIPPED.resolve(), pack.resolve())
        broken = [SimpleNamespace(name="bad", value="bad:dir", load=lambda: 1 / 0)]
        monkeypatch.setattr(loader, "entry_points", lambda group: broken)
        loader._spec_dirs.cache_clear()
        with pytest.raises(SpecError, match="spec pack 'bad' .* failed to load: ZeroDivisionError"):
            loader.spec_dirs()
    finally:
        loader._spec_dirs.cache_clear()


def test_the_shipped_specs_are_a_registered_pack():
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=loader.PACK_GROUP)}
    assert found.get("aclnn-seeds") == "conformance.spec.loader:specs_dir"
    assert Path(loader.specs_dir()) == SHIPPED


# -- a pack's vocabulary.yaml adds product lines (and dtypes, formats) ----------------------------
DRAFT_PACK = Path(__file__).parent / "fixtures" / "draft_pack"


@pytest.mark.slow
def test_a_pack_vocabulary_adds_a_product_line(capsys, monkeypatch):
    monkeypatch.delenv(loader.SPECS_ENV, raising=False)
    specs = loader.read_packs((SHIPPED, DRAFT_PACK))
    assert specs.vocabulary.product("atlas-350-card") == "atlas-350-card"
    assert specs.operator("aclnnDraftSquareBackward").products == ("atlas-a2", "atlas-350-card")
    assert list(specs.vocabulary.products)[:6] == list(loader.read_specs().vocabulary.products)
    assert specs.digest != loader.read_packs((SHIPPED,)).digest
    try:
        assert main(["specs", "--specs", str(DRAFT_PACK)]) == 0
    finally:
        os.environ.pop(loader.SPECS_ENV, None)
    assert "  atlas-350-card   Atlas 350 加速卡" in capsys.readouterr().out.splitlines()


@pytest.mark.slow
def test_a_full_copy_of_the_shipped_vocabulary_adds_nothing(pack):
    (pack / "vocabulary.yaml").write_bytes((SHIPPED / "vocabulary.yaml").read_bytes())
    assert loader.read_packs((SHIPPED, pack)).vocabulary.products == loader.read_specs().vocabulary.products


@pytest.mark.parametrize("text, words", [
    ("products:\n  - {id: atlas-new, doc_names: [New], soc: [Ascend910B]}\n",
     "products[0]: 'Ascend910B' already names another entry of the vocabulary"),
    ("dtypes:\n  - {name: FLOAT8, numpy: float8_nope, acl_code: 34, kind: float}\n",
     "dtypes[0]: numpy dtype 'float8_nope' is unknown"),
    ("formats:\n  - {name: ND, acl_code: 7}\n", "format 'ND' is already defined differently"),
    ("products:\n  - {id: Atlas New}\n", "products[0].id: 'Atlas New' does not match"),
])
@pytest.mark.slow
def test_a_pack_vocabulary_entry_that_clashes_is_one_line(pack, capsys, text, words):
    (pack / "vocabulary.yaml").write_text(text, encoding="utf-8")
    assert main(["lint", "--specs", str(pack)]) == 2
    fails = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert fails and all(str(pack / "vocabulary.yaml") in line and words in line for line in fails)


def test_two_packs_adding_one_id_differently_clash(pack, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    (pack / "vocabulary.yaml").write_text("products:\n  - {id: atlas-new, doc_names: [New A]}\n")
    (other / "vocabulary.yaml").write_text("products:\n  - {id: atlas-new, doc_names: [New B]}\n")
    with pytest.raises(SpecError, match="other/vocabulary.yaml:2: products\\[0\\]: product 'atlas-new' is "
                                        "already defined differently"):
        loader.read_packs((SHIPPED, pack, other))
