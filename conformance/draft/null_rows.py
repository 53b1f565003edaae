"""Null-pointer rows that name the parameters they leave out: "如果传入参数为aclTensor或aclTensorList
且非batchSizesOptional，是空指针" is every required pointer of the C types it names but those."""
from __future__ import annotations

from conformance.draft.context import Context
from conformance.draft.sentence_limits import IDENT, rx
from conformance.draft.words import NAMES

_KINDS = {"aclTensor": "tensor", "aclTensorList": "tensor_list"}
_ALL_BUT = rx(r"^(?:如果)?传入(?:的)?参数(?:类型)?(?:为|是)\s*"
              r"(?P<types>aclTensor(?:List)?(?:\s*或\s*aclTensorList)?)"
              rf"\s*且(?:非|不是)\s*(?P<but>{NAMES})\s*[，,]\s*(?:是|为)空指针$")


def all_but(ctx: Context, text: str) -> list[str] | None:
    """The required pointers such a row speaks of; None when it is not one, [] when it names a
    parameter the page lacks (whatever it leaves out must be known: no clause)."""
    m = _ALL_BUT.search(text.strip().rstrip("。"))
    if m is None:
        return None
    but = IDENT.findall(m["but"])
    if not set(but) <= {*ctx.params, *ctx.omitted}:
        return []
    kinds = {_KINDS[t] for t in IDENT.findall(m["types"])}
    return [n for n in ctx.required_pointers() if ctx.params[n]["kind"] in kinds and n not in but]
