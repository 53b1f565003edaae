"""The success side of conditional clauses (conformance/generate/exemptions.py): for each disjunct
of a clause ``not (COND) or BODY``, a valid boundary case where it alone holds, so a kernel that
enforces BODY whatever COND says is caught; a disjunct no draw could isolate is named in the
boundary item's notes. Proved on a shipped spec (RP2D-PAD-BF16, against the reference with the
rule planted unconditional, tests/unconditional_backends.py) and on drafted conditional rows
(tests/fixtures/condition_pages, against tests/trust_backends.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from report_records import load_schema, meta, validate

from conformance.check.results import ItemRecord
from conformance.cli.main import main
from conformance.generate.choosers import SeededChooser
from conformance.generate.dry_run import shipped_specs
from conformance.generate.exemptions import conditional, exemptions
from conformance.generate.strategies import boundary_cases
from conformance.report.document import build_report
from conformance.report.summary import summary_markdown
from conformance.spec.expressions import Expression

HERE = Path(__file__).parent
RP2D, BCE, A2 = "aclnnReplicationPad2dBackward", "aclnnBinaryCrossEntropyBackward", "atlas-a2"
GATED = "aclnnToyGatedScale"

pytestmark = pytest.mark.usefixtures("no_packs_left")


def test_disjuncts_are_the_operands_of_a_top_level_or():
    names = frozenset({"gated", "gateOut", "x"})
    e = Expression("not (gated) or present(gateOut) and gateOut.rank == x.rank", names)
    assert [d.text for d in e.disjuncts()] == ["not gated", "present(gateOut) and gateOut.rank == x.rank"]
    assert Expression("gated and present(gateOut)", names).disjuncts() == ()
    assert Expression("not (gated or present(gateOut))", names).disjuncts() == ()


def test_the_seeded_chooser_repeats_its_draws():
    def draws(seed: int) -> list:
        ch = SeededChooser(seed)
        return [ch.integer(0, 99, "a"), ch.choice(["p", "q", "r"], "b"), ch.boolean("c")]
    assert draws(3) == draws(3) and draws(3) != draws(4)


def test_the_shipped_conditional_clauses_are_found():
    specs = shipped_specs()
    found = {(api, clause) for api, spec in specs.operators.items() for clause, _, _ in conditional(spec)}
    assert found == {(BCE, "BCE-BCAST-GRAD"), (BCE, "BCE-BCAST-WEIGHT"), (BCE, "BCE-SCALAR"),
                     ("aclnnKlDiv", "KLF-BATCHMEAN-0D"), ("aclnnNLLLossBackward", "NLL-GRAD-SHAPE"),
                     (RP2D, "RP2D-PAD-BF16"), ("aclnnSmoothL1LossBackward", "SL1-MEAN-BCAST")}


def test_an_exemption_case_has_the_condition_false_and_the_body_false():
    specs = shipped_specs()
    by = {e.alone: e for e in exemptions(specs, RP2D, A2)}
    exempt = by["self.dtype != 'BFLOAT16'"].case  # a padding above 7 in another dtype
    assert exempt is not None and exempt.args["self"].dtype != "BFLOAT16" and max(exempt.args["padding"]) > 7
    obeyed = by["max(padding) <= 7"].case  # BFLOAT16 within the limit
    assert obeyed is not None and obeyed.args["self"].dtype == "BFLOAT16" and max(obeyed.args["padding"]) <= 7
    origins = {d.origin for d in boundary_cases(specs, RP2D, A2)}
    assert "exempt: RP2D-PAD-BF16: \"self.dtype != 'BFLOAT16'\" alone true in " \
           "\"self.dtype != 'BFLOAT16' or max(padding) <= 7\"" in origins


def test_an_exemption_no_draw_gives_is_named_in_the_notes():
    specs = shipped_specs()
    missing = {e.alone for e in exemptions(specs, BCE, A2) if e.case is None}
    # a self of rank 0 takes only a gradOutput of rank 0 (BCE-SCALAR); an absent weight has no shape
    assert missing == {"self.rank == 0", "not present(weightOptional)"}
    notes: list[str] = []
    boundary_cases(specs, BCE, A2, notes)
    assert len(notes) == 2 and all(n.startswith("no valid case found with BCE-BCAST-") for n in notes)
    assert "'not present(weightOptional)' alone true in 'not present(weightOptional) or" in notes[1]


def test_notes_survive_the_journal_and_reach_the_report():
    record = ItemRecord(f"{BCE}/{A2}/boundary/all", BCE, A2, "boundary", "all", cases=3)
    record.notes = ["no valid case found with X: 'a' alone true in 'a or b'"]
    again = ItemRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again.notes == record.notes
    report = build_report(meta(), [again], 1.0)
    (item,) = report["items"]
    assert item["notes"] == record.notes
    validate(report, load_schema())
    assert summary_markdown(report).endswith(f"**Not covered**:\n- `{BCE}/{A2}/boundary/all`: "
                                             "no valid case found with X: 'a' alone true in 'a or b'\n")


def _run(args: list[str], report_dir: Path, profile: str) -> dict:
    """The boundary items only (the exemption cases are theirs): quick, one product; ci, every one."""
    code = main(["run", *args, "--profile", profile, "-k", "boundary", "--seed", "7", "-q",
                 "--no-isolate", "--report-dir", str(report_dir)])
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert code == (0 if report["outcome"] == "conformant" else 1) and report["errors"] == []
    return report


def _exempt_findings(report: dict, clause: str) -> set[tuple[str, str]]:
    """(kind, clause) of the findings, each made on an exemption case of ``clause``."""
    assert all(f["details"]["origin"].startswith(f"exempt: {clause}: ") for f in report["findings"])
    return {(f["kind"], f["clause"]) for f in report["findings"]}


@pytest.mark.parametrize("profile", ["quick", "ci"])
def test_a_rule_planted_unconditional_in_a_shipped_spec_is_found(tmp_path, profile):
    report = _run(["--op", RP2D, "--backend", f"{HERE / 'unconditional_backends.py'}:PadLimitEverywhere"],
                  tmp_path / "r", profile)
    # a valid call rejected: blamed, as any, on the phase clause; its origin names the rule
    assert report["outcome"] == "nonconformant"
    assert _exempt_findings(report, "RP2D-PAD-BF16") == {("status", "RP2D-PHASE")}
    assert "returned 161002" in report["findings"][0]["message"]
    products = {f["product"] for f in report["findings"]}
    assert products == ({A2} if profile == "quick" else set(shipped_specs().operator(RP2D).products))


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("drafts-cond")
    assert main(["draft", str(HERE / "fixtures" / "condition_pages"), "-o", str(out)]) == 0
    return out


@pytest.mark.parametrize("profile", ["quick", "ci"])
@pytest.mark.parametrize(("bug", "clause_quote"), [
    ("GateAlways", "当gated为true时，gateOut为空指针"), ("SlopeAlways", "gated为false时，slope是负数")])
def test_a_drafted_rule_planted_unconditional_is_found(drafted, tmp_path, bug, clause_quote, profile):
    spec = yaml.safe_load((drafted / f"{GATED}.yaml").read_text(encoding="utf-8"))
    (clause,) = [c["id"] for c in spec["constraints"] if c["source"]["quote"] == clause_quote]
    report = _run(["--specs", str(drafted), "--op", GATED, "--backend",
                   f"{HERE / 'trust_backends.py'}:{bug}"], tmp_path / "r", profile)
    assert report["outcome"] == "nonconformant"
    assert _exempt_findings(report, clause) == {("status", "TGS-PHASE")}


def test_backends_following_the_rules_pass_the_exemption_cases(drafted, tmp_path):
    reference = _run(["--op", RP2D], tmp_path / "ref", "quick")
    assert reference["outcome"] == "conformant"
    correct = _run(["--specs", str(drafted), "--op", GATED, "--backend",
                    f"{HERE / 'trust_backends.py'}:Correct"], tmp_path / "correct", "quick")
    assert correct["findings"] == [] and correct["stats"]["cases"] > 0
