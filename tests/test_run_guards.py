"""A run that cannot judge anything, or would write where it must not, stops before it touches the
report dir: exit 2 with one line, and the previous reports (and anyone's files) stay as they are."""
from __future__ import annotations

import json

import pytest
from helpers import KL, RP

import conformance
from conformance.cli.main import main
from conformance.errors import UsageError
from conformance.report.merge import merge_reports

QUICK = ["run", "--profile", "quick", "--max-examples", "2", "-q"]


@pytest.fixture
def earlier(tmp_path):
    """A report dir holding an earlier run's reports."""
    out = tmp_path / "reports"
    assert main([*QUICK, "--op", KL, "-k", "boundary", "--report-dir", str(out)]) == 0
    return out, (out / "report.json").read_text(), sorted(p.name for p in out.rglob("*"))


@pytest.mark.parametrize("extra, words", [
    (["-k", "NOSUCH"], "-k NOSUCH: no test item was selected (item ids look like aclnn"),
    (["-k", "and or ("], "-k and or (: not a valid expression"),
    (["--op", RP, "--product", "atlas-inference"], f"nothing to test: {RP} on atlas-inference is not "
                                                   "applicable"),
    (["-n", "abc"], "-n abc: expected a positive number of workers or auto"),
    (["-n", "-3"], "-n -3: expected a positive number of workers or auto"),
])
def test_a_run_that_would_judge_nothing_leaves_the_earlier_reports(earlier, capsys, extra, words):
    out, report, files = earlier
    capsys.readouterr()
    assert main([*QUICK, "--report-dir", str(out), *extra]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "usage:" not in err, err
    assert (out / "report.json").read_text() == report
    assert sorted(p.name for p in out.rglob("*")) == files


def test_run_suite_refuses_a_selection_of_nothing(tmp_path):
    with pytest.raises(UsageError, match="no test item was selected"):
        conformance.run_suite("reference", keyword="ZZZ", report_dir=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_a_report_dir_that_is_a_file_or_someone_elses_folder_is_refused(tmp_path, capsys):
    a_file = tmp_path / "file.txt"
    a_file.write_text("mine")
    mine = tmp_path / "mine"
    (mine / "cases").mkdir(parents=True)
    (mine / "cases" / "notes.yaml").write_text("hand-written")
    (mine / "report.html").write_text("my page")
    for where, words in ((a_file, "is a file, not a directory"), (a_file / "sub", "is a file"),
                         (mine, "it holds cases, report.html, which a run would clear or overwrite")):
        assert main([*QUICK, "--op", KL, "-k", "boundary", "--report-dir", str(where)]) == 2
        assert words in capsys.readouterr().err
    assert (mine / "cases" / "notes.yaml").read_text() == "hand-written"
    assert (mine / "report.html").read_text() == "my page" and a_file.read_text() == "mine"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([*QUICK, "--op", KL, "-k", "boundary", "--report-dir", str(empty)]) == 0
    assert (empty / ".conformance-report").is_file()  # a later run may clear it


@pytest.mark.slow  # two runs and a merge
def test_an_empty_shard_of_a_selection_is_a_success_that_merge_accepts(tmp_path, capsys):
    shards = []
    for k in range(1, 11):
        out = tmp_path / f"s{k}"
        rc = main([*QUICK, "--op", KL, "-k", "KL-NULL", "--shard", f"{k}/10", "--report-dir", str(out)])
        assert rc in (0, 1), capsys.readouterr().err
        shards.append(json.loads((out / "report.json").read_text()))
    empty = [s for s in shards if s["stats"]["items"] == 0]
    assert empty and all(s["outcome"] == "empty" for s in empty)
    assert "empty — shard" in capsys.readouterr().out
    merged = merge_reports(shards)
    assert merged["outcome"] == "conformant" and merged["stats"]["items"] == sum(s["stats"]["items"]
                                                                                 for s in shards)


def test_a_folder_with_other_files_is_used_and_they_are_left_alone(tmp_path):
    """The Quick start's `conformance run` writes to reports/, which holds a README."""
    out = tmp_path / "reports"
    out.mkdir()
    (out / "README.md").write_text("what this folder is")
    assert main([*QUICK, "--op", KL, "-k", "boundary", "--report-dir", str(out)]) == 0
    assert (out / "README.md").read_text() == "what this folder is" and (out / "report.json").is_file()
