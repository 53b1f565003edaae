"""``conformance draft`` end to end on fixture pages written in the vendor's layout (invented
operators): the drafts, the stats, refusing someone's directory, pages at a git revision, the
drafts linting, and a quick run of a drafted operator against a backend that knows only the oracle."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

import conformance
from conformance.cli.main import main
from conformance.draft.pack import MARKER

HERE = Path(__file__).parent
PAGES = HERE / "fixtures" / "pages"
TOY = PAGES / "clauses_elementwise"
ORACLE = "oracle"  # the built-in backend answering with the documents' status codes


pytestmark = pytest.mark.usefixtures("no_packs_left")


@pytest.fixture(scope="module")
def drafted(tmp_path_factory):
    """Every fixture page drafted once (with --stats to a file)."""
    out = tmp_path_factory.mktemp("drafts")
    stats = out.parent / "stats.json"
    code = main(["draft", str(PAGES), "-o", str(out), "--stats", str(stats)])
    return code, out, json.loads(stats.read_text(encoding="utf-8"))


def test_each_page_is_drafted_and_a_broken_one_is_one_line(tmp_path, capsys):
    code = main(["draft", str(PAGES), "-o", str(tmp_path / "d")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1  # the broken fixture page
    assert len(err) == 2 and "aclnnNoPrototype.md: cannot read the function prototype" in err[1]
    assert err[0].endswith("aclnnMeasureToyWeight.md: not an operator page: it declares "
                           "aclnnMeasureToyWeight with neither a GetWorkspaceSize phase nor an executor")
    written = sorted(p.name for p in (tmp_path / "d").iterdir())
    assert "aclnnToyMix.yaml" in written and MARKER in written and "vocabulary.yaml" in written
    assert "aclnnFrob.yaml" in written and "aclnnInplaceFrob.yaml" in written  # one page, two specs
    assert not any("NoPrototype" in name or "MeasureToy" in name for name in written)


def test_the_toy_page_drafts_its_clauses(drafted):
    _, out, _ = drafted
    spec = yaml.safe_load((out / "aclnnToyMix.yaml").read_text(encoding="utf-8"))
    clauses = {c["id"]: c for c in spec["constraints"]}
    assert spec["products"] == ["ascend-950", "atlas-a3", "atlas-a2", "atlas-training", "atlas-q1"]
    assert sorted(spec["unsupported"]) == ["atlas-200i-500-a2", "atlas-inference"]
    assert clauses["TM-DTYPE"]["per_product"]["atlas-training"] == ["FLOAT", "FLOAT16"]  # the product note
    assert clauses["TM-EXPR"]["all"] == ["out.shape == broadcast(self.shape, other.shape)"]
    assert spec["params"]["mode"]["values"] == {0: "avg", 1: "max", 2: "min"}
    assert spec["generate"]["args"] == {"self": "self_shape", "other": "other_shape", "mode": "mode",
                                        "out": "out_shape"}
    reviews = [c for c in spec["constraints"] if c["kind"] == "review"]
    assert [r["source"]["quote"] for r in reviews] == ["self的元素之和超过玩具上限",
                                                       "self的最后一维不超过4096。"]
    assert reviews[0]["source"]["where"].endswith("errors table, row 8 (line 199)")
    vocabulary = yaml.safe_load((out / "vocabulary.yaml").read_text(encoding="utf-8"))
    assert {"id": "atlas-q1", "doc_names": ["Atlas Q1 玩具产品"]} in vocabulary["products"]
    assert {"name": "ACLNN_ERR_INNER_TOY_LIMIT", "code": 561999} in vocabulary["status_codes"]


def test_stats_per_page_and_in_total(drafted):
    code, _, stats = drafted
    assert code == 1
    page = next(p for p in stats["pages"] if p["api"] == "aclnnToyMix")
    counts = (page["parameters"], page["error_rows"], page["error_rows_checkable"], page["reviews"])
    assert counts == (4, 8, 7, 2)
    assert page["patterns"]["broadcast shape differs"] == 1 and page["patterns"]["(no pattern)"] == 1
    total = stats["total"]
    assert total["failed"] == 1 and stats["failures"][0]["part"] == "function prototype"
    assert total["drafted"] == len(stats["pages"]) == total["operators"] - 1
    # 8 pages: one documents no operator (not counted in the share), one two operators
    assert (total["pages"], total["not_operator"], total["operators"]) == (8, 1, 8)
    assert stats["not_operator"] == [{"page": str(PAGES / "layouts" / "docs" / "aclnnMeasureToyWeight.md"),
                                      "functions": "aclnnMeasureToyWeight"}]
    assert total["share_drafted"] == round(7 / 8, 4)
    assert total["error_rows"] == sum(p["error_rows"] for p in stats["pages"])
    assert total["share_checkable"] == round(total["error_rows_checkable"] / total["error_rows"], 4)


def test_the_drafts_lint(drafted, capsys):
    _, out, _ = drafted
    files = sorted(str(p) for p in out.glob("aclnn*.yaml"))
    assert len(files) >= 4
    assert main(["lint", *files]) == 0, capsys.readouterr().out


def test_a_directory_someone_else_wrote_is_refused(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["draft", str(TOY), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no conformance draft wrote" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_an_earlier_draft_is_overwritten(tmp_path):
    assert main(["draft", str(TOY), "-o", str(tmp_path)]) == 0
    (tmp_path / "aclnnToyMix.yaml").write_text("stale", encoding="utf-8")
    assert main(["draft", str(TOY), "-o", str(tmp_path)]) == 0
    assert (tmp_path / "aclnnToyMix.yaml").read_text(encoding="utf-8").startswith("# DRAFT of aclnnToyMix")


@pytest.mark.parametrize("argv, says", [
    (["draft", "--rev", "HEAD"], "--rev and --checkout go together"),
    (["draft"], "give a page or a directory"),
    (["draft", "no/such/dir"], "no such file or directory"),
])
def test_bad_command_lines(argv, says, tmp_path, capsys):
    assert main([*argv, "-o", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


def _git(repo: Path, *args: str) -> str:
    when = "2025-03-04T10:00:00"
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          capture_output=True, text=True, check=True, env=env).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
def test_pages_as_of_a_revision(tmp_path):
    repo = tmp_path / "ops-toy"
    page = repo / "mix" / "docs" / "aclnnToyMix.md"
    page.parent.mkdir(parents=True)
    text = (TOY / "docs" / "aclnnToyMix.md").read_text(encoding="utf-8")
    page.write_text(text, encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    first = _git(repo, "rev-parse", "HEAD")
    page.write_text(text.replace("<td class=\"tg-0pky\">FLOAT、FLOAT16、BFLOAT16</td>",
                                 "<td class=\"tg-0pky\">FLOAT</td>"), encoding="utf-8")
    _git(repo, "commit", "-qam", "second")
    out = tmp_path / "d"
    assert main(["draft", "--rev", "HEAD~1", "--checkout", str(repo), "-o", str(out)]) == 0
    spec = yaml.safe_load((out / "aclnnToyMix.yaml").read_text(encoding="utf-8"))
    assert spec["doc_version"] == {"revision": first, "date": "2025-03-04", "page": "mix/docs/aclnnToyMix.md"}
    assert spec["documents"] == {"upstream": "ops-toy: mix/docs/aclnnToyMix.md"}
    assert spec["constraints"][1]["per_product"]["atlas-a2"] == ["FLOAT", "FLOAT16", "BFLOAT16"]
    assert main(["draft", "mix/docs/aclnnToyMix.md", "--rev", "HEAD", "--checkout", str(repo),
                 "-o", str(out)]) == 0
    spec = yaml.safe_load((out / "aclnnToyMix.yaml").read_text(encoding="utf-8"))
    assert spec["constraints"][1]["per_product"]["atlas-a2"] == ["FLOAT"]


def test_a_drafted_operator_runs_against_the_oracle(tmp_path):
    out = tmp_path / "d"
    assert main(["draft", str(TOY), "-o", str(out)]) == 0
    report = conformance.run_suite(ORACLE, specs=[out], ops=["aclnnToyMix"],
                                   products=["atlas-a2", "atlas-q1"], profile="quick", max_examples=5,
                                   isolate=False, report_dir=tmp_path / "r")
    assert report["outcome"] == "incomplete"  # numerics: no reference
    assert report["findings"] == [] and report["errors"] == []
    kinds = {r["kind"]: r["outcome"] for r in report["results"] if r["kind"] != "unspecified"}
    assert kinds == {"status": "pass", "numerics": "no-reference", "determinism": "pass",
                     "inputs-unchanged": "pass", "output-untouched-on-error": "pass",
                     "out-of-bounds-write": "pass"}


def test_a_drafting_error_on_one_page_is_one_line_and_the_others_go_on(tmp_path, capsys, monkeypatch):
    from conformance.cli import draft as cli_draft

    real = cli_draft.draft_spec

    def flaky(facts, vocab, document):
        if facts.api == "aclnnWobble":
            raise RuntimeError("boom")
        return real(facts, vocab, document)

    monkeypatch.setattr(cli_draft, "draft_spec", flaky)
    assert main(["draft", str(PAGES / "wobble"), str(TOY), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"conformance: draft: {PAGES / 'wobble' / 'docs' / 'aclnnWobble.md'}: cannot read the "
                   "page (a drafting error): RuntimeError: boom"]
    assert (tmp_path / "aclnnToyMix.yaml").is_file() and not (tmp_path / "aclnnWobble.yaml").exists()


def test_an_optional_output_left_out_runs(tmp_path):
    """A drafted operator with an optional output (absent in some cases) runs every family."""
    import sys

    sys.path.insert(0, str(HERE))
    from dataclasses import replace

    from draft_facts import param, toy_dim

    from conformance.draft.emit import draft_spec
    from conformance.draft.facts import PrototypeParam
    from conformance.draft.pack import write_pack
    from conformance.spec.loader import VOCABULARY_FILE, load_vocabulary, specs_dir

    facts = toy_dim()
    extra = PrototypeParam("extraOptional", "aclTensor*", False, True)
    facts = replace(facts, prototype=(*facts.prototype, extra),
                    params=(*facts.params, param("extraOptional", 4, direction="output", same_as="self",
                                                 rank=(0, 8), usage=("shape与self一致。",), optional=True)))
    d = draft_spec(facts, load_vocabulary(specs_dir() / VOCABULARY_FILE), "toy: x.md")
    assert d.spec["params"]["extraOptional"] == {"kind": "tensor", "role": "output", "optional": True}
    write_pack(tmp_path / "d", [d])
    report = conformance.run_suite(ORACLE, specs=[tmp_path / "d"], ops=["aclnnToyDim"],
                                   products=["atlas-a2"], profile="quick", max_examples=5, isolate=False,
                                   report_dir=tmp_path / "r")
    assert report["errors"] == [] and report["findings"] == []
    assert {r["kind"] for r in report["results"]} >= {"status", "determinism", "out-of-bounds-write"}


def test_an_experimental_copy_that_cannot_be_read_is_skipped_when_its_operator_is_drafted(tmp_path, capsys):
    page = (PAGES / "layouts" / "docs" / "aclnnGlimmer.md").read_text(encoding="utf-8")
    broken = page[:page.index("### 参数说明")]  # the copy lost its parameter description
    for where, text in (("ops/glimmer/docs", page), ("experimental/glimmer/docs", broken)):
        (tmp_path / where).mkdir(parents=True)
        (tmp_path / where / "aclnnGlimmer.md").write_text(text, encoding="utf-8")
    assert main(["draft", str(tmp_path / "experimental"), str(tmp_path / "ops"), "-o",
                 str(tmp_path / "d"), "--stats", str(tmp_path / "s.json")]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "experimental/glimmer/docs/aclnnGlimmer.md: skipped (it could not be " \
        "read: the aclnnGlimmerGetWorkspaceSize section describes no parameters), aclnnGlimmer is " \
        "drafted from " in err[0]
    total = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))["total"]
    assert (total["failed"], total["skipped"], total["drafted"], total["written"]) == (0, 1, 2, 1)
    # alone, the copy is a failure
    assert main(["draft", str(tmp_path / "experimental"), "-o", str(tmp_path / "e")]) == 1


def test_a_page_right_after_stats_is_refused_not_overwritten(tmp_path, capsys):
    page = tmp_path / "aclnnX.md"
    page.write_text("mine", encoding="utf-8")
    assert main(["draft", "-o", str(tmp_path / "d"), "--stats", str(page), str(PAGES)]) == 2
    assert page.read_text(encoding="utf-8") == "mine"
    assert "--stats FILE must name a .json file" in capsys.readouterr().err
