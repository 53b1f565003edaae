"""Small builders of cases for the suite's own tests."""
from __future__ import annotations

from typing import Any

from conformance.cases.case import Case
from conformance.cases.tensor import TensorMeta
from conformance.cli.main import build_parser, main

RP = "aclnnReplicationPad3dBackward"
KL = "aclnnKlDivBackward"


def t(shape: Any, dtype: str = "FLOAT", **kw: Any) -> TensorMeta:
    return TensorMeta(tuple(shape), dtype, **kw)


def rp_case(self_shape=(2, 3, 4, 5, 6), padding=(1, 2, 1, 2, 1, 2), dtype="FLOAT",
            product="atlas-a2", **override: Any) -> Case:
    """A valid padding case unless ``override`` replaces an argument."""
    p = padding
    out = list(self_shape)
    if len(self_shape) >= 3 and p is not None and len(p) == 6:
        out[-1] += p[0] + p[1]
        out[-2] += p[2] + p[3]
        out[-3] += p[4] + p[5]
    padding_arg = None if p is None else tuple(p)
    args = {"gradOutput": t(out, dtype), "self": t(self_shape, dtype), "padding": padding_arg,
            "gradInput": t(self_shape, dtype)}
    args.update(override)
    return Case(RP, product, args)


def kl_case(self_shape=(2, 3, 4), target_shape=None, grad_shape=None, dtype="FLOAT",
            product="atlas-a2", reduction=0, log_target=False, **override: Any) -> Case:
    target_shape = self_shape if target_shape is None else target_shape
    grad_shape = self_shape if grad_shape is None else grad_shape
    args = {"gradOutput": t(grad_shape, dtype), "self": t(self_shape, dtype),
            "target": t(target_shape, dtype), "reduction": reduction, "logTarget": log_target,
            "out": t(self_shape, dtype)}
    args.update(override)
    return Case(KL, product, args)


def clauses(expectation) -> list[str]:
    return sorted({v.clause for v in expectation.violations})


def command(*argv: str):
    """Run one ``conformance`` subcommand's function; unlike ``cli.main`` errors are raised."""
    args = build_parser().parse_args(list(argv))
    return args.func(args)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``conformance ARGV`` as a user runs it (cli.main, argparse exits included): exit code,
    stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code)
    out = capsys.readouterr()
    return code, out.out, out.err


def draft_one(out: Any, pages: Any, api: str) -> tuple[Any, dict[str, Any]]:
    """Draft the fixture ``pages`` into ``out``; (out, the spec of ``api`` as a dict)."""
    import yaml  # (only the drafting tests need it)

    assert main(["draft", str(pages), "-o", str(out)]) == 0
    return out, yaml.safe_load((out / f"{api}.yaml").read_text(encoding="utf-8"))


def drafted_fixture(pages: Any, api: str) -> Any:
    """A module-scoped fixture drafting the fixture ``pages`` once: (out dir, ``api``'s spec)."""
    import pytest

    @pytest.fixture(scope="module")
    def drafted(tmp_path_factory: Any) -> tuple[Any, dict[str, Any]]:
        return draft_one(tmp_path_factory.mktemp("drafts"), pages, api)

    return drafted


def by_quote(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A drafted spec's clauses by the sentence they quote."""
    return {c["source"]["quote"]: c for c in spec["constraints"]}


def value_clause(d: Any, name: str) -> dict[str, Any]:
    """The value_in clause of draft ``d`` on attribute ``name``."""
    return next(c for c in d.spec["constraints"] if c["kind"] == "value_in" and c["params"] == [name])


def loaded_draft(d: Any, tmp_path: Any) -> tuple[Any, Any, Any, str, str]:
    """The draft ``d`` written as a pack and loaded: (spec, vocabulary, spec set, its first product,
    that product's first test dtype)."""
    from conformance.draft.pack import write_pack
    from conformance.generate.dry_run import load_operator
    from conformance.spec.loader import vocabulary_for
    from conformance.spec.model import SpecSet

    write_pack(tmp_path, [d])
    pack_vocab, _ = vocabulary_for((tmp_path,))
    spec = load_operator(tmp_path / f"{d.api}.yaml", pack_vocab)
    specs = SpecSet(pack_vocab, {spec.api: spec}, pack_vocab.spec_version, "test")
    product = spec.products[0]
    return spec, pack_vocab, specs, product, spec.test_dtypes(product)[0]


def drafted_pack_fixture(pages: Any) -> Any:
    """A module-scoped fixture drafting the fixture ``pages`` (with --stats) once: the pack dir."""
    import pytest

    @pytest.fixture(scope="module")
    def drafted(tmp_path_factory: Any) -> Any:
        out = tmp_path_factory.mktemp("drafts")
        assert main(["draft", str(pages), "-o", str(out), "--stats", str(out / "stats.json")]) == 0
        return out

    return drafted


def drafted_specs_fixture() -> Any:
    """A module-scoped fixture ``specs``: the SpecSet of the module's ``drafted`` pack."""
    import pytest

    from conformance.generate.dry_run import load_specs

    @pytest.fixture(scope="module")
    def specs(drafted: Any) -> Any:
        return load_specs(str(drafted))

    return specs


def drafted_spec(pack: Any, api: str) -> dict[str, Any]:
    """The drafted spec of ``api`` in ``pack`` as YAML data."""
    import yaml

    return yaml.safe_load((pack / f"{api}.yaml").read_text(encoding="utf-8"))


def assert_rows_checkable(pack: Any, rows: int) -> None:
    """Every one of the pack's ``rows`` error rows became a checkable clause (its stats.json)."""
    import yaml

    total = yaml.safe_load((pack / "stats.json").read_text(encoding="utf-8"))["total"]
    assert total["error_rows_checkable"] == total["error_rows"] == rows


def quick_runner(api: str, max_examples: int) -> Any:
    """``run(pack, backend, tmp_path)``: oracle_quick of ``api`` with ``max_examples``."""
    def run(pack: Any, backend: str, tmp_path: Any) -> dict[str, Any]:
        return oracle_quick(pack, api, tmp_path, backend, max_examples=max_examples)

    return run


def draft_text(text: str, label: str) -> Any:
    """A page's ``text`` drafted with the shipped vocabulary, as ``label`` (a DraftedSpec)."""
    from conformance.draft.emit import draft_spec
    from conformance.draft.reading import read_page
    from conformance.spec.loader import load_vocabulary, specs_dir

    vocab = load_vocabulary(specs_dir() / "vocabulary.yaml")
    return draft_spec(read_page(text, label, vocab), vocab, label)


def oracle_quick(pack: Any, api: str, tmp_path: Any, backend: str = "oracle",
                 max_examples: int = 3) -> dict[str, Any]:
    """A quick run of ``api`` from the drafted ``pack`` against ``backend`` (the oracle) on atlas-a2."""
    import conformance

    return conformance.run_suite(backend, specs=[pack], ops=[api], products=["atlas-a2"], profile="quick",
                                 max_examples=max_examples, isolate=False, report_dir=tmp_path / "r")


def assert_breaks_alone(loaded: tuple[Any, Any, Any, str, str], cid: str, choosers: Any = None) -> None:
    """Every boundary case breaking ``cid`` (``loaded``: loaded_draft's tuple; with each of
    ``choosers``, FixedChooser("max") by default) breaks it alone, with 161002."""
    from conformance.cases.oracle import explain
    from conformance.generate.build import broken_cases
    from conformance.generate.choosers import FixedChooser

    spec, vocab, specs, product, dtype = loaded
    for ch in choosers or (FixedChooser("max"),):
        cases = broken_cases(spec, vocab, product, dtype, ch, cid)
        assert cases, cid
        for case in cases:
            e = explain(case, specs)
            assert e.status == (161002,) and {v.clause for v in e.violations} == {cid}, (cid, case)


def assert_caught_alone(report: dict[str, Any], clause: str) -> None:
    """``report`` is nonconformant, its findings all status findings of ``clause`` (a planted bug
    caught on its row and on no other)."""
    assert report["outcome"] == "nonconformant"
    assert {(f["kind"], f["clause"]) for f in report["findings"]} == {("status", clause)}


def assert_clean_pass(report: dict[str, Any], clause: str, cases: int) -> None:
    """No finding and no error in ``report``, and ``clause``'s status checks passed on at least
    ``cases`` cases."""
    assert report["findings"] == [] and not report["errors"]
    mine = {(r["kind"], r["outcome"]) for r in report["results"] if r["clause"] == clause}
    assert mine == {("status", "pass")}
    assert sum(r["cases"] for r in report["results"] if r["clause"] == clause) >= cases
