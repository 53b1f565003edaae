"""A tensor's dtype named in an error row: "indicesOut的数据类型不为int64", "out数据类型不为COMPLEX64",
"inverseOut和countsOut的数据类型不为INT64", "x、wHigh、wLow的数据类型不为BFLOAT16", "传入的sorter不是
INT64类型", "…的数据类型不为FLOAT32时" (时 closing the sentence: when it is so).

Read as a ``dtype_in`` reading with the dtypes as written (``{"dtypes": [...]}``). The clause it
gives its code to lists the parameter table's dtypes, not the sentence's: table_clauses.py keeps
the reading only where the table lists exactly the named dtypes for every tensor it names on
every product, so the clause says no more and no less than the sentence. "indices和offsets的数据
类型都不是INT32或INT64" (都: an error only when neither is? or each?) and a sentence saying more
than the dtype ("…，或…为空tensor") are not read here.
"""
from __future__ import annotations

import re

from conformance.draft.sentence_limits import Limits, rx
from conformance.draft.words import DIFFER, DTYPE_SEP, DTYPES, NAME, NAMES
from conformance.spec.vocabulary import Vocabulary

_NOT = r"(?:不为|不是|非)"
ONE_DTYPE = rx(rf"^(?:传入的|输入|参数|输出)?\s*(?P<names>{NAMES})\s*"
               rf"(?:的?\s*数据类型\s*{_NOT}\s*(?P<values>{DTYPES})\s*(?:类型|数据类型)?"
               rf"|{_NOT}\s*(?P<typed>{DTYPES})\s*(?:类型|数据类型))\s*时?$")

# "foundInf的数据类型与currentScale不一致" (a name too long for "dtypes differ"'s 12 characters), and
# the rule as a requirement, "gradOut的数据类型需要与input一致": an error where the two differ
DTYPE_WITH = (rf"数据类型\s*(?:与|和|跟)\s*{NAME}\s*的?\s*(?:数据类型)?\s*{DIFFER}"
              rf"|数据类型\s*(?:需要|需|须|必须|应|要)\s*(?:与|和|跟)\s*{NAMES}\s*(?:保持)?\s*(?:一致|相同)\s*$")


def one_dtype_limits(text: str) -> Limits | None:
    """The dtypes the sentence names, as written ("int64", "DT_INT32")."""
    m = ONE_DTYPE.search(text)
    if m is None:
        return None
    return {"dtypes": re.split(DTYPE_SEP, m["values"] or m["typed"])}


def dtype_names(vocab: Vocabulary, words: list[str]) -> list[str] | None:
    """The vocabulary's names of dtypes as a sentence writes them ("DT_INT32", "float16"), in
    order and once each; None when it knows one of them not (INT4, HIFLOAT8)."""
    names = [vocab.dtype(re.sub(r"^DT_", "", w, flags=re.IGNORECASE)) for w in words]
    if None in names:
        return None
    return list(dict.fromkeys(n for n in names if n is not None))
