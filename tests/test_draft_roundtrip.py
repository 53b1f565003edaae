"""The round trip on pages we wrote: tests/fixtures/roundtrip/ restates, in the vendor's layout and
in our own sentences, the facts of two shipped hand specs (aclnnMseLossBackward; the seed-era
aclnnReplicationPad3dBackward). Each page is committed to a small docs repository at the path and
on the date its hand spec's doc_version names, drafted at that revision (``conformance draft --rev
--checkout``) and compared with the hand spec by meaning (spec/compare.py) in round-trip mode: for
the mechanical kinds (products, dtypes per product, ranks, formats, relations, values, codes) the
draft says what the hand spec says, and every fact left over is asserted here with why.

Later revisions of the page change a fact on purpose: a product line the hand spec does not know,
committed after its date, is put down to the hand spec being older; a fact changed on the hand
spec's own date is put down to a misreading.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.cli.spec_compare import read_side, verdict
from conformance.spec.compare import Entry, OperatorDiff, compare
from conformance.spec.loader import specs_dir
from conformance.spec.meaning import GROUPS, facts
from conformance.spec.model import OperatorSpec

PAGES = Path(__file__).parent / "fixtures" / "roundtrip"
MSE, RP3D = "aclnnMseLossBackward", "aclnnReplicationPad3dBackward"
OLDER = "hand spec is older: documents may have changed"
MISREADS = "one of them misreads the page"
LATER = "2026-09-01"  # after both hand specs' dates


def git(repo: Path, *args: str, date: str | None = None) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    if date:
        env.update(GIT_AUTHOR_DATE=f"{date}T12:00:00", GIT_COMMITTER_DATE=f"{date}T12:00:00")
    done = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True)
    return done.stdout.decode().strip()


def hand(api: str) -> OperatorSpec:
    return read_side(str(specs_dir() / f"{api}.yaml"), "hand").specs[api]


class Docs:
    """A docs repository holding the fixture pages where and when the hand specs say."""

    def __init__(self, root: Path) -> None:
        self.root, self.repo = root, root / "docs"
        self.repo.mkdir()
        git(self.repo, "init", "-q")
        self.revs: dict[str, str] = {}

    def commit(self, label: str, api: str, text: str, date: str) -> None:
        page = self.repo / hand(api).doc_version.page
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", label, date=date)
        self.revs[label] = git(self.repo, "rev-parse", "HEAD")

    def draft(self, label: str, api: str) -> OperatorSpec:
        out = self.root / f"draft-{label}"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(["draft", "--rev", self.revs[label], "--checkout", str(self.repo), "-o",
                         str(out), hand(api).doc_version.page])
        assert code == 0
        return read_side(str(out), "draft").specs[api]


def _page(api: str) -> str:
    return (PAGES / f"{api}.md").read_text(encoding="utf-8")


def _changed(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _in_row(text: str, param: str, old: str, new: str) -> str:
    """``text`` with the first ``old`` after the parameter-table row of ``param`` made ``new``."""
    head, row, rest = text.partition(f">{param}</td>")
    assert row and old in rest.split("</tr>")[0], (param, old)
    return head + row + rest.replace(old, new, 1)


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[OperatorSpec, OperatorDiff, str]]:
    """label → (draft, its comparison with the hand spec, the round-trip verdict)."""
    docs = Docs(tmp_path_factory.mktemp("roundtrip"))
    mse, rp3d = hand(MSE), hand(RP3D)
    docs.commit("rp3d", RP3D, _page(RP3D), rp3d.doc_version.date)
    docs.commit("mse", MSE, _page(MSE), mse.doc_version.date)
    # the same day, a page stating self's dtypes without BFLOAT16: nothing dates the difference
    docs.commit("mse-typo", MSE, _in_row(_page(MSE), "self(aclTensor*)", "FLOAT、FLOAT16、BFLOAT16",
                                         "FLOAT、FLOAT16"), mse.doc_version.date)
    # later, the page adds a product line (Atlas training products now supported)
    docs.commit("mse-later", MSE, _changed(_page(MSE), "<term>Atlas 训练系列产品</term>：不支持",
                                           "<term>Atlas 训练系列产品</term>：支持"), LATER)
    out = {}
    for label, api in (("rp3d", RP3D), ("mse", MSE), ("mse-typo", MSE), ("mse-later", MSE)):
        draft = docs.draft(label, api)
        assert draft.doc_version.revision == docs.revs[label]
        out[label] = (draft, compare(hand(api), draft), verdict(hand(api).doc_version, draft.doc_version))
    return out


def _keys(entries: tuple[Entry, ...]) -> list[tuple[str, str, str]]:
    return [(e.change, e.group, e.key) for e in entries]


def test_the_mse_page_drafts_every_mechanical_fact_of_the_hand_spec(drafts) -> None:
    draft, diff, said = drafts["mse"]
    assert draft.doc_version.date == hand(MSE).doc_version.date and said == MISREADS
    known = facts(hand(MSE))
    # not vacuous: every fact of the hand spec, in every group it has, is compared ...
    assert diff.facts == len(known) == len(facts(draft))
    assert {f.group for f in known.values()} == set(GROUPS)
    # ... and none differs, nor its code
    assert diff.meaning == ()
    assert known["dtype out @ ascend-950"].code == "unspecified"  # out's dtype has no error row
    assert known["rank out max"].value == ("8",)
    # What is compared by id only: the out-shape rule is an expression on both sides (the draft's
    # from the broadcast row); empty tensors are a contract clause of the hand spec (the page is
    # silent on them, so no sentence of ours says anything about them).
    assert diff.not_compared == ((("MSE-SHAPE-OUT", "expr"), ("MSE-EMPTY", "expr")),
                                 (("MLB-EXPR", "expr"),))
    assert draft.reviews == ()


def test_the_seed_era_pad_page_drafts_every_fact_of_the_hand_spec(drafts) -> None:
    draft, diff, said = drafts["rp3d"]
    assert draft.products == ("atlas-a3", "atlas-a2", "atlas-training")
    assert said == MISREADS  # drafted at the hand spec's own date: no document change explains it
    known = facts(hand(RP3D))
    assert diff.facts == len(known)
    # "the three tensors have one rank" (rank_in same: true) too: gradOutput's and gradInput's rank
    # cells say "与self一致", drafted as one clause over the three, coded by the rank row
    assert known["same_rank {gradInput, gradOutput, self}"].code == "ACLNN_ERR_PARAM_INVALID"
    assert diff.meaning == ()
    # Expressions are compared by id only: the hand spec's padding limit, forward-output shape and
    # timeout advisory are, in the draft, review clauses quoting our rows; its empty-tensor rule is
    # the draft's expr clause on the dims but the first (the row's reading, as the hand spec's);
    # negative padding is a contract clause (the page does not speak of it).
    assert diff.not_compared[0] == (("RP-PAD-LIMIT", "expr"), ("RP-SHAPE-OUT", "expr"),
                                    ("RP-EMPTY", "expr"), ("RP-PAD-NEGATIVE", "expr"),
                                    ("RP-LARGE", "expr"))
    quotes = [r.source.quote for r in draft.reviews]
    assert "padding中有值大于等于self对应维度的大小" in quotes
    assert "gradOutput的shape不符合正向输出的shape" in quotes
    empty = next(c for c in draft.constraints if c.source.quote == "self为空tensor且存在非第一维度的大小为0")
    assert (empty.kind, [e.text for e in empty.exprs]) == (
        "expr", ["len(self.shape) < 2 or min(self.shape[1:]) > 0"])
    assert any("300" in q for q in quotes)


def test_a_product_line_added_after_the_hand_spec_is_put_down_to_its_age(drafts) -> None:
    draft, diff, said = drafts["mse-later"]
    assert draft.doc_version.date == LATER
    assert said == OLDER
    assert _keys(diff.meaning) == [
        ("changed", "products", "product atlas-training"),
        *(("added", "dtypes", f"dtype {t} @ atlas-training")
          for t in ("gradOutput", "self", "target", "out"))]
    product = diff.meaning[0]
    assert (product.old, product.new) == (("not supported",), ("supported",))
    assert {e.new for e in diff.meaning[1:]} == {("BFLOAT16", "FLOAT", "FLOAT16")}


def test_a_fact_changed_on_the_hand_specs_date_is_a_misreading(drafts) -> None:
    _, diff, said = drafts["mse-typo"]
    assert said == MISREADS
    products = hand(MSE).products
    # self's list lost BFLOAT16; gradOutput and target are "the same as self" on the page
    assert sorted(_keys(diff.meaning)) == sorted(
        ("changed", "dtypes", f"dtype {t} @ {p}") for t in ("gradOutput", "self", "target") for p in products)
    assert {(e.old, e.new) for e in diff.meaning} == {(("BFLOAT16", "FLOAT", "FLOAT16"),
                                                       ("FLOAT", "FLOAT16"))}
