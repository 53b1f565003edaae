"""A case is one call: api, product and arguments by the documents' parameter names.

Case files (YAML) are what ``conformance explain`` reads and what failing findings are saved as;
the same parser serves both. Tensor data, when a case carries it, lives in an ``.npz`` beside it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.cases.tensor import TensorMeta
from conformance.errors import CaseError
from conformance.spec.model import OperatorSpec, SpecSet
from conformance.spec.values import Scalar, TensorList, scalar_value
from conformance.spec.yaml_lines import LocatedYaml, load_yaml

_TOP_KEYS = {"api", "product", "args", "data", "seed", "regime", "note", "finding"}
_TENSOR_KEYS = {"shape", "dtype", "strides", "offset", "format", "outside"}


@dataclass
class Case:
    """One call. ``args`` maps parameter names to TensorMeta/Tensor/None, TensorList (of them),
    Scalar, tuples, ints, bools or strings."""

    api: str
    product: str | None
    args: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


def load_case(path: str | Path, specs: SpecSet, product: str | None = None) -> Case:
    """Parse a case file; every problem is a ``CaseError`` naming the file, line and field."""
    doc = load_yaml(path, CaseError)
    return _CaseParser(doc, specs).parse(product)


def case_from_dict(data: dict[str, Any], specs: SpecSet, name: str = "<case>") -> Case:
    doc = LocatedYaml(data, {}, name)
    return _CaseParser(doc, specs).parse(None)


class _CaseParser:
    def __init__(self, doc: LocatedYaml, specs: SpecSet) -> None:
        self.doc, self.specs = doc, specs

    def fail(self, message: str, *path: Any) -> CaseError:
        field_name = ".".join(str(p) for p in path) or None
        return CaseError(message, file=self.doc.file, line=self.doc.line_of(path), field=field_name)

    def parse(self, product_override: str | None) -> Case:
        data = self.doc.data
        if not isinstance(data, dict):
            raise self.fail("a case file is a mapping with api, product and args")
        unknown = sorted(set(map(str, data)) - _TOP_KEYS)
        if unknown:
            raise self.fail(f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(_TOP_KEYS))})",
                            unknown[0])
        spec = self._operator(data.get("api"))
        product = self._product(product_override if product_override is not None
                                else data.get("product"))
        args = data.get("args")
        if not isinstance(args, dict):
            raise self.fail("args must be a mapping of parameter names to values", "args")
        parsed = {name: self._arg(spec, name, value) for name, value in args.items()}
        missing = [p for p in spec.params if p not in parsed]
        if missing:
            raise self.fail(f"missing argument(s) {', '.join(missing)} (write null for a null pointer)",
                            "args")
        extra = {k: data[k] for k in ("data", "seed", "regime", "note", "finding") if k in data}
        return Case(spec.api, product, parsed, extra=extra)

    def _operator(self, api: Any) -> OperatorSpec:
        if not isinstance(api, str):
            raise self.fail("api is required (e.g. aclnnKlDivBackward)", "api")
        try:
            return self.specs.operator(api)
        except KeyError:
            raise self.fail(f"unknown api {api!r} (known: {', '.join(self.specs.operators)})",
                            "api") from None

    def _product(self, name: Any) -> str | None:
        if name is None:
            return None
        pid = self.specs.vocabulary.product(str(name))
        if pid is None:
            known = ", ".join(self.specs.vocabulary.products)
            raise self.fail(f"unknown product {name!r} (ids: {known}, or a SoC name such as Ascend910B)",
                            "product")
        return pid

    def _arg(self, spec: OperatorSpec, name: Any, value: Any) -> Any:
        at = ("args", name)
        param = spec.params.get(name)
        if param is None:
            raise self.fail(f"{spec.api} has no parameter {name!r} (parameters: {', '.join(spec.params)})",
                            *at)
        if value is None:
            return None
        if param.kind == "tensor":
            return self._tensor(value, *at)
        if param.kind == "tensor_list":
            if not isinstance(value, list):
                raise self.fail("a tensor list is a list of tensors {shape, dtype, ...} or null", *at)
            return TensorList(self._tensor(v, *at, i) for i, v in enumerate(value))
        if param.kind == "scalar":
            return self._scalar(value, *at)
        if param.kind == "string" and not isinstance(value, str):
            raise self.fail(f"expected a string, got {value!r}", *at)
        if param.kind == "int_array":
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise self.fail("expected a list of integers or null", *at)
            return tuple(value)
        if param.kind == "bool_array":
            if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
                raise self.fail("expected a list of true/false or null", *at)
            return tuple(value)
        if param.kind == "int" and not _is_int(value):
            raise self.fail(f"expected an integer, got {value!r}", *at)
        if param.kind == "bool" and not isinstance(value, bool):
            raise self.fail(f"expected true or false, got {value!r}", *at)
        return value

    def _scalar(self, value: Any, *at: Any) -> Scalar:
        if not isinstance(value, dict) or set(map(str, value)) != {"value", "dtype"}:
            raise self.fail("a scalar is a mapping {value, dtype} or null", *at)
        dtype = self.specs.vocabulary.dtype(value.get("dtype"))
        if dtype is None:
            known = ", ".join(self.specs.vocabulary.dtypes)
            raise self.fail(f"unknown dtype {value.get('dtype')!r} (known: {known})", *at, "dtype")
        number = value["value"]
        if isinstance(number, list) and len(number) == 2 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in number):
            number = complex(*number)  # a complex value as [real, imaginary]
        if not isinstance(number, (int, float, bool, complex)):
            raise self.fail(f"a scalar's value is a number ([real, imaginary] if complex), got "
                            f"{number!r}", *at, "value")
        try:
            return Scalar(scalar_value(number, dtype), dtype)
        except (TypeError, ValueError, OverflowError):
            raise self.fail(f"{number!r} is not a {dtype} value", *at, "value") from None

    def _tensor(self, value: Any, *at: Any) -> TensorMeta:
        if not isinstance(value, dict):
            raise self.fail("a tensor is a mapping {shape, dtype[, strides, offset, format]} or null", *at)
        unknown = sorted(set(map(str, value)) - _TENSOR_KEYS)
        if unknown:
            raise self.fail(f"unknown tensor key(s) {', '.join(unknown)}", *at, unknown[0])
        shape = value.get("shape")
        if not isinstance(shape, list) or not all(_is_int(d) and 0 <= d < 2**40 for d in shape):
            raise self.fail("shape must be a list of non-negative integers", *at, "shape")
        dtype = self.specs.vocabulary.dtype(value.get("dtype"))
        if dtype is None:
            known = ", ".join(self.specs.vocabulary.dtypes)
            raise self.fail(f"unknown dtype {value.get('dtype')!r} (known: {known})", *at, "dtype")
        strides = value.get("strides")
        if strides is not None and (not isinstance(strides, list) or len(strides) != len(shape)
                                    or not all(_is_int(s) and s >= 0 for s in strides)):
            raise self.fail(f"strides must be {len(shape)} non-negative integers", *at, "strides")
        offset = value.get("offset", 0)
        if not _is_int(offset) or offset < 0:
            raise self.fail("offset must be a non-negative integer", *at, "offset")
        fmt = value.get("format", "ND")
        if fmt not in self.specs.vocabulary.formats:
            known = ", ".join(self.specs.vocabulary.formats)
            raise self.fail(f"unknown format {fmt!r} (known: {known})", *at, "format")
        outside = value.get("outside", False)
        if not isinstance(outside, bool):
            raise self.fail("outside must be true or false (data outside the parameter's domain)",
                            *at, "outside")
        return TensorMeta(tuple(shape), dtype, tuple(strides) if strides is not None else None,
                          offset, fmt, outside)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def case_to_dict(case: Case, metas: dict[str, Any]) -> dict[str, Any]:
    """The case-file form of a case (``metas``: the TensorMeta of each tensor argument)."""
    args: dict[str, Any] = {}
    for name, value in case.args.items():
        meta = metas.get(name, value)
        if isinstance(meta, TensorMeta):
            args[name] = _tensor_entry(meta)
        elif isinstance(meta, TensorList):
            args[name] = [_tensor_entry(e) for e in meta]
        elif isinstance(meta, Scalar):
            number = meta.value
            args[name] = {"value": [number.real, number.imag] if isinstance(number, complex) else number,
                          "dtype": meta.dtype}
        else:
            args[name] = list(value) if isinstance(value, tuple) else value
    out: dict[str, Any] = {"api": case.api, "product": case.product, "args": args}
    out.update(case.extra)
    return out


def _tensor_entry(meta: TensorMeta) -> dict[str, Any]:
    entry: dict[str, Any] = {"shape": list(meta.shape), "dtype": meta.dtype}
    if meta.strides is not None:
        entry["strides"] = list(meta.strides)
    if meta.offset:
        entry["offset"] = meta.offset
    if meta.format != "ND":
        entry["format"] = meta.format
    if meta.outside:
        entry["outside"] = True
    return entry
