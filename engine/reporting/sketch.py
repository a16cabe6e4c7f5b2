"""Durations kept as a fixed log-bucket histogram (DDSketch's buckets), so a median or p90 over
any selection of the report's projection (engine/reporting/rollup.py) is read by merging its
rows' counts instead of every duration.

Bucket i holds the durations in (γ^(i-1), γ^i] seconds with γ = (1+α)/(1-α), and stands for
2·γ^i/(γ+1): every duration it holds is within α (1 %) of that value. A quantile between two ranks
is interpolated as percentile_cont does; each rank's value is within α, so the quantile is too.
Zero (a task completed in the instant it opened) has its own bucket, "z", worth 0."""
from __future__ import annotations

import math

ALPHA = 0.01
GAMMA = (1 + ALPHA) / (1 - ALPHA)
_LOG_GAMMA = math.log(GAMMA)
ZERO = "z"


def bucket(seconds: float) -> str:
    """The bucket of a duration, as the JSON key it is stored under."""
    if seconds <= 0:
        return ZERO
    return str(math.ceil(math.log(seconds) / _LOG_GAMMA))


def value(key: str) -> float:
    """The duration a bucket stands for (within α of each it holds)."""
    if key == ZERO:
        return 0.0
    return 2 * GAMMA ** int(key) / (GAMMA + 1)


def add(sketch: dict[str, int], other: dict[str, int]) -> dict[str, int]:
    """Merge `other`'s counts into `sketch` (in place) and return it."""
    for key, count in other.items():
        sketch[key] = sketch.get(key, 0) + count
    return sketch


def quantiles(sketch: dict[str, int], fractions: tuple[float, ...]) -> tuple[float, ...]:
    """Each fraction's quantile, as percentile_cont over the durations the sketch holds."""
    ordered = sorted(sketch.items(), key=lambda kv: value(kv[0]))
    n = sum(count for _, count in ordered)
    out = []
    for fraction in fractions:
        position = (n - 1) * fraction
        low = int(position)
        below, above = _rank(ordered, low), _rank(ordered, min(low + 1, n - 1))
        out.append(below + (above - below) * (position - low))
    return tuple(out)


def _rank(ordered: list[tuple[str, int]], rank: int) -> float:
    """The value at a 0-based rank."""
    seen = 0
    for key, count in ordered:
        seen += count
        if rank < seen:
            return value(key)
    return value(ordered[-1][0])
