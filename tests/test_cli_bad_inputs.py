"""Every command given a bad argument says so in one line on stderr and exits 2: never a traceback,
never pytest's or argparse's usage text."""
from __future__ import annotations

import json
import textwrap

import pytest
from helpers import KL, RP

from conformance.cli.main import main

HUGE_CASE = textwrap.dedent(f"""\
    api: {KL}
    product: atlas-a2
    args:
      gradOutput: {{shape: [100000, 100000, 100000], dtype: FLOAT}}
      self: {{shape: [100000, 100000, 100000], dtype: FLOAT}}
      target: {{shape: [100000, 100000, 100000], dtype: FLOAT}}
      reduction: 0
      logTarget: false
      out: {{shape: [100000, 100000, 100000], dtype: FLOAT}}
    """)


@pytest.fixture
def files(tmp_path):
    """Named paths a table row may use: {file}, {missing}, {text}, {huge}, {empty_dir}."""
    (tmp_path / "file.txt").write_text("not a report, not a case\n")
    (tmp_path / "huge.yaml").write_text(HUGE_CASE)
    (tmp_path / "empty").mkdir()
    (tmp_path / "list.json").write_text(json.dumps([1, 2]))
    return {"file": str(tmp_path / "file.txt"), "missing": str(tmp_path / "missing.json"),
            "huge": str(tmp_path / "huge.yaml"), "empty_dir": str(tmp_path / "empty"),
            "list": str(tmp_path / "list.json"), "out": str(tmp_path / "out")}


RUN = ["run", "--profile", "quick", "-q", "--report-dir", "{out}"]
BAD = [
    ([], "the following arguments are required: command"),
    (["nope"], "invalid choice: 'nope'"),
    ([*RUN, "--profile", "nope"], "invalid choice: 'nope'"),
    ([*RUN, "--precision", "loose"], "invalid choice: 'loose'"),
    ([*RUN, "--product", "nope"], "--product nope: unknown product 'nope'"),
    ([*RUN, "--op", "aclnnNope"], "--op aclnnNope: unknown operator"),
    ([*RUN, "-n", "abc"], "-n abc: expected a positive number of workers or auto"),
    ([*RUN, "-n", "0"], "-n 0: expected a positive number of workers or auto"),
    ([*RUN, "-k", "a and ("], "not a valid expression"),
    ([*RUN, "-k", "NOSUCH"], "no test item was selected"),
    ([*RUN, "--op", RP, "--product", "atlas-inference"], "is not applicable"),
    ([*RUN, "--shard", "3/2"], "--shard 3/2: expected K/N"),
    ([*RUN, "--max-examples", "0"], "--max-examples 0: must be at least 1"),
    ([*RUN, "--max-examples", "x"], "invalid int value: 'x'"),
    ([*RUN, "--case-timeout", "-1"], "--case-timeout -1.0: must be a positive number"),
    ([*RUN, "--seed", "1.5"], "invalid int value: '1.5'"),
    ([*RUN, "--waivers", "{missing}"], "missing.json"),
    ([*RUN, "--waivers", "{file}"], "file.txt"),
    ([*RUN, "--backend", "nosuch_module:Backend"], "nosuch_module"),
    ([*RUN, "--backend", "reference:foo=1"], "foo"),
    (["run", "-q", "--report-dir", "{file}"], "is a file, not a directory"),
    (["run", "-q", "--resume", "--report-dir", "{empty_dir}"], "--resume: no run to resume"),
    (["replay", "{missing}"], "missing.json"),
    (["replay", "{file}"], "file.txt"),
    (["replay", "{huge}"], "more than the"),
    (["explain", "{missing}"], "missing.json"),
    (["explain", "{huge}", "--product", "nope"], "--product nope"),
    (["specs", "--api", "aclnnNope"], "aclnnNope"),
    (["report", "{missing}"], "missing.json"),
    (["report", "{list}"], "not a conformance report"),
    (["report", "{empty_dir}"], "no journal here"),
    (["diff", "{missing}", "{list}"], "missing.json"),
    (["diff", "{list}", "{list}"], "not a conformance report"),
    (["merge", "{list}", "-o", "{out}"], "not a conformance report"),
    (["merge"], "the following arguments are required"),
]


@pytest.mark.parametrize("argv, words", BAD, ids=[" ".join(a[:3]) + f" #{i}" for i, (a, _) in enumerate(BAD)])
def test_a_bad_input_is_one_line_and_exit_2(files, capsys, argv, words):
    argv = [a.format(**files) for a in argv]
    with pytest.raises(SystemExit) if _argparse(words) else _nothing():
        rc = main(argv)
        assert rc == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("conformance: error: "), err
    assert words in lines[0] and "Traceback" not in err and "usage:" not in err
    assert not out.strip(), out


def _argparse(words: str) -> bool:
    return words.startswith(("invalid choice", "invalid int", "the following"))


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_lint_reports_a_missing_file_as_a_failed_file(files, capsys):
    """lint is a report of files (it goes on to the next): its line goes to stdout, exit 2."""
    assert main(["lint", files["missing"]]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"FAIL {files['missing']}: cannot read file: No such file or directory"]
    assert not err
