"""Every spec names the version of the documents it encodes (``doc_version``); lint refuses a spec
without one in one line naming the file, and the reports and ``conformance specs`` show it."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import KL, RP

from conformance.cli.main import main
from conformance.errors import SpecError
from conformance.generate.dry_run import load_operator
from conformance.run.config import resolve
from conformance.spec.loader import specs_dir
from conformance.spec.model import describe_doc_version

KL_SPEC = (specs_dir() / f"{KL}.yaml").read_text(encoding="utf-8")
KL_VERSION = re.search(r"doc_version:\n(?:  .*\n)+", KL_SPEC).group(0)
MIRRORS = {"hicann/ops-math": Path("/work/.mirror/hicann+ops-math/repo"),
           "hicann/ops-nn": Path("/work/.mirror/hicann+ops-nn/repo")}


def _load(specs, text: str):
    return load_operator(Path("kl.yaml"), specs.vocabulary, text=text)


def test_every_shipped_spec_names_a_revision_and_its_date(specs):
    for spec in specs.operators.values():
        v = spec.doc_version
        assert v is not None and re.fullmatch("[0-9a-f]{40}", v.revision), spec.api
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", v.date) and v.page.endswith(f"/{spec.api}.md"), spec.api


def test_the_seed_specs_name_the_seed_era_revision(specs):
    rp, kl = specs.operator(RP).doc_version, specs.operator(KL).doc_version
    assert (rp.revision[:7], rp.date) == ("16e115a", "2025-12-25")
    assert (kl.revision[:7], kl.date) == ("7d9ef91", "2025-12-30")
    assert rp.note.startswith("seed era") and kl.note.startswith("seed era")
    assert rp.date < "2026-05" and kl.date < "2026-05"  # before the page changed RP-EMPTY's meaning


@pytest.mark.skipif(not all(p.is_dir() for p in MIRRORS.values()), reason="needs the vendor mirrors")
def test_each_named_revision_touched_its_page(specs):
    """The revision is the last commit touching the page as of it (git log -1 REV -- PAGE)."""
    for spec in specs.operators.values():
        v = spec.doc_version
        repo = next(path for path in MIRRORS.values() if _holds(path, v.revision))
        last = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%H %ad", "--date=short",
                               v.revision, "--", v.page], capture_output=True, text=True, check=True)
        assert last.stdout.split() == [v.revision, v.date], spec.api


def _holds(repo: Path, rev: str) -> bool:
    done = subprocess.run(["git", "-C", str(repo), "cat-file", "-e", rev], capture_output=True)
    return done.returncode == 0


def test_a_spec_without_doc_version_fails_lint_in_one_line(tmp_path, capsys):
    path = tmp_path / f"{KL}.yaml"
    path.write_text(KL_SPEC.replace(KL_VERSION, ""), encoding="utf-8")
    assert main(["lint", str(path)]) == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"FAIL {path}:2: (top level): 'doc_version' is required but missing"]


@pytest.mark.parametrize(("version", "field", "words"), [
    ("doc_version: {date: \"2025-12-30\"}\n", "doc_version", "is not valid under any of the given schemas"),
    ("doc_version: {revision: 7d9ef91, date: \"2025-13-40\"}\n", "doc_version.date", "is not a date"),
    ("doc_version: {revision: not-a-sha}\n", "doc_version.revision", "does not match"),
    ("doc_version: {release: CANN 8.3, tag: x}\n", "doc_version", "'tag' is not allowed here"),
])
def test_a_bad_doc_version_names_its_field(specs, version, field, words):
    with pytest.raises(SpecError) as info:
        _load(specs, KL_SPEC.replace(KL_VERSION, version))
    assert info.value.field == field and words in info.value.message


def test_a_release_or_a_bare_date_is_enough(specs):
    release = _load(specs, KL_SPEC.replace(KL_VERSION, "doc_version: {release: CANN 8.3.RC1}\n"))
    assert release.doc_version.describe() == "release CANN 8.3.RC1"
    bare = _load(specs, KL_SPEC.replace(KL_VERSION, "doc_version: {revision: 7d9ef91, date: 2025-12-30}\n"))
    assert bare.doc_version.date == "2025-12-30"
    assert bare.doc_version.describe() == "revision 7d9ef91 (2025-12-30)"


def test_reports_and_specs_show_the_version(specs, capsys):
    cfg, about = resolve(specs, ops=[KL, RP], profile="quick")
    said = cfg.meta(specs, about)["operators"]
    assert said[KL]["doc_version"] == specs.operator(KL).doc_version.to_json()
    assert describe_doc_version(said[RP]["doc_version"]) == "revision 16e115a25bd8 (2025-12-25)"
    assert main(["specs", "--api", KL]) == 0
    assert "  document version: revision 7d9ef913eae9 (2025-12-30)" in capsys.readouterr().out.splitlines()
