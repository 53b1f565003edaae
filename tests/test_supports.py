"""A backend says which operators it implements (optional ``supports(api)``): the others are
reported "not run" in every report, never called, never a crash and never a pass."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import KL, RP

from conformance.backends.reference import ReferenceBackend
from conformance.cli.main import main


class PadOnly(ReferenceBackend):
    name = "pad-only"

    def supports(self, api: str) -> bool:
        return api == RP

    def call(self, api, args, product=None):
        assert api == RP, f"called with {api}, which it does not implement"
        return super().call(api, args, product)


class NothingAtAll(ReferenceBackend):
    name = "nothing"

    def supports(self, api: str) -> bool:
        return False


class SupportsRaises(ReferenceBackend):
    name = "raises"

    def supports(self, api: str) -> bool:
        raise RuntimeError("no idea")


HERE = Path(__file__)


@pytest.mark.parametrize("isolate", ["--no-isolate", pytest.param("--isolate", marks=pytest.mark.slow)])
def test_an_operator_the_backend_does_not_implement_is_not_run(tmp_path, isolate, capsys):
    out = tmp_path / "r"
    rc = main(["run", "--backend", f"{HERE}:PadOnly", "--profile", "quick", "-q", "--max-examples", "2",
               "--op", KL, "--op", RP, "-k", "boundary", isolate, "--report-dir", str(out)])
    assert rc == 0, capsys.readouterr()
    report = json.loads((out / "report.json").read_text())
    not_run = [r for r in report["results"] if r["outcome"] == "not-run"]
    assert [(r["api"], r["product"]) for r in not_run] == [(KL, "atlas-a2")]
    assert not_run[0]["reason"] == f"pad-only does not implement {KL} (its supports() says so)"
    assert {i["item"].split("/")[0] for i in report["items"]} == {RP}
    assert report["outcome"] == "conformant" and report["apis"] == [KL, RP]
    junit = ET.parse(out / "junit.xml").getroot()[0]
    skipped = [c for c in junit.findall("testcase") if c.find("skipped") is not None]
    assert [c.get("classname") for c in skipped] == [f"{KL}.atlas-a2"]
    html = (out / "report.html").read_text()
    assert 'data-state="not-run"' in html and f"Not run on atlas-a2: pad-only does not implement {KL}" in html


def test_a_backend_implementing_nothing_selected_is_a_usage_error(tmp_path, capsys):
    assert main(["run", "--backend", f"{HERE}:NothingAtAll", "--profile", "quick", "-q", "--no-isolate",
                 "--report-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nothing to test: nothing does not implement" in err[0]
    assert not (tmp_path / "r").exists()


def test_a_supports_that_raises_is_one_line(tmp_path, capsys):
    assert main(["run", "--backend", f"{HERE}:SupportsRaises", "--profile", "quick", "-q", "--no-isolate",
                 "--report-dir", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "supports(" in err[0] and "RuntimeError: no idea" in err[0]


def test_torch_says_what_it_maps():
    pytest.importorskip("torch")
    from conformance.backends.torch_backend import OPERATORS, TorchBackend

    assert TorchBackend().supports(KL) and not TorchBackend().supports("aclnnNoSuchOp")
    assert set(OPERATORS) >= {KL, RP}
