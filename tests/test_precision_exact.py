"""precision._exact redoes only the elements whose finite terms overflowed their sum; with none
(an inf term makes Σ|terms| infinite, not overflowed) it answers None and the verdict is the one
judged without the rescaled golden."""
from __future__ import annotations

import numpy as np

from conformance.check.precision import SCALE, _exact, judge
from reference.golden import Golden

F64_MAX = float(np.finfo(np.float64).max)
ARGS = ((np.dtype(np.float64),), (1.0, 2.0, 0), F64_MAX, F64_MAX)  # dtypes, (c, safety, extra), maxima


def _golden(value, abs_sum) -> Golden:
    return Golden(np.array(value, np.float64), np.array(abs_sum, np.float64), np.ones(len(value), np.int64))


def _scaled(g: Golden) -> Golden:
    return Golden(g.value * SCALE, g.abs_sum * SCALE, g.count)


def test_an_inf_term_leaves_nothing_to_redo():
    golden = _golden([np.inf, 1.5, np.nan], [np.inf, 2.0, np.nan])
    actual = np.array([np.inf, 1.5, np.nan])
    assert _exact(actual, _scaled(golden), (3,), *ARGS) is None
    verdict = judge(actual, golden, np.float64, rescaled=_scaled(golden))
    assert verdict.to_json() == judge(actual, golden, np.float64).to_json() and verdict.judged == 3


def test_finite_terms_past_the_range_are_redone():
    # element 0: terms summing to max / 2 whose Σ|terms| is 1.5 * max (overflowed to inf)
    golden = _golden([F64_MAX / 2, 1.0], [np.inf, 1.0])
    rescaled = Golden(np.array([F64_MAX * SCALE / 2, SCALE]), np.array([F64_MAX * SCALE * 1.5, SCALE]),
                      golden.count)
    actual = np.array([F64_MAX / 2, 1.0])
    redo = _exact(actual, rescaled, (2,), *ARGS)
    assert redo is not None and redo[0].tolist() == [True, False]
    assert judge(actual, golden, np.float64, rescaled=rescaled).judged == 2
    assert judge(actual, golden, np.float64).judged == 1  # without it, element 0 is left out
