"""Small statistics for the arena: means with confidence intervals and timing histograms.

Hearts scores are noisy (a seat's points per deal have a standard deviation
near 9), so every figure the arena prints carries a 95% confidence interval.
The intervals use the normal approximation over *independent units*: in a
duplicate match the unit is the board (one deal replayed in every seat
rotation), never the single seat-hand, because the rotations of one board
share their cards and are correlated by design.

Move times are kept in a fixed log-spaced histogram rather than as raw
samples, so workers can merge them by adding counts and a run of a million
decisions costs a few kilobytes; the p95 read from it is exact to the bin
width (about 2.3%).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its 95% confidence interval (``low``, ``high``) and sample size ``n``."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly on one side of 0 (a significant difference)."""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float | int]:
        return {"mean": self.mean, "ci_low": self.low, "ci_high": self.high, "sd": self.sd, "n": self.n}

    def format(self, digits: int = 2) -> str:
        if self.n == 0:
            return "-"
        if self.n == 1:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


def estimate(values: Iterable[float]) -> Estimate:
    """Mean of ``values`` with a normal-approximation 95% CI (sample standard deviation, n - 1).

    With fewer than two values the interval is the mean itself (nothing is known
    about the spread); with none every field is ``nan``.
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        nan = float("nan")
        return Estimate(nan, nan, nan, nan, 0)
    mean = math.fsum(xs) / n
    if n == 1:
        return Estimate(mean, mean, mean, 0.0, 1)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    sd = math.sqrt(var)
    half = Z95 * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, sd, n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) with linear interpolation, as numpy's default."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# Move-time histogram: 1e-7 s .. 1e3 s, 100 bins per decade (bin ratio 10**0.01, ~2.3%).
_LOW_EXP = -7
_BINS_PER_DECADE = 100
_DECADES = 10
_NBINS = _BINS_PER_DECADE * _DECADES + 2  # plus one underflow and one overflow bin


@dataclass(slots=True)
class TimeHistogram:
    """Decision times of one player: exact count, sum and max, log-binned distribution."""

    count: int = 0
    total: float = 0.0
    longest: float = 0.0
    bins: dict[int, int] = field(default_factory=dict)

    def add(self, seconds: float) -> None:
        self.count += 1
        self.total += seconds
        self.longest = max(self.longest, seconds)
        b = _bin_of(seconds)
        self.bins[b] = self.bins.get(b, 0) + 1

    def merge(self, other: TimeHistogram) -> None:
        self.count += other.count
        self.total += other.total
        self.longest = max(self.longest, other.longest)
        for b, k in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + k

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else float("nan")

    def quantile(self, q: float) -> float:
        """Approximate ``q`` quantile (0..1): the geometric centre of the bin holding it."""
        if not self.count:
            return float("nan")
        rank = q * self.count
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= rank:
                return min(_bin_centre(b), self.longest)
        return self.longest

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeHistogram:
        """The inverse of :meth:`to_json` (bin numbers come back from JSON's string keys)."""
        return cls(data["count"], data["total"], data["longest"], {int(b): n for b, n in data["bins"].items()})

    def to_json(self) -> dict[str, object]:
        return {
            "count": self.count,
            "total": self.total,
            "longest": self.longest,
            "bins": {str(b): k for b, k in sorted(self.bins.items())},
        }


def _bin_of(seconds: float) -> int:
    if seconds <= 0:
        return 0
    x = (math.log10(seconds) - _LOW_EXP) * _BINS_PER_DECADE
    if x < 0:
        return 0
    return min(int(x) + 1, _NBINS - 1)


def _bin_centre(b: int) -> float:
    if b == 0:
        return math.pow(10.0, _LOW_EXP)
    return math.pow(10.0, _LOW_EXP + (b - 0.5) / _BINS_PER_DECADE)
