"""The pieces of the vendor's phrasing that many readers share, each written once: a parameter's
name, a list of names, the words saying two things differ, the quote characters around a value
and the string values they quote.
"""
from __future__ import annotations

#: A parameter name (ASCII: ``\w`` would take Chinese text along).
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
#: Names joined as one subject: "x1、x2或者out", "self和other".
NAMES = rf"{NAME}(?:\s*(?:、|,|，|或者|或|和)\s*{NAME})*"
#: A name as a string value or an attribute writes it, a "-" allowed: "gelu-erf".
WORD = r"[A-Za-z_][A-Za-z0-9_\-]*"
#: A quoted string value (it may start with a digit: "16cast32").
VALUE = r"[A-Za-z0-9_][A-Za-z0-9_\-]*"
#: A dtype as a sentence names it ("INT64", "int64", "DT_INT32", "FLOAT32"; the vocabulary says
#: whether it knows it), and several joined as one list ("INT32或INT64", "FLOAT16、BFLOAT16").
DTYPE = r"(?:DT_)?[A-Za-z][A-Za-z0-9_]*"
DTYPE_SEP = r"\s*(?:、|或者|或|/|,|，)\s*"
DTYPES = rf"{DTYPE}(?:{DTYPE_SEP}{DTYPE})*"
#: Two properties differ: "不一致", "不相同", "不等" ("的shape不等于out的shape" too).
DIFFER = r"(?:不一致|不同|不相同|不相等|不一样|不匹配|不等)"
#: The quote characters the pages put around a string value ("…", “…”, '…', ‘…’).
QUOTES = "\"“”'‘’"
QUOTE = rf"[{QUOTES}]"
#: A value in quotes, or empty quotes ('""': no value, a value of its own).
QUOTED_VALUE = rf"{QUOTE}\s*(?:{VALUE})?\s*{QUOTE}"
#: One dimension named by its place ("第一维度", "第一个维度", "第2维"): a rule on it is not the shape's.
NTH_DIM = r"第.{1,3}维"
#: Two conditions joined in one sentence: "…，或…", "…或者…".
OR = r"\s*[，,]?\s*(?:或者|或)\s*"
