"""How much of the vendor's pages the readers read: pages read without PageError, the failing
parts, and per-field coverage of the parameters, products and error rows.

Run from the repository root:
    PYTHONPATH=. python benchmarks/bench_reading.py /work/.mirror/hicann+ops-nn/repo ... [--rev HEAD]
        [--failures 20] [--unread 0]

Each argument is a docs git checkout (work tree or bare repository); every ``docs/aclnn*.md`` at
the revision is read with ``read_page``.
"""
from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from pathlib import Path

from conformance.draft.facts import PageError, PageFacts
from conformance.draft.reading import read_page
from conformance.draft.sources import page_at_revision, pages_at_revision
from conformance.spec.loader import load_vocabulary, specs_dir

TENSORS = ("aclTensor*", "aclTensorList*")


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else f"{part}/0"


def coverage(read: list[PageFacts]) -> list[tuple[str, int, int]]:
    """(field, params or rows having it, of how many) over every page read."""
    params = [p for f in read for p in f.params]
    declared = {(id(f), q.name): q.ctype for f in read for q in f.prototype}
    # a tensor: aclTensor*/aclTensorList* in the table's name cell, else in the prototype
    tensors = [p for f in read for p in f.params
               if (p.ctype or declared.get((id(f), p.name), "")).startswith(TENSORS)]
    products = [x for f in read for x in f.products]
    rows = [e for f in read for e in f.errors]
    return [
        ("pages with products", sum(bool(f.products) for f in read), len(read)),
        ("product lines mapped to the vocabulary", sum(x.product is not None for x in products),
         len(products)),
        ("params with a C type (table or prototype)",
         sum(bool(p.ctype) or p.name in {q.name for f in read for q in f.prototype} for p in params),
         len(params)),
        ("tensor params with dtypes or same-as",
         sum(bool(p.dtypes or p.dtype_same_as) for p in tensors), len(tensors)),
        ("tensor params with formats", sum(bool(p.formats) for p in tensors), len(tensors)),
        ("tensor params with a rank", sum(p.rank is not None for p in tensors), len(tensors)),
        ("tensor params with non-contiguous ✓/✗", sum(p.noncontiguous is not None for p in tensors),
         len(tensors)),
        ("params with product dtypes", sum(bool(p.product_dtypes) for p in params), len(params)),
        ("prototype params found in the table",
         sum(q.name in {p.name for p in f.params} for f in read for q in f.prototype),
         sum(len(f.prototype) for f in read)),
        ("pages with error rows", sum(bool(f.errors) for f in read), len(read)),
        ("error rows with a code", sum(e.code is not None for e in rows), len(rows)),
        ("pages with a determinism sentence", sum(f.deterministic is not None for f in read),
         len(read)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--failures", type=int, default=20, help="failing pages to list")
    parser.add_argument("--unread", type=int, default=0, help="unread sentences to sample")
    args = parser.parse_args()
    vocab = load_vocabulary(specs_dir() / "vocabulary.yaml")
    read: list[PageFacts] = []
    failed: list[PageError] = []
    crashed: list[tuple[str, BaseException]] = []
    started = time.perf_counter()
    for checkout in args.checkouts:
        for rel in pages_at_revision(checkout, args.rev):
            text, _, _ = page_at_revision(checkout, rel, args.rev)
            name = f"{checkout.parent.name}:{rel}"
            try:
                read.append(read_page(text, name, vocab))
            except PageError as error:
                failed.append(error)
            except Exception as error:  # noqa: BLE001 - a reader bug is counted, not fatal
                crashed.append((name, error))
    total = len(read) + len(failed) + len(crashed)
    print(f"pages: {total} in {time.perf_counter() - started:.1f} s")
    print(f"read without PageError: {_share(len(read), total)}")
    print(f"PageError: {len(failed)}, reader crashes: {len(crashed)}")
    for part, count in Counter(f"{e.part}: {re.sub(r'aclnn(?!Status)[A-Za-z0-9]+', 'aclnnX', e.reason)}"
                               for e in failed).most_common():
        print(f"  {count:4d}  {part}")
    for error in failed[:args.failures]:
        print(f"    {error}")
    for name, error in crashed[:args.failures]:
        print(f"    CRASH {name}: {type(error).__name__}: {error}")
    print("coverage:")
    for field, part, whole in coverage(read):
        print(f"  {field:45s} {_share(part, whole)}")
    unread = [(f.page, s) for f in read for s in f.unread]
    print(f"unread sentences: {len(unread)} ({len(unread) / max(1, len(read)):.1f} per page)")
    for page, sentence in unread[:args.unread]:
        print(f"    {page} {sentence.where.describe()}: {sentence.text[:100]}")


if __name__ == "__main__":
    main()
