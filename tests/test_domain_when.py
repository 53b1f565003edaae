"""A value domain that holds only where its ``when`` expression does (KL's target when not logTarget)."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from conformance.cases.materialize import materialize
from conformance.generate.strategies import valid_cases
from conformance.spec.domains import parse_domain
from conformance.spec.loader import read_shipped_specs

SPECS = read_shipped_specs()


def test_when_is_an_expression_over_the_arguments():
    domain = parse_domain("target", {"range": [0, float("inf")], "when": "not logTarget"},
                          frozenset({"logTarget", "target"}))
    assert domain.applies({"logTarget": False}) and not domain.applies({"logTarget": True})
    assert not domain.applies({})  # a missing argument: the case breaks another clause
    with pytest.raises(ValueError, match="data.target.when"):
        parse_domain("target", {"range": [0, 1], "when": 3}, frozenset({"target"}))
    with pytest.raises(ValueError, match="unknown name 'nope'"):
        parse_domain("target", {"range": [0, 1], "when": "nope"}, frozenset({"target"}))


def test_kl_targets_are_never_negative_without_log_target_and_are_with_it():
    seen = {False: [], True: []}

    @settings(max_examples=120, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(valid_cases(SPECS, "aclnnKlDiv", "atlas-a2", "FLOAT"))
    def draw(drawn):
        m = materialize(drawn.case, SPECS, drawn.seed, drawn.regime)
        target = m.case.args["target"].array
        finite = target[np.isfinite(target)]
        if finite.size:
            seen[bool(m.case.args["logTarget"])].append(float(finite.min()))

    draw()
    assert seen[False] and min(seen[False]) >= 0
    assert seen[True] and min(seen[True]) < 0  # log-space targets keep their negative values
