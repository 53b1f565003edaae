"""Valid cases keep in one dtype the tensors a sentence no pattern reads may tie (``generate:
dtype_together``): an invented page in the vendor's layout (tests/fixtures/dtype_tie_pages) whose
conditional error row ("开启gated时，gateOut同x在数据类型或shape上存在差别") and weight's usage note
("精度需跟随x，两者取同一种类型") say so in words no pattern reads. Drafted, linted, built and run
against a status-only backend following the page (tests/trust_backends.py: ``Correct``)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from helpers import by_quote, drafted_fixture
from helpers import clauses as clauses_of

from conformance.cases.oracle import explain
from conformance.cli.main import main
from conformance.draft.context import build_context
from conformance.draft.dtype_ties import dtype_together
from conformance.draft.reading import read_page
from conformance.generate.build import broken_cases, build_case
from conformance.generate.choosers import FixedChooser
from conformance.spec.loader import (
    SPECS_ENV,
    VOCABULARY_FILE,
    load_vocabulary,
    read_operator,
    specs_dir,
    vocabulary_for,
)
from conformance.spec.model import OperatorSpec, SpecSet

HERE = Path(__file__).parent
PAGES = HERE / "fixtures" / "dtype_tie_pages"
API = "aclnnToyTiedBlend"
PAGE = PAGES / "toy_tie" / "docs" / f"{API}.md"
GATED = "开启gated时，gateOut同x在数据类型或shape上存在差别"
NOTE = "精度需跟随x，两者取同一种类型。"

pytestmark = pytest.mark.usefixtures("no_packs_left")


drafted = drafted_fixture(PAGES, API)


def test_the_draft_ties_what_its_review_sentences_name(drafted):
    _, spec = drafted
    by = by_quote(spec)
    assert by[GATED]["kind"] == by[NOTE]["kind"] == "review"  # still read by a person, never judged
    assert spec["generate"]["dtype_together"] == [
        {"params": ["gateOut", "x"], "from": by[GATED]["id"]},
        {"params": ["weight", "x"], "from": by[NOTE]["id"]}]  # the note's own row: weight
    # the tie is no clause: the only dtype relation judged is the row the patterns read
    assert [c["params"] for c in spec["constraints"] if c["kind"] == "same_dtype"] == [["x", "out"]]


def test_the_stats_count_the_ties(tmp_path, capsys):
    assert main(["draft", str(PAGES), "-o", str(tmp_path), "--stats"]) == 0
    total = json.loads((tmp_path / "draft-stats.json").read_text(encoding="utf-8"))["total"]
    assert (total["dtype_ties"], total["drafts_with_dtype_ties"], total["reviews"]) == (2, 1, 2)
    printed = capsys.readouterr().out
    assert "review clauses: 2 (2 keep tensors in one dtype in valid cases, in 1 draft)" in printed


@pytest.fixture(scope="module")
def ctx():
    vocab = load_vocabulary(specs_dir() / VOCABULARY_FILE)
    return build_context(read_page(PAGE.read_text(encoding="utf-8"), str(PAGE), vocab), vocab)


def _review(quote: str, doc: str = "upstream") -> dict:
    return {"id": "R", "kind": "review", "source": {"doc": doc, "quote": quote}}


@pytest.mark.parametrize(("quote", "doc", "params"), [
    ("当gated为true时，out和x的dtype须一样", "upstream", ["out", "x"]),
    ("x、weight、gateOut三者的类型需统一", "upstream", ["x", "weight", "gateOut"]),
    ("gateOut和x的shape存在差别", "upstream", None),  # no dtype word
    ("gateOut的数据类型由gated决定", "upstream", None),  # one tensor (gated is a bool)
    ("Drafted guess: x and out share a dtype", "contract", None),  # the draft's own note
])
def test_which_review_sentences_tie(ctx, quote, doc, params):
    got = dtype_together(ctx, [_review(quote, doc)])
    assert got == ([{"params": params, "from": "R"}] if params else [])


def _spec(out: Path, untied: bool = False) -> OperatorSpec:
    """The drafted spec, loaded (``untied``: without its ``dtype_together``)."""
    path = out / f"{API}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if untied:
        del data["generate"]["dtype_together"]
    vocab, _ = vocabulary_for((out,))
    return read_operator(path, vocab, yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


def test_valid_cases_keep_tied_tensors_together_and_broken_ones_are_unchanged(drafted):
    out, _ = drafted
    tied, untied = _spec(out), _spec(out, untied=True)
    vocab, _ = vocabulary_for((out,))
    dtypes = lambda case: {n: case.args[n].dtype for n in ("x", "weight", "out", "gateOut")}  # noqa: E731
    for product in tied.products:
        for dtype in tied.test_dtypes(product):
            for mode in ("min", "max"):
                case = build_case(tied, vocab, product, dtype, FixedChooser(mode))
                assert set(dtypes(case).values()) == {dtype}, (product, dtype, mode)
            # untied, the "max" draw mixes them: the valid case the page's kernel rejects
            mixed = dtypes(build_case(untied, vocab, product, dtype, FixedChooser("max")))
            assert mixed["weight"] != dtype and mixed["gateOut"] != dtype and mixed["out"] == dtype
    clauses = lambda spec: [(c.id, c.kind, c.params, c.status, c.options) for c in spec.constraints]  # noqa: E731
    assert clauses(tied) == clauses(untied)  # no clause, so no broken case, comes of a tie
    # the same breaks: on the simplest draw the very same cases; on the other, cases built on the
    # tied valid case, breaking the same clauses with the same codes
    specs = {id(spec): SpecSet(vocab, {API: spec}, vocab.spec_version, "t") for spec in (tied, untied)}

    def broken(spec: OperatorSpec, mode: str, cid: str) -> list:
        return broken_cases(spec, vocab, "atlas-a2", "FLOAT", FixedChooser(mode), cid)

    def verdict(spec: OperatorSpec, case) -> tuple:
        e = explain(case, specs[id(spec)])
        return e.expected, clauses_of(e), e.status

    coded = [c for c in tied.constraints if c.status is not None]
    assert len(coded) == 4
    for c in coded:
        assert broken(tied, "min", c.id) == broken(untied, "min", c.id), c.id
        pairs = list(zip(broken(tied, "max", c.id), broken(untied, "max", c.id), strict=True))
        assert all(verdict(tied, a) == verdict(untied, b) for a, b in pairs), c.id


def test_the_lint_rejects_a_tie_naming_an_unknown_parameter(drafted, tmp_path, capsys):
    out, spec = drafted
    spec["generate"]["dtype_together"][1]["params"] = ["weight", "nosuch"]
    path = tmp_path / f"{API}.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert main(["lint", "--specs", str(tmp_path), str(path)]) == 2
    printed = capsys.readouterr().out.strip()
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if "nosuch" in text)
    assert printed == (f"FAIL {path}:{line}: generate.dtype_together[1].params[1]: dtype_together "
                       "names unknown parameter 'nosuch' (parameters: x, weight, gated, out, gateOut)")


def _run(specs: Path, report_dir: Path) -> dict:
    os.environ.pop(SPECS_ENV, None)  # (main() leaves the last run's packs in the environment)
    main(["run", "--specs", str(specs), "--op", API, "--backend",
          f"{HERE / 'trust_backends.py'}:Correct", "--profile", "quick", "--seed", "7", "-q",
          "--no-isolate", "--report-dir", str(report_dir)])
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert report["errors"] == []
    return report


@pytest.mark.slow
def test_a_kernel_rejecting_the_mix_is_no_finding(drafted, tmp_path):
    out, spec = drafted
    assert main(["lint", "--specs", str(out)]) == 0
    report = _run(out, tmp_path / "tied")
    assert report["findings"] == []
    # the report says why: each review clause with the tensors valid cases keep together for it
    said = {r["quote"]: r.get("dtype_together") for r in report["operators"][API]["review"]}
    assert said == {GATED: ["gateOut", "x"], NOTE: ["weight", "x"]}
    html = (tmp_path / "tied" / "report.html").read_text(encoding="utf-8")
    assert "valid cases keep gateOut, x in one dtype" in html
    assert all(r["outcome"] == "pass" for r in report["results"] if r["kind"] == "status")
    # the same draft without its ties: valid cases mix, the kernel rejects them as its page says,
    # and the run blames it (the false finding the tie removes)
    del spec["generate"]["dtype_together"]
    untied = tmp_path / "untied"
    untied.mkdir()
    for f in out.iterdir():
        if f.name != f"{API}.yaml":
            (untied / f.name).write_bytes(f.read_bytes())
    (untied / f"{API}.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")
    findings = _run(untied, tmp_path / "mixed")["findings"]
    assert findings and {f["kind"] for f in findings} == {"status"}
    assert all("returned 161002" in f["message"] for f in findings), [f["message"] for f in findings]
