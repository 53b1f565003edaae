"""The newer drafted clause kinds judged against kernels, not only the oracle: invented pages
(tests/fixtures/trust_pages, condition_pages) drafted and run (``conformance run``, in process)
against a status-only backend written from the pages themselves (tests/trust_backends.py:
``Correct``, which must be judged conformant apart from numerics "no reference") and against the
same backend with one planted bug, which must be found on exactly the clause it breaks.

Kinds: a string attribute's value set, duplicate axes, conditional rows, a single-value array and
a nonzero float, same-rank and zero-dimension rows, one list's elements of one dtype."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conformance.cli.main import main

HERE = Path(__file__).parent
PAGES = {"trust": HERE / "fixtures" / "trust_pages", "cond": HERE / "fixtures" / "condition_pages"}
BACKENDS = HERE / "trust_backends.py"
OPS = {"aclnnToyAxisScale": "trust", "aclnnToyRankGather": "trust", "aclnnToyForeachNeg": "trust",
       "aclnnToyGatedScale": "cond"}
# (operator, planted bug, the quote of the one clause it breaks [| a word of its expression, where
# one quote has a clause per tensor], the status the page gives it)
PLANTED = [
    ("aclnnToyAxisScale", "AnyMode", "mode不在支持的范围之内 / mode仅支持{\"keep\", \"floor\"}。", 161002),
    ("aclnnToyAxisScale", "AxisWrap", "dims数组中元素重复", 161002),
    ("aclnnToyAxisScale", "DilationAbove", "dilation的数值不等于1", 161002),
    ("aclnnToyAxisScale", "DilationFirst", "dilation的数值不等于1", 161002),
    ("aclnnToyAxisScale", "BetaZero", "beta为0", 161002),
    ("aclnnToyRankGather", "RankUnchecked", "self、index的维度数不一致", 161002),
    ("aclnnToyRankGather", "EmptyIndex", "（self、index）的任意一个维度等于0 | index", 161002),
    ("aclnnToyForeachNeg", "ListFirstTwo", "x或y中的Tensor的数据类型不一致", 561002),
    ("aclnnToyGatedScale", "GateUnchecked", "当gated为true时，gateOut为空指针", 161001),
]

pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for name, pages in PAGES.items():
        out[name] = tmp_path_factory.mktemp(f"drafts-{name}")
        assert main(["draft", str(pages), "-o", str(out[name])]) == 0
    return out


def _spec(drafted: dict[str, Path], api: str) -> dict:
    return yaml.safe_load((drafted[OPS[api]] / f"{api}.yaml").read_text(encoding="utf-8"))


def _clause(drafted: dict[str, Path], api: str, quote: str) -> dict:
    quote, _, word = quote.partition(" | ")
    (clause,) = [c for c in _spec(drafted, api)["constraints"] if c["source"]["quote"] == quote
                 and word in " ".join(c.get("all", []))]
    return clause


# quick: one product, 25 examples an item; ci: both products the pages support, its own seeded
# draws (drafts write no size axis: ci's largest cases are still the drafted shape draws')
SIZES = {"quick": ["--profile", "quick"], "ci": ["--profile", "ci", "--max-examples", "8"]}


def run(drafted: dict[str, Path], api: str, backend: str, report_dir: Path, size: str = "quick") -> dict:
    code = main(["run", "--specs", str(drafted[OPS[api]]), "--op", api, "--backend",
                 f"{BACKENDS}:{backend}", *SIZES[size], "--seed", "7", "-q", "--no-isolate",
                 "--report-dir", str(report_dir)])
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert code == (0 if report["outcome"] == "conformant" else 1) and report["errors"] == []
    return report


def judged(report: dict) -> dict[str, int]:
    """Status cases per clause the run judged (and passed)."""
    out: dict[str, int] = {}
    for r in report["results"]:
        if r["kind"] == "status" and r["outcome"] == "pass":
            out[r["clause"]] = out.get(r["clause"], 0) + r["cases"]
    return out


def assert_correct_is_conformant(report: dict) -> None:
    """No finding; every status result passes; numerics are never judged (a draft: 'no reference';
    an item of few cases at ci's 8 examples is also 'insufficient', its cases still unjudged)."""
    assert report["findings"] == [] and report["outcome"] == "incomplete"
    assert all(r["outcome"] == "pass" for r in report["results"] if r["kind"] == "status")
    numerics = [r for r in report["results"] if r["kind"] == "numerics"]
    assert numerics and all(r["failed"] == 0 and r["no_reference"] == r["cases"] > 0 for r in numerics)


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("api", list(OPS))
def test_a_backend_following_the_page_is_conformant(drafted, tmp_path, api, size):
    report = run(drafted, api, "Correct", tmp_path / "r", size)
    assert_correct_is_conformant(report)
    # each kind's clauses were judged, on cases breaking them
    ids = {c["id"] for _, _, quote, _ in [p for p in PLANTED if p[0] == api]
           for c in [_clause(drafted, api, quote)]}
    assert ids and all(judged(report).get(i, 0) > 0 for i in ids), (ids, judged(report))


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("api", "bug", "quote", "status"), PLANTED, ids=[p[1] for p in PLANTED])
def test_a_planted_bug_is_found_on_its_clause(drafted, tmp_path, api, bug, quote, status, size):
    clause = _clause(drafted, api, quote)
    report = run(drafted, api, bug, tmp_path / "r", size)
    assert report["outcome"] == "nonconformant"
    assert {(f["kind"], f["clause"]) for f in report["findings"]} == {("status", clause["id"])}
    words = " ".join(f["message"] for f in report["findings"])
    assert f"should be {status}" in words and "returned 0 (success)" in words
