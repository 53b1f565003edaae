"""What a run is asked to do, resolved and validated once, then recorded in the journal's run.json.

Whoever starts a run (``conformance run``, ``run_suite``, or a bare ``pytest --pyargs conformance.suite``)
calls ``resolve`` once (loading or probing the backend once) and ``start``; the pytest plugin and
every xdist worker then read the configuration back with ``started`` instead of resolving again.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from conformance.backends.loading import backend_for, describe_backend, load_backend, told_product
from conformance.check.goldens import check_golden, golden_name
from conformance.check.precision import STANDARDS
from conformance.errors import UsageError
from conformance.report import journal
from conformance.report.waivers import load_waivers
from conformance.run.plan import not_applicable
from conformance.run.profiles import DEFAULT_PRODUCT, PROFILES
from conformance.spec.model import SpecSet
from conformance.version import TOOL, tool_version


@dataclass(frozen=True)
class RunConfig:
    backend: str
    products: tuple[str, ...]
    apis: tuple[str, ...]
    profile: str
    seed: int
    max_examples: int
    report_dir: Path
    shard: tuple[int, int] | None = None  # (K, N): the K-th of N deterministic parts, 1-based
    waivers: Path | None = None  # accepted non-conformances (conformance/report/waivers.py)
    isolate: bool = False  # call the backend in a worker process (backends/isolated.py)
    case_timeout: float = 30.0
    resume: bool = False  # continue the run journaled in report_dir (journal.py)
    precision: str = "strict"  # the precision standard that decides numerics (check/precision.py)
    #: api -> why the backend does not implement it: those operators are reported "not run"
    not_implemented: tuple[tuple[str, str], ...] = ()
    golden: str | None = None  # what judges numerics where a spec has no reference (check/goldens.py)

    @property
    def planned_apis(self) -> list[str]:
        """The operators whose items run: the requested ones the backend implements."""
        skipped = dict(self.not_implemented)
        return [a for a in self.apis if a not in skipped]

    def meta(self, specs: SpecSet, about: dict[str, Any]) -> dict[str, Any]:
        """What the run records when it starts (the report's header); ``about``: the backend's
        ``describe_backend``."""
        data = asdict(self)
        data["report_dir"] = str(self.report_dir)
        data["waivers"] = str(self.waivers) if self.waivers else None
        data["shard"] = f"{self.shard[0]}/{self.shard[1]}" if self.shard else None
        data.pop("resume")
        data["not_implemented"] = [[a, p, why] for a, why in self.not_implemented
                                   for p in self.products if specs.operator(a).applicable(p)]
        data["backend"] = {"spec": self.backend, "name": about.get("name", ""),
                           "version": about.get("version", ""), "product": about.get("product")}
        data["spec"] = {"version": specs.version, "digest": specs.digest}
        data["tool"] = {"name": TOOL, "version": tool_version()}
        data["started"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        data["not_applicable"] = not_applicable(specs, list(self.apis), list(self.products))
        data["clauses"] = {api: [_clause(c) for c in specs.operator(api).constraints] for api in self.apis}
        data["operators"] = {api: operator_meta(specs.operator(api), self.golden) for api in self.apis}
        data["dtypes"] = {api: {p: _dtypes(specs.operator(api), p) for p in self.products}
                          for api in self.apis}
        return data

    @classmethod
    def from_meta(cls, meta: dict[str, Any], resume: bool = False) -> RunConfig:
        """The configuration ``meta`` (a run.json) records: the inverse of ``meta``."""
        return cls(meta["backend"]["spec"], tuple(meta["products"]), tuple(meta["apis"]), meta["profile"],
                   int(meta["seed"]), int(meta["max_examples"]), Path(meta["report_dir"]),
                   _shard(meta.get("shard")), Path(meta["waivers"]) if meta.get("waivers") else None,
                   bool(meta["isolate"]), float(meta["case_timeout"]), resume,
                   meta.get("precision", "strict"),
                   tuple(dict.fromkeys((a, why) for a, _, why in meta.get("not_implemented", []))),
                   meta.get("golden"))


def start(specs: SpecSet, cfg: RunConfig, about: dict[str, Any]) -> None:
    """Record the run's start in ``cfg.report_dir`` (run.json), which every process then reads."""
    journal.start_run(cfg.report_dir, cfg.meta(specs, about), cfg.resume)


def started(report_dir: str | Path, resume: bool = False) -> RunConfig:
    """The configuration of the run started in ``report_dir`` (no second resolve, no second probe)."""
    return RunConfig.from_meta(journal.read_meta(Path(report_dir)), resume)


def _dtypes(spec: Any, product: str) -> list[str]:
    return spec.test_dtypes(product)


def _clause(c: Any) -> dict[str, Any]:
    out = {"id": c.id, "kind": c.kind, "outcome": c.outcome, "doc": c.source.doc,
           "quote": c.source.quote, "checks": list(c.checks)}
    if c.source.where:
        out["where"] = c.source.where
    return out


def operator_meta(spec: Any, golden: str | None) -> dict[str, Any]:
    """What a report says of an operator beside its clauses: the version of the documents its spec
    encodes, what judged its numerics (null: nothing, they are no-reference) and the sentences
    left for a person (review clauses, never judged; one may keep tensors in one dtype)."""
    return {"doc_version": spec.doc_version.to_json() if spec.doc_version else None,
            "reference": golden_name(spec, golden), "review": [_review(spec, r) for r in spec.reviews]}


def _review(spec: Any, review: Any) -> dict[str, Any]:
    """A review clause as a report lists it, with the tensors valid cases keep in one dtype for it
    (generate: dtype_together), if any."""
    out = review.to_json()
    tied = [p for t in spec.program.together if t.source == review.id for p in t.params]
    if tied:
        out["dtype_together"] = list(dict.fromkeys(tied))
    return out


def resolve(specs: SpecSet, backend: str = "reference", products: list[str] | None = None,
            ops: list[str] | None = None, profile: str = "ci", seed: int = 0,
            max_examples: int | None = None, report_dir: str | Path = "reports",
            shard: str | None = None, waivers: str | Path | None = None, isolate: bool | None = None,
            case_timeout: float | None = None, resume: bool = False,
            precision: str = "strict", golden: str | None = None) -> tuple[RunConfig, dict[str, Any]]:
    """Validate the options (``UsageError`` naming the argument) and load the backend once (in a
    worker when isolated); the configuration and what the backend says of itself."""
    if profile not in PROFILES:
        raise UsageError(f"--profile {profile}: unknown (profiles: {', '.join(PROFILES)})")
    chosen = PROFILES[profile]
    isolate = backend not in IN_PROCESS if isolate is None else isolate
    if isolate:
        about = _probe(backend, case_timeout or chosen.case_timeout)
    else:
        _LOADED[backend] = load_backend(backend)
        about = describe_backend(_LOADED[backend])
    apis = tuple(dict.fromkeys(_api(specs, op) for op in (ops or list(specs.operators))))
    declared = about["product"]
    declared_id = _product(specs, declared, "the backend's product") if declared else None
    from_device = about["product_from_device"]
    if products:
        ids = tuple(dict.fromkeys(_product(specs, p, f"--product {p}") for p in products))
        if declared_id and ids != (declared_id,) and not from_device:
            raise UsageError(f"--product: backend {backend!r} says it is {declared_id}; it cannot be "
                             f"tested as {', '.join(ids)}")
    elif from_device and not declared_id:
        raise UsageError(f"--backend {backend}: the device's SoC {about['soc'] or '?'!r} "
                         "is in no product line of specs/vocabulary.yaml; pass --product")
    elif declared_id or chosen.one_product:
        ids = (declared_id or _one_product(specs, apis),)
    else:
        ids = tuple(specs.vocabulary.products)
    missing = about["missing_operators"]
    not_implemented = tuple((api, missing[api]) for api in apis if api in missing)
    if max_examples is not None and max_examples < 1:
        raise UsageError(f"--max-examples {max_examples}: must be at least 1")
    if waivers is not None:
        load_waivers(waivers, specs.vocabulary)  # a bad waiver file stops the run before it starts
    if precision not in STANDARDS:
        raise UsageError(f"--precision {precision}: unknown (standards: {', '.join(STANDARDS)})")
    check_golden(golden)
    if case_timeout is not None and not case_timeout > 0:
        raise UsageError(f"--case-timeout {case_timeout}: must be a positive number of seconds")
    cfg = RunConfig(backend, ids, apis, profile, int(seed), max_examples or chosen.max_examples,
                    Path(report_dir), _shard(shard), Path(waivers).resolve() if waivers else None,
                    isolate, case_timeout or chosen.case_timeout, bool(resume), precision, not_implemented,
                    golden)
    return cfg, about


def _one_product(specs: SpecSet, apis: tuple[str, ...]) -> str:
    """The line a one-product profile runs when neither --product nor the backend names one: the
    default, unless some operator of the run is not supported there (a drafted operator of
    Ascend 950 alone, which would run only its product_in items), then the first line every one
    supports (none: the default, where the run says what is not applicable)."""
    ops = [specs.operator(a) for a in apis]
    lines = (DEFAULT_PRODUCT, *specs.vocabulary.products)
    return next((p for p in lines if all(p in spec.products for spec in ops)), DEFAULT_PRODUCT)


IN_PROCESS = frozenset({"reference"})  # pure Python, known safe: no worker process needed


def _probe(spec: str, timeout: float) -> dict[str, Any]:
    """Load the backend in a worker to learn its name, version and product: a library that crashes
    while loading is then a usage error, not the death of this process."""
    from conformance.backends.isolated import IsolatedBackend

    worker = IsolatedBackend(spec, None, timeout)
    try:
        return dict(worker.about)
    finally:
        worker.close()


def make_backend(cfg: RunConfig, product: str) -> Any:
    """The backend for one product: in a worker process when the run isolates it."""
    if cfg.isolate:
        from conformance.backends.isolated import IsolatedBackend

        return IsolatedBackend(cfg.backend, product, cfg.case_timeout)
    loaded = _LOADED.pop(cfg.backend, None)  # the instance resolve loaded here serves a first product
    return told_product(loaded, product) if loaded is not None else backend_for(cfg.backend, product)


#: Backend spec -> the instance ``resolve`` loaded in this process and no product has used yet.
_LOADED: dict[str, Any] = {}


def _shard(text: str | None) -> tuple[int, int] | None:  # also read back from run.json
    if text is None:
        return None
    k, _, n = str(text).partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise UsageError(f"--shard {text}: expected K/N with 1 <= K <= N (e.g. 2/4)")
    return int(k), int(n)


def _product(specs: SpecSet, name: str, what: str) -> str:
    pid = specs.vocabulary.product(name)
    if pid is None:
        raise UsageError(f"{what}: unknown product {name!r} (products: "
                         f"{', '.join(specs.vocabulary.products)}, or a SoC name)")
    return pid


def _api(specs: SpecSet, name: str) -> str:
    try:
        return specs.operator(name).api
    except KeyError:
        raise UsageError(f"--op {name}: unknown operator (known: {', '.join(specs.operators)})") from None
