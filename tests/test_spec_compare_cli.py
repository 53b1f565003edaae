"""``conformance specs --compare`` (cli/): text and JSON output, round trips, directories paired
by api, a draft pack's own vocabulary, one-line errors. Apart from test_spec_compare.py, which
compares specs in-process; both write their variants with spec_variants.py."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import cli as run
from spec_variants import KLB, MSE, MSE_TENSORS, NLL, clause, variant

from conformance.spec.loader import VOCABULARY_FILE, specs_dir


def dated(tmp_path: Path, side: str, date: str, edit: Callable[[dict[str, Any]], None] = lambda s: None,
          api: str = MSE) -> Path:
    def both(s: dict[str, Any]) -> None:
        s["doc_version"] = {"revision": "abc1234def5678", "date": date}
        edit(s)
    return variant(tmp_path, api, both, side)


def test_cli_text_groups_and_versions(tmp_path, capsys):
    old = dated(tmp_path, "old", "2025-01-10")
    new = dated(tmp_path, "new", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, err = run(capsys, "specs", "--compare", str(old), str(new))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"OLD: {old} (1 operator(s)): revision abc1234def56 (2025-01-10)"
    assert lines[1] == f"NEW: {new} (1 operator(s)): revision abc1234def56 (2026-03-03)"
    assert "  ranks:" in lines
    assert "    ~ rank self max: 8 -> 6 (OLD MSE-RANK; NEW MSE-RANK)" in lines
    assert "    changed MSE-RANK: max" in lines


def test_cli_round_trip_says_which_side(tmp_path, capsys):
    hand = dated(tmp_path, "hand", "2025-01-10")
    draft = dated(tmp_path, "draft", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(hand), str(draft.parent), "--round-trip")
    assert code == 0
    assert ("    ~ rank self max: 8 -> 6 (hand MSE-RANK; draft MSE-RANK)  "
            "(hand spec is older: documents may have changed)") in out.splitlines()
    same_day = dated(tmp_path, "same", "2025-01-10", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(hand), str(same_day), "--round-trip", "--json")
    data = json.loads(out)
    assert code == 0 and data["round_trip"] is True
    [op] = data["operators"]
    assert op["verdict"] == "one of them misreads the page"
    assert {e["verdict"] for e in op["meaning"]} == {"one of them misreads the page"}
    assert op["old_version"] == {"revision": "abc1234def5678", "date": "2025-01-10"}


def test_cli_directories_pair_operators_by_api(tmp_path, capsys):
    dated(tmp_path, "old", "2025-01-10")
    dated(tmp_path, "old", "2025-01-10", api=KLB)
    dated(tmp_path, "new", "2025-01-10")
    dated(tmp_path, "new", "2025-01-10", api=NLL)
    code, out, _ = run(capsys, "specs", "--compare", str(tmp_path / "old"), str(tmp_path / "new"), "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["only_old"], data["only_new"]) == ([KLB], [NLL])
    assert [(o["api"], o["meaning"], o["clauses"]) for o in data["operators"]] == [(MSE, [], [])]


def test_cli_a_draft_pack_may_add_a_product_line(tmp_path, capsys):
    """A draft's directory holds a vocabulary.yaml adding the product lines it found."""
    def edit(s: dict[str, Any]) -> None:
        s["products"].append("atlas-new-line")
        clause(s, "KL-DTYPE")["per_product"]["atlas-new-line"] = ["FLOAT"]

    draft = variant(tmp_path, KLB, edit, "draft")
    (draft.parent / VOCABULARY_FILE).write_text(
        "products:\n  - {id: atlas-new-line, doc_names: [Atlas New Line products]}\n", encoding="utf-8")
    code, out, _ = run(capsys, "specs", "--compare", str(specs_dir() / f"{KLB}.yaml"), str(draft), "--json")
    [op] = json.loads(out)["operators"]
    assert code == 0
    assert [(e["change"], e["key"], e["new"]) for e in op["meaning"]] == [
        ("added", "product atlas-new-line", ["supported"]),
        *(("added", f"dtype {p} @ atlas-new-line", ["FLOAT"]) for p in MSE_TENSORS)]


@pytest.mark.parametrize("make, message", [
    (lambda t: t / "nowhere", "--compare OLD: no such spec file or directory"),
    (lambda t: (t / "empty").mkdir() or t / "empty",
     "--compare OLD: no spec files (*.yaml) in this directory"),
])
def test_cli_bad_paths_are_one_line(tmp_path, capsys, make, message):
    path = make(tmp_path)
    code, out, err = run(capsys, "specs", "--compare", str(path), str(specs_dir()))
    assert (code, out) == (2, "")
    assert err == f"conformance: error: {path}: {message}\n"


def test_cli_bad_spec_is_one_line_naming_the_file(tmp_path, capsys):
    bad = variant(tmp_path, MSE, lambda s: clause(s, "MSE-RANK").update(max="eight"))
    code, out, err = run(capsys, "specs", "--compare", str(specs_dir()), str(bad))
    assert (code, out) == (2, "")
    assert err.startswith(f"conformance: error: {bad}:") and err.count("\n") == 1


def test_cli_json_without_compare_is_a_usage_error(capsys):
    code, _, err = run(capsys, "specs", "--json")
    assert code == 2 and err == "conformance: error: --round-trip and --json go with --compare OLD NEW\n"


@pytest.mark.slow
def test_cli_api_selects_one_operator_of_each_side(tmp_path, capsys):
    dated(tmp_path, "new", "2026-03-03", lambda s: clause(s, "MSE-RANK").update(max=6))
    code, out, _ = run(capsys, "specs", "--compare", str(specs_dir()), str(tmp_path / "new"),
                       "--api", "MseLossBackward", "--json")
    data = json.loads(out)
    assert code == 0 and (data["only_old"], data["only_new"]) == ([], [])
    assert [(o["api"], len(o["meaning"])) for o in data["operators"]] == [(MSE, 4)]
    code, _, err = run(capsys, "specs", "--compare", str(specs_dir()), str(tmp_path / "new"), "--api", "Nope")
    assert code == 2 and err == "conformance: error: --api Nope: on neither side of --compare\n"
