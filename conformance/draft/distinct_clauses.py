"""An int array of axes naming one axis twice ("dims数组中元素重复", "axes数组中的轴重复"): an
``expr`` clause ``len(distinct(dims, max(x.rank, 1))) == len(dims)``, the axes taken modulo the
rank of the tensor they index (``[1, -1]`` of a rank-2 tensor is one axis twice). That tensor is
the one a dimension-range clause gives the array (attr_clauses.dim_range), else the one its notes
write the range over ("[-self.dim(), self.dim()-1]"); an array with neither is left for review.
Broken by ``[-1, R - 1]`` (R: max(rank, 1) of that tensor's draw): one axis counted from either
end, within every rank's range. ``[0, 0]`` would pass a kernel comparing the raw values (or
wrapping negative axes wrongly), so it stays only where the tensor has no draw of its own."""
from __future__ import annotations

from collections.abc import Callable

from conformance.draft.attr_clauses import documented_dim
from conformance.draft.context import Clause, Context, Evidence, expressible
from conformance.draft.value_rows import array_clause


def distinct(ctx: Context, evidence: list[Evidence], built: list[Clause]) -> list[Clause]:
    """One clause per array a duplicates sentence names alone (or beside the tensor it indexes:
    "axes中有值…不在[-self.dim(), self.dim()-1]，或表示的轴有重复")."""
    axes_of = {c["_dim"][0]: c["_dim"][1] for c in built if "_dim" in c}
    clauses = []
    for e in evidence:
        arrays = [p for p in e.params if p in ctx.of_kind("int_array")]
        if len(arrays) != 1:
            continue
        attr = arrays[0]
        tensor = axes_of.get(attr) or documented_dim(ctx, attr)
        if tensor is None or not expressible(attr, tensor) or not set(e.params) <= {attr, tensor}:
            continue
        text = f"len(distinct({attr}, max({tensor}.rank, 1))) == len({attr})"
        clauses.append(array_clause(ctx, e, attr, text, _axes=(attr, tensor),
                                    **{"break": {attr: {"expr": "[0, 0]"}}}))
    return clauses


def axis_breaks(shape_of: dict[str, str], clauses: list[Clause], draw_of: Callable[[str], str]) -> None:
    """Each duplicate-axes clause broken by the last axis named twice, once from each end
    (``shape_of``: a tensor's shape draw; ``draw_of``: an attribute's draw)."""
    for c in clauses:
        attr, tensor = c.pop("_axes", (None, None))
        if attr is not None and tensor in shape_of:
            c["break"] = {draw_of(attr): {"expr": f"[-1, max(len({shape_of[tensor]}), 1) - 1]"}}
