"""The phrasings of matrix-product rows (matmul_ties.py and dim_ties.py build their clauses): two
matrices that cannot be multiplied, and a tensor whose shape is not their product's. Apart from
the builders so patterns.py can read them without importing the drafting context."""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, NAME

_END = r"[。.]?$"
# "mat1和mat2不满足相乘条件", "x1和x2的输入shape不满足矩阵乘关系": A @ B, A's last dimension tied to
# B's second last (A [m, k], B [k, n]); built only where the page's table fixes both as matrices
# (rank 2) and no parameter transposes them (matmul_ties.matrices)
MATMUL = rx(rf"^(?:参数|输入)?\s*({NAME})\s*(?:和|与|、)\s*({NAME})\s*的?\s*(?:输入\s*)?(?:shape\s*)?"
            rf"不满足\s*(?:相乘|矩阵乘法?|乘法)(?:运算)?\s*的?\s*(?:条件|关系){_END}")
# "out和mat1@mat2 shape不一致", "selfRef和mat1@mat2的shape不一致", "out的shape与mat1@mat2不一致": the
# tensor's shape against the product's ([m, n] for matrices)
_PRODUCT = rf"({NAME})\s*@\s*({NAME})"
PRODUCT_SHAPE = rx(rf"^(?:参数|输出)?\s*({NAME})\s*(?:和|与|跟)\s*{_PRODUCT}\s*的?\s*shape\s*{DIFFER}{_END}|"
                   rf"^(?:参数|输出)?\s*({NAME})\s*的?\s*shape\s*(?:和|与|跟)\s*{_PRODUCT}\s*"
                   rf"(?:的\s*shape\s*)?{DIFFER}{_END}")


# "self不能扩展成为vec1和vec2的外积结果形状": X broadcasts into the outer product of two vectors
# ([len(A), len(B)])
OUTER = rx(rf"^(?:参数|输入)?\s*({NAME})\s*(?:不能|无法)\s*(?:扩展|broadcast|广播)\s*(?:成为|成|为|到)\s*"
           rf"({NAME})\s*(?:和|与)\s*({NAME})\s*的?\s*外积(?:结果)?\s*的?\s*(?:形状|shape){_END}")


def outer_limits(text: str) -> Limits | None:
    """{"outer": (X, A, B)} for "X不能扩展成为A和B的外积结果形状" (None: not this row)."""
    m = OUTER.search(text)
    return {"outer": (m[1], m[2], m[3])} if m and len({m[1], m[2], m[3]}) == 3 else None


def matmul_limits(text: str) -> Limits | None:
    """{"tie": (B, -2, A, -1, 1), "matmul": True} for "A和B不满足相乘条件" (None: not this row)."""
    m = MATMUL.search(text)
    return {"tie": (m[2], -2, m[1], -1, 1), "matmul": True} if m else None


def product_limits(text: str) -> Limits | None:
    """{"product": (X, A, B)} for "X和A@B shape不一致" (None: not this row)."""
    m = PRODUCT_SHAPE.search(text)
    if m is None:
        return None
    x, a, b = m.groups()[:3] if m[1] else m.groups()[3:]
    return {"product": (x, a, b)}


def broadcast_note(a: str, b: str) -> re.Pattern[str]:
    """A usage note broadcasting its tensor with the product of ``a`` and ``b``: "需要与mat1@mat2满足
    broadcast关系"."""
    return rx(rf"(?:与|和)\s*{re.escape(a)}\s*@\s*{re.escape(b)}\s*(?:的\s*shape\s*)?满足\s*broadcast\s*关系")
