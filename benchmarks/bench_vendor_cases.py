"""How often drafted specs would refuse calls the vendor itself runs: replays the vendor's ATK case
files (``tests/**/atk_*.json`` in hicann/ops-nn, ops-math: inputs and attributes of cases its test
harness runs as valid) through each draft's oracle, and counts the cases a draft says must fail on
every product line it lists. Each such case is a false finding the draft would make against a
kernel that behaves as its vendor tests it, or a page that promises less than the vendor runs;
either way a person should look. Outputs are not in the case files, so clauses that need them are
skipped (``judge_metas(partial=True)``), as are the harness's placeholder tensors (``placeholder``):
this measures the input side of a draft.

Run from the repository root, on drafts made from the same checkouts:
    PYTHONPATH=. python benchmarks/bench_vendor_cases.py DRAFT_DIR CHECKOUT... [--rev HEAD]
        [--show 20] [--out FILE.json]
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

from conformance.cases.oracle import judge_metas
from conformance.cases.tensor import TensorMeta
from conformance.draft.sources import files_at_revision, text_at_revision
from conformance.errors import ConformanceError, UsageError
from conformance.spec.loader import read_operator, vocabulary_for
from conformance.spec.model import OperatorSpec
from conformance.spec.values import Scalar, TensorList
from conformance.spec.vocabulary import Vocabulary

#: Suffixes the case files drop from the documents' parameter names (``selfRef`` → ``self``).
NAME_SUFFIXES = ("optional", "ref")


def placeholder(entry: dict[str, Any], optional: bool = False) -> bool:
    """A tensor the harness fills in itself or passes as null: shape [0, 0] (DeepNormGrad's mean
    and rstd, which its forward computes), a BOOL of shape [] (QuantMatmulV4's absent offset), or
    any of shape [] for an optional parameter (FusedLinearCrossEntropyLossGrad's logitsMaxOptional);
    and one with no shape at all (DequantSwigluQuantV2's bias: not passed)."""
    shape = entry.get("shape")
    return entry.get("type") == "tensor" and (shape is None or shape == [0, 0] or (
        shape == [] and (optional or entry.get("dtype") == "bool")))


class Unreplayable(Exception):
    """A case the replay cannot turn into arguments (unknown dtype, a value of the wrong kind)."""


def _key(name: str) -> str:
    key = name.lower().replace("_", "")
    for suffix in NAME_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix):
            key = key[: -len(suffix)]
    return key


def _dtype(vocab: Vocabulary, name: Any) -> str:
    found = vocab.dtype(name)  # (fp32, bf16, …: the vocabulary's aliases, in any case)
    if found is None:
        raise Unreplayable(f"dtype {name!r}")
    return found


def _first(value: Any) -> Any:
    """A value the harness draws from: a range [low, high] gives its low end; '1e-6' a float."""
    value = value[0] if isinstance(value, list) and value else value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _tensor(vocab: Vocabulary, entry: dict[str, Any]) -> TensorMeta:
    shape = entry.get("shape")
    if entry.get("type") not in ("tensor", "tensors", "tensor_tuple"):  # (attr: a list it makes one of)
        raise Unreplayable(f"a tensor given as {entry.get('type')} {entry.get('dtype')}")
    if not isinstance(shape, list) or not all(isinstance(d, int) for d in shape):
        raise Unreplayable(f"shape {shape!r}")
    fmt = entry.get("format") or entry.get("formate") or "ND"  # (a list: one per run, the first)
    fmt = str(_first(fmt))
    return TensorMeta(tuple(shape), _dtype(vocab, entry.get("dtype")),
                      format=fmt if fmt in vocab.formats else "ND")


def _bool(value: Any) -> bool:
    return value in (True, 1, "True", "true")


def _attr(kind: str, value: Any) -> Any:
    if kind == "int_array":
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise Unreplayable(f"int array {value!r}")
        return tuple(values)
    if kind == "bool_array":
        return tuple(_bool(v) for v in (value if isinstance(value, list) else [value]))
    value = _first(value)
    if kind == "bool":
        return _bool(value)
    number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "int" and number:
        return int(value)
    if kind == "float" and isinstance(value, (int, float)):
        return float(value)
    if kind == "string" and isinstance(value, str):
        return value
    raise Unreplayable(f"{kind} value {value!r}")


def argument(vocab: Vocabulary, kind: str, entry: Any) -> Any:
    """One case-file input as the oracle's argument for a parameter of ``kind``."""
    if isinstance(entry, list):  # a list input: tensors, or an int array spelled element by element
        if kind == "tensor_list":
            return TensorList(_tensor(vocab, e) for e in entry)
        return _attr(kind, [_first(e.get("range_values")) for e in entry])
    if kind == "tensor":
        return _tensor(vocab, entry)
    if kind == "scalar":
        return Scalar(_first(entry.get("range_values")), _dtype(vocab, entry.get("dtype")))
    return _attr(kind, entry.get("range_values"))


def arguments(vocab: Vocabulary, spec: OperatorSpec, case: dict[str, Any]) -> dict[str, Any]:
    """The case's inputs under the spec's parameter names; inputs no parameter matches are left out."""
    by_key = {_key(name): name for name, p in spec.params.items() if p.role != "output"}
    out: dict[str, Any] = {}
    for entry in case.get("inputs", []):
        first = entry[0] if isinstance(entry, list) and entry else entry
        if not isinstance(first, dict) or first.get("type") == "non_param":
            continue
        name = by_key.get(_key(str(first.get("name", ""))))
        if name is not None and not placeholder(first, spec.params[name].optional):
            out[name] = argument(vocab, spec.params[name].kind, entry)  # (else left out: the
            # clauses that need it are skipped)
    return out


def given_only(spec: OperatorSpec, names: dict[str, Any]) -> OperatorSpec:
    """``spec`` with its null-pointer clauses on the given arguments alone: a case file lists no
    outputs, and an argument it leaves out is not a null pointer the harness passes."""
    return replace(spec, constraints=tuple(
        replace(c, params=tuple(p for p in c.params if p in names)) if c.kind == "not_null" else c
        for c in spec.constraints))


def refusal(spec: OperatorSpec, names: dict[str, Any]) -> list[str] | None:
    """The clauses that make every product line refuse the call; None when one accepts it."""
    spec, broken = given_only(spec, names), Counter[str]()
    for product in spec.products:
        expectation = judge_metas(spec, product, names, partial=True)
        if expectation.expected != "error":
            return None
        broken.update({v.clause for v in expectation.violations})
    return [clause for clause, _ in broken.most_common()]


#: The harness's case files: ``atk_<api>.json`` anywhere under an operator's tests.
CASE_FILE = re.compile(r"(?:^|/)atk_[^/]*\.json$")


def read_cases(checkout: Path, rev: str, path: str) -> list[dict[str, Any]]:
    """The cases of one file; a file that is not a JSON list of cases is said so and skipped."""
    try:
        data = json.loads(text_at_revision(checkout, path, rev))
    except json.JSONDecodeError as error:
        print(f"{checkout}/{path}: not JSON ({error}); skipped", file=sys.stderr)
        return []
    return [c for c in (data if isinstance(data, list) else [data]) if isinstance(c, dict)]


def api_of(case: dict[str, Any], path: str) -> str:
    """The operator a case calls: its ``aclnn_name`` (often without the prefix), else the file's."""
    name = str(case.get("aclnn_name") or Path(path).stem.removeprefix("atk_"))
    return name if name.startswith("aclnn") else "aclnn" + name


class Replay:
    """Tallies over every case file: what was replayed, what could not be, what a draft refuses."""

    def __init__(self, drafts: Path) -> None:
        self.drafts = drafts
        self.vocab, _ = vocabulary_for((drafts,))
        self.specs: dict[str, OperatorSpec | None] = {}
        self.tally: Counter[str] = Counter()
        self.skipped: Counter[str] = Counter()
        self.per_op: dict[str, Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str], dict[str, Any]] = {}

    def spec(self, api: str) -> OperatorSpec | None:
        if api not in self.specs:
            path = self.drafts / f"{api}.yaml"
            try:
                self.specs[api] = read_operator(path, self.vocab) if path.is_file() else None
            except ConformanceError as error:
                print(f"{path}: not read ({error})", file=sys.stderr)
                self.specs[api] = None
        return self.specs[api]

    def add(self, case: dict[str, Any], path: str) -> None:
        self.tally["cases"] += 1
        spec = self.spec(api_of(case, path))
        if spec is None:
            return
        self.tally["with a draft"] += 1
        try:
            names = arguments(self.vocab, spec, case)
            clauses = refusal(spec, names)
        except (Unreplayable, ConformanceError, TypeError, ValueError, ArithmeticError) as error:
            self.skipped[type(error).__name__ + (f" {error}" if isinstance(error, Unreplayable) else "")] += 1
            return
        self.tally["replayed"] += 1
        self.per_op[spec.api]["replayed"] += 1
        if clauses:
            self.tally["refused"] += 1
            self.per_op[spec.api]["refused"] += 1
            self.per_op[spec.api]["clause " + clauses[0]] += 1
            self.examples.setdefault((spec.api, clauses[0]), case)

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for api, counts in sorted(self.per_op.items(), key=lambda kv: -kv[1]["refused"]):
            if not counts["refused"]:
                continue
            spec = self.specs[api]
            clauses = [(k[len("clause "):], n) for k, n in counts.most_common() if k.startswith("clause ")]
            quotes = {c.id: c.source.quote for c in spec.constraints} if spec else {}
            out.append({"api": api, "replayed": counts["replayed"], "refused": counts["refused"],
                        "clauses": [{"id": cid, "cases": n, "quote": quotes.get(cid, ""),
                                     "example": _inputs(self.examples[(api, cid)])}
                                    for cid, n in clauses]})
        return out


def _inputs(case: dict[str, Any]) -> list[Any]:
    def one(e: Any) -> Any:
        if isinstance(e, list):
            return [one(x) for x in e]
        return {k: e.get(k) for k in ("name", "type", "dtype", "shape", "range_values") if k in e}
    return [one(e) for e in case.get("inputs", [])]


def _replay(drafts: Path, checkouts: list[Path], rev: str) -> tuple[Replay, int]:
    if not drafts.is_dir():
        raise UsageError("not a directory of specs", file=str(drafts))
    replay, files = Replay(drafts), 0
    for checkout in checkouts:
        for path in files_at_revision(checkout, rev, CASE_FILE):
            files += 1
            for case in read_cases(checkout, rev, path):
                replay.add(case, path)
    return replay, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("drafts", type=Path, help="a directory of drafted specs (conformance draft -o)")
    parser.add_argument("checkouts", type=Path, nargs="+", help="git checkouts holding atk_*.json files")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--show", type=int, default=20, help="operators to list (most refused first)")
    parser.add_argument("--out", type=Path, help="write the tallies and every refusal as JSON")
    args = parser.parse_args(argv)
    try:
        replay, files = _replay(args.drafts, args.checkouts, args.rev)
    except ConformanceError as error:
        print(f"bench_vendor_cases: {error}", file=sys.stderr)
        return 2
    rows, t = replay.rows(), replay.tally
    print(f"case files: {files}; cases: {t['cases']}; with a draft: {t['with a draft']}; "
          f"replayed: {t['replayed']}; refused on every product line: {t['refused']} "
          f"({100 * t['refused'] / max(t['replayed'], 1):.2f}%) in {len(rows)} operators "
          f"of {len(replay.per_op)}")
    for reason, n in replay.skipped.most_common(5):
        print(f"  not replayed: {n} x {reason}")
    for row in rows[: args.show]:
        top = row["clauses"][0]
        print(f"{row['api']}: {row['refused']}/{row['replayed']} refused; {top['id']} "
              f"({top['cases']}): {top['quote'][:70]}")
    if args.out:
        args.out.write_text(json.dumps({"tally": dict(t), "not_replayed": dict(replay.skipped),
                                        "operators": rows}, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
