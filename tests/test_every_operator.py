"""What every loaded operator must satisfy, whatever pack it came from: parametrized over the specs
the suite loads, never over a list written here."""
from __future__ import annotations

import numpy as np
import pytest

import conformance
from conformance.cases.case import case_from_dict
from conformance.cases.materialize import materialize
from conformance.cases.oracle import explain
from conformance.cli.main import main
from conformance.generate.dry_run import shipped_specs
from conformance.spec.reference_loader import reference_function

SPECS = shipped_specs()
APIS = sorted(SPECS.operators)


def test_specs_lists_every_operator(capsys):
    assert main(["specs"]) == 0
    listed = capsys.readouterr().out
    assert all(api in listed for api in APIS) and len(APIS) >= 2


@pytest.mark.parametrize("api", APIS)
def test_its_examples_are_valid_and_its_reference_bounds_them(api):
    spec = SPECS.operator(api)
    assert spec.program.examples, f"{api}: the spec has no worked example"
    for i, example in enumerate(spec.program.examples):
        case = case_from_dict({"api": api, "product": spec.products[0], **example}, SPECS)
        assert explain(case, SPECS).expected == "success", (api, i)
        data = materialize(case, SPECS, seed=i)
        goldens = reference_function(spec)(data.case.args, bounds=True)
        outputs = spec.params_of("tensor", "output")
        assert set(goldens) == set(outputs)
        for name, golden in goldens.items():
            assert golden.value.shape == data.case.args[name].array.shape and golden.has_bounds
            finite = np.isfinite(golden.value)  # (a loss may be NaN where its math is: log of a negative)
            assert np.all(golden.abs_sum[finite] >= np.abs(golden.value[finite]) * (1 - 1e-12))


@pytest.mark.parametrize("api", APIS)
def test_every_listed_product_line_has_dtypes_to_test(api):
    spec = SPECS.operator(api)
    assert spec.products and all(spec.test_dtypes(p) for p in spec.products)
    assert not set(spec.products) & set(spec.unsupported)


@pytest.mark.slow
@pytest.mark.parametrize("api", APIS)
def test_the_reference_is_conformant_on_every_listed_product(api, tmp_path):
    spec = SPECS.operator(api)
    report = conformance.run_suite("reference", ops=[api], products=list(spec.products), profile="quick",
                                   max_examples=5, report_dir=tmp_path / "r")
    assert report["outcome"] == "conformant", [f["message"] for f in report["findings"]][:5]
    checked = {r["product"] for r in report["results"] if r["outcome"] not in ("not-applicable", "not-run")}
    assert checked == set(spec.products)
