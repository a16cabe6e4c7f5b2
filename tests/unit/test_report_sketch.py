"""The report's log buckets (engine/reporting/sketch.py): any quantile read from merged
sketches is within 1 % of percentile_cont over the durations themselves."""
import random

from engine.reporting import sketch as report_sketch
from engine.reporting.stats import _interpolated


def exact(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return _interpolated({i + 1: v for i, v in enumerate(ordered)}, len(ordered), fraction)


def sketch_of(values: list[float]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        report_sketch.add(out, {report_sketch.bucket(v): 1})
    return out


def test_quantiles_of_merged_sketches_are_within_one_percent():
    rng = random.Random(19)
    for size in (1, 2, 3, 10, 101, 5000):
        parts = [[rng.lognormvariate(11, 1.5) for _ in range(size)] for _ in range(3)]
        merged: dict[str, int] = {}
        for part in parts:
            report_sketch.add(merged, sketch_of(part))
        every = [v for part in parts for v in part]
        for fraction, got in zip((0.5, 0.9, 0.0, 1.0), report_sketch.quantiles(merged, (0.5, 0.9, 0.0, 1.0))):
            want = exact(every, fraction)
            assert abs(got - want) <= 0.01 * want, (size, fraction, got, want)


def test_zero_and_tiny_durations_have_their_buckets():
    sketch = sketch_of([0.0, 0.0, 0.5, 3600.0])
    assert sketch[report_sketch.ZERO] == 2
    assert report_sketch.quantiles(sketch, (0.25,)) == (0.0,)
    assert abs(report_sketch.quantiles(sketch, (1.0,))[0] - 3600) <= 36
