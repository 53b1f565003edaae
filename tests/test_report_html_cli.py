"""The HTML report from the command line and in a real browser: ``conformance report``,
``write_html``, a real torch run, and the page as headless Chromium renders it."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from helpers import command
from html_page import Page
from html_report_sample import A2, INF, KL, RP, html, report, sample_report  # noqa: F401 - fixtures
from requirements import import_or_skip, missing
from test_report_html import expected_matrix

from conformance.errors import UsageError
from conformance.report.html import render_html, write_html


def _cli(argv):
    return command(*argv)


def test_cli_writes_report_html_beside_the_json(tmp_path, report, capsys):
    (tmp_path / "report.json").write_text(json.dumps(report, indent=2))
    assert _cli(["report", str(tmp_path / "report.json")]) == 0
    assert Page((tmp_path / "report.html").read_text()).matrix() == expected_matrix(report)
    assert str(tmp_path / "report.html") in capsys.readouterr().out
    out = tmp_path / "elsewhere" / "page.html"
    out.parent.mkdir()
    assert _cli(["report", str(tmp_path / "report.json"), "-o", str(out)]) == 0
    assert out.read_text() == (tmp_path / "report.html").read_text()


@pytest.mark.parametrize("content,words", [
    (None, "no such file"), ("{not json", "not valid JSON"), ("[1, 2]", "not a conformance report"),
    ('{"outcome": "conformant"}', "not a conformance report"),
    ('{"outcome": "conformant", "results": [{"api": "x"}]}', "not a conformance report")])
def test_cli_missing_or_invalid_json_is_a_usage_error(tmp_path, content, words):
    path = tmp_path / "report.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UsageError) as info:
        _cli(["report", str(path)])
    assert str(path) in str(info.value) and words in str(info.value)
    assert info.value.exit_code == 2


def test_write_html(tmp_path, report):
    path = write_html(tmp_path / "run", report)
    assert path == tmp_path / "run" / "report.html"
    assert Page(path.read_text()).matrix() == expected_matrix(report)


# -- a real run --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def torch_report(tmp_path_factory):
    import_or_skip("torch")
    import conformance
    return conformance.run_suite("torch", profile="quick", ops=[RP], products=[INF, A2], max_examples=2,
                                 report_dir=tmp_path_factory.mktemp("torch-run"))


@pytest.mark.slow
def test_a_real_torch_run(torch_report):
    """torch accepts a padding as large as the dimension and has unspecified behaviour; RP does not
    run on atlas-inference."""
    page = Page(render_html(torch_report))
    cells = page.matrix()
    assert cells == expected_matrix(torch_report)
    assert cells[(RP, "RP-PAD-LIMIT", A2)][0] == "fail"
    assert cells[(RP, "RP-NULL", A2)][0] == "pass"
    assert {s for (a, c, p), (s, _, _) in cells.items() if p == INF} == {"not-applicable"}
    assert "unspecified" in {s for s, _, _ in cells.values()}
    replays = re.findall(r'<div class="replay">', render_html(torch_report))
    assert len(replays) == len(torch_report["findings"])


# -- in a browser ------------------------------------------------------------------------------
def test_headless_chromium_shows_the_matrix(tmp_path, html, report):
    chromium = shutil.which("chromium")
    if chromium is None:
        missing("chromium", "chromium is not installed")
    page_file = tmp_path / "report.html"
    page_file.write_text(html, encoding="utf-8")
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page_file.as_uri()],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = Page(done.stdout)
    assert 'id="compliance-matrix"' in done.stdout
    assert dom.matrix() == expected_matrix(report)
    assert dom.matrix()[(RP, "RP-PAD-LIMIT", A2)] == ("fail", 5, 3)
    assert dom.dtypes(KL)[("BFLOAT16", INF)] == ("not-documented", 0)
    assert dom.cell_text("compliance-matrix", api=RP, clause="RP-PAD-LIMIT", product=A2) == \
        "fail 5 cases, 3 failed"
    assert dom.cell_text("compliance-matrix", api=RP, clause="RP-PAD-LIMIT", product=INF) == "not applicable"
    assert dom.cell_text("compliance-matrix", api=KL, clause="KL-REDUCTION", product=INF) == \
        "unspecified 9 cases"
