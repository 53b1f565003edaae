"""Product lines, dtypes, formats and status codes, read from ``specs/vocabulary.yaml``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from conformance.spec.dtype_rules import DtypeRules


@dataclass(frozen=True)
class Product:
    id: str
    doc_names: tuple[str, ...]
    soc: tuple[str, ...]


@dataclass(frozen=True)
class DType:
    name: str
    aliases: tuple[str, ...]
    numpy_name: str
    acl_code: int
    kind: str

    @property
    def numpy(self) -> np.dtype:
        """The numpy dtype (bfloat16 comes from ml_dtypes)."""
        try:
            return np.dtype(self.numpy_name)
        except TypeError:
            return np.dtype(getattr(ml_dtypes, self.numpy_name))


class Vocabulary:
    """Lookup of the shared ids; every name a user may type resolves here or fails clearly."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.spec_version: str = data["spec_version"]
        self.products = {p["id"]: Product(p["id"], tuple(p["doc_names"]), tuple(p.get("soc", ())))
                         for p in data["products"]}
        self.dtypes = {d["name"]: DType(d["name"], tuple(d.get("aliases", ())), d["numpy"],
                                        d["acl_code"], d["kind"]) for d in data["dtypes"]}
        self.formats = {f["name"]: f["acl_code"] for f in data["formats"]}
        self.status_codes = {s["name"]: s["code"] for s in data["status_codes"]}
        #: promotion tables and cast rules; None for a vocabulary without them (tests' own)
        self.dtype_rules = (DtypeRules(data["dtype_rules"], self.dtypes) if "dtype_rules" in data
                            else None)
        self._dtype_alias = self._aliases()
        self._product_alias = {alias.lower(): p.id for p in self.products.values()
                               for alias in (p.id, *p.soc)}

    def _aliases(self) -> dict[str, str]:
        table: dict[str, str] = {}
        for d in self.dtypes.values():
            for alias in (d.name, *d.aliases, d.numpy_name):
                table[alias.lower()] = d.name
        return table

    def dtype(self, name: Any) -> str | None:
        """Canonical dtype name for a document, ACL_ or numpy spelling; None when unknown."""
        if isinstance(name, np.dtype) or (isinstance(name, type) and issubclass(name, np.generic)):
            name = np.dtype(name).name
        if not isinstance(name, str):
            return None
        key = name.strip().lower()
        key = key[4:] if key.startswith("acl_") else key
        return self._dtype_alias.get(key)

    def dtype_of_numpy(self, dtype: np.dtype) -> str | None:
        """Canonical name of a numpy dtype, or None for one the vocabulary does not list."""
        for d in self.dtypes.values():
            if d.numpy == dtype:
                return d.name
        return None

    def product(self, name: str) -> str | None:
        """Product id for an id or a SoC alias (case-insensitive); None when unknown."""
        return self._product_alias.get(str(name).strip().lower())

    def status_name(self, code: int) -> str:
        for name, value in self.status_codes.items():
            if value == code:
                return name
        return "ACLNN_ERR_INNER" if 561000 <= code < 562000 else f"status {code}"
