"""One parametrised test: every conformance item of the run (see conformance/run/plan.py)."""


def test_item(conformance_item, conformance_session):
    conformance_session.run(conformance_item)
