"""The phrasings of error rows tying a tensor's shape to an int array naming its trailing
dimensions (the LayerNorm family's normalizedShape): norm_ties.py builds their clauses. Apart
from the builder so patterns.py can read them without importing the drafting context.

- "input的shape与normalizedShape右对齐时对应维度shape不相等" (align): the tensor's last
  len(array) dimensions are the array;
- "mean的shape乘积与input从第0根轴到第len(input) - len(normalizedShape)轴的乘积不相等" (leading):
  the first tensor has as many elements as the second's dimensions before the array's (the axes
  from 0 up to, not including, len(input) - len(array): the dimensions not normalized).

"weightOptional非空且shape与normalizedShape不相等" (a tensor's shape is the array) is read by the
"shapes differ" pattern; norm_ties.py takes the rows of it that name an int array.
"""
from __future__ import annotations

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, NAME

_OF = r"(?:参数|输入)?\s*"
_ARRAY = r"\s*(?:数组)?\s*"
_ALIGN = rx(rf"^{_OF}({NAME})\s*的\s*shape{_ARRAY}(?:与|和)\s*({NAME}){_ARRAY}右对齐时\s*对应的?\s*维度\s*"
            rf"(?:的\s*)?(?:shape|大小|size)?\s*{DIFFER}\s*[。.]?$")
_LEADING = rx(rf"^{_OF}({NAME})\s*的\s*shape\s*(?:的\s*)?乘积\s*(?:与|和)\s*({NAME})\s*(?:的\s*shape\s*)?"
              rf"从第\s*0\s*根?\s*(?:轴|维)\s*到第\s*len\(\s*({NAME})\s*\)\s*-\s*len\(\s*({NAME})\s*\)\s*根?\s*"
              rf"(?:轴|维)\s*的\s*乘积\s*{DIFFER}\s*[。.]?$")
NORM_SHAPE = rx(f"{_ALIGN.pattern}|{_LEADING.pattern}")
# usage notes giving a shape in the pages' letters, ties said without a code: the dimensions not
# normalized then ones ("shape为[A1,...,Ai,1,...,1]，Ai后共有j个1": leading), the normalized ones
# alone ("shape与normalizedShape相等，为[R1,...,Rj]": equal)
_ETC = r"\s*,\s*(?:\.{3}|…)\s*,\s*"
LEADING_NOTE = rx(rf"\[\s*A1{_ETC}Ai\s*,\s*1{_ETC}1\s*\]")
EQUAL_NOTE = rx(rf"(?:为|是)\s*\[\s*R1{_ETC}Rj\s*\]")


def norm_limits(text: str) -> Limits | None:
    """{"align": (tensor, array)} or {"leading": (tensor, source, array)}; None: neither."""
    if m := _ALIGN.search(text):
        return {"align": (m[1], m[2])}
    if (m := _LEADING.search(text)) and m[2] == m[3]:
        return {"leading": (m[1], m[2], m[4])}
    return None
