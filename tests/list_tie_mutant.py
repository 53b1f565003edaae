"""A backend with one planted bug for the list-dtype clauses (tests/test_list_ties.py): the oracle
backend (status codes as the documents give them, nothing computed) without the tiling check of
mixed dtypes within a tensor list."""
from __future__ import annotations

from typing import Any

from conformance.backends.protocol import CallResult
from conformance.backends.reference import OracleBackend
from conformance.cases.case import Case
from conformance.cases.oracle import arg_metas
from conformance.spec.values import TensorList, dtypes_of

TILING = "ACLNN_ERR_INNER_TILING_ERROR"


class AcceptsMixedLists(OracleBackend):
    """Planted bug: a call the documents refuse with ACLNN_ERR_INNER_TILING_ERROR succeeds when a
    list it is given mixes dtypes (the kernel never compares the elements of one list)."""

    name = "mutant-accepts-mixed-lists"

    def refusal(self, api: str, args: dict[str, Any], product: str | None = None) -> CallResult | None:
        refused = super().refusal(api, args, product)
        if refused is None or refused.status != self.specs.vocabulary.status_codes.get(TILING):
            return refused
        metas = arg_metas(Case(api, product, dict(args)), self.specs)
        mixed = any(len(set(dtypes_of(v))) > 1 for v in metas.values() if isinstance(v, TensorList))
        return None if mixed else refused
