"""The spec-side commands: ``explain``, ``specs`` and ``lint``."""
from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

from conformance.cases.case import load_case
from conformance.cases.oracle import Expectation, explain
from conformance.cli.spec_compare import cmd_compare
from conformance.errors import ConformanceError, SpecError, UsageError
from conformance.generate.dry_run import load_operator, shipped_specs
from conformance.spec.loader import VOCABULARY_FILE, spec_dirs, vocabulary_for
from conformance.spec.model import OperatorSpec, Param, Source, SpecSet


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="say what the documents promise for one call (a case file)")
    p.add_argument("case", help="a case file (YAML): api, product, args")
    p.add_argument("--product", help="product id or SoC name; overrides the case file's")
    p.add_argument("--json", action="store_true", help="print the expectation as JSON")
    p.set_defaults(func=cmd_explain)
    p = sub.add_parser("specs", help="list the operators, product lines and every clause with its source; "
                       "--compare two specs or spec directories")
    p.add_argument("--api", help="only this operator")
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help=(
        "compare two spec files or directories (operators paired by api) by meaning (products, "
        "dtypes per product, ranks, formats, relations, values, codes) and by clause id; exit 0 "
        "whatever differs"))
    p.add_argument("--round-trip", action="store_true", help=(
        "with --compare HAND DRAFT: say per difference, from the doc_version dates, whether the hand "
        "spec is older than the drafted page (documents may have changed) or not (one of them "
        "misreads the page)"))
    p.add_argument("--json", action="store_true", help="with --compare: print the comparison as JSON")
    p.set_defaults(func=cmd_specs)
    p = sub.add_parser("lint", help="validate spec files (the shipped ones by default)")
    p.add_argument("files", nargs="*", help="spec files; default: every spec of every pack (shipped, "
                   "installed, --specs)")
    p.set_defaults(func=cmd_lint)


def cmd_explain(args: argparse.Namespace) -> int:
    specs = shipped_specs()
    if args.product is not None and specs.vocabulary.product(args.product) is None:
        raise UsageError(f"--product {args.product}: unknown product (products: "
                         f"{', '.join(specs.vocabulary.products)}, or a SoC name)")
    case = load_case(args.case, specs, product=args.product)
    try:
        expectation = explain(case, specs)
    except ConformanceError as exc:
        if exc.file is None:
            exc = type(exc)(exc.message, file=args.case)
        raise exc from None
    data = expectation.to_json()
    if expectation.expected == "success":
        data["status"] = [0]  # the code a valid call must return
    print(json.dumps(data, indent=2) if args.json
          else render_expectation(expectation, specs))
    return 0


def render_expectation(e: Expectation, specs: SpecSet) -> str:
    vocab = specs.vocabulary
    head = f"{e.api} on {e.product}: "
    if e.expected == "error":
        codes = ", ".join(f"{c} ({vocab.status_name(c)})" for c in e.status)
        head += f"the call must be rejected by the first phase with {codes}"
    elif e.expected == "success":
        head += "valid: the call must succeed (status 0) and compute the documented values"
    elif e.expected == "unspecified":
        head += "unspecified: the documents promise nothing for this call"
    else:
        head += f"not applicable: {e.reason}"
    lines = [head]
    for title, items in (("violates", e.violations), ("outside the documents", e.unspecified),
                         ("advisory", e.advisories)):
        for v in items:
            lines.append(f"  {title} {v.clause}: {v.message}")
            quote = textwrap.shorten(v.source["quote"], 160)
            where = f", {v.source['where']}" if v.source.get("where") else ""
            lines.append(f"    source ({v.source['doc']}{where}): \"{quote}\"")
    return "\n".join(lines)


def cmd_specs(args: argparse.Namespace) -> int:
    if args.compare:
        return cmd_compare(args)
    if args.round_trip or args.json:
        raise UsageError("--round-trip and --json go with --compare OLD NEW")
    specs = shipped_specs()
    try:
        ops = [specs.operator(args.api)] if args.api else list(specs.operators.values())
    except KeyError:
        raise UsageError(f"--api {args.api}: unknown operator (known: {', '.join(specs.operators)})",
                         ) from None
    print(f"spec version {specs.version} (digest {specs.digest})\n")
    print("Product lines:")
    for p in specs.vocabulary.products.values():
        print(f"  {p.id:16} {'; '.join(p.doc_names)}" + (f"  [SoC: {', '.join(p.soc)}]" if p.soc else ""))
    for spec in ops:
        print(f"\n{spec.api}: {spec.summary}")
        for doc, where in spec.documents.items():
            print(f"  document {doc}: {where}")
        if spec.doc_version is not None:
            print(f"  document version: {spec.doc_version.describe()}")
        print(f"  reference: {spec.reference or 'none (numerics are reported no reference)'}")
        print("  parameters: " + ", ".join(_param(p) for p in spec.params.values()))
        print(f"  products: {', '.join(spec.products)}" + _unsupported(spec))
        for c in spec.constraints:
            outcome = (f"{specs.vocabulary.status_name(c.status)} {c.status}" if c.status is not None
                       else c.outcome if c.kind != "behavior" else "checked: " + ", ".join(c.checks))
            print(f"  {c.id:18} [{outcome}]")
            _print_source(c.source)
        for r in spec.reviews:
            print(f"  {r.id:18} [needs review" + (f"; closest: {r.closest}]" if r.closest else "]"))
            _print_source(r.source)
        for t in spec.program.together:  # why valid cases never mix these dtypes
            print(f"  valid cases keep {', '.join(t.params)} in one dtype (generate: dtype_together"
                  + (f", for {t.source})" if t.source else ")"))
    return 0


def _print_source(source: Source) -> None:
    where = f", {source.where}" if source.where else ""
    print(textwrap.indent(textwrap.fill(f"({source.doc}{where}) {source.quote}", 96), " " * 21))


def _param(p: Param) -> str:
    named = f": {', '.join(f'{k} {v}' for k, v in p.values.items())}" if p.values else ""
    return f"{p.name} ({p.kind} {p.role}{named})"


def cmd_lint(args: argparse.Namespace) -> int:
    files = [Path(f) for f in args.files] or [f for d in spec_dirs() for f in sorted(d.glob("*.yaml"))]
    failures = 0
    for path in files:
        try:
            summary = _lint_one(path)
        except SpecError as exc:
            failures += 1
            print(f"FAIL {exc}")
        else:
            print(f"ok   {path}: {summary}")
    return 2 if failures else 0


def _lint_one(path: Path) -> str:
    """A spec file with the vocabulary of its directory (the shipped one plus the directory's
    additions); a vocabulary.yaml as the shipped vocabulary or as a pack's additions to it."""
    vocab, _ = vocabulary_for((path.parent,))
    if path.name == VOCABULARY_FILE:
        return f"vocabulary {vocab.spec_version}: {len(vocab.products)} products, {len(vocab.dtypes)} dtypes"
    spec = load_operator(path, vocab)
    n = len(spec.reviews)
    review = f"; {n} clause{' needs' if n == 1 else 's need'} review" if n else ""
    return f"{spec.api}: {len(spec.constraints)} clauses{review}"


def _unsupported(spec: OperatorSpec) -> str:
    """What the documents say of the lines they mark unsupported."""
    if not spec.unsupported:
        return ""
    lines = ", ".join(spec.unsupported)
    platform = spec.platform_clause(next(iter(spec.unsupported)))
    return f"; rejected ({platform.id}) on {lines}" if platform else f"; not applicable on {lines}"
