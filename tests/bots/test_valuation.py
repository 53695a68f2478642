"""The valuation's spread: the standard error of a paired difference, from batches by chain."""

from __future__ import annotations

import statistics

import pytest

from tarocchi.bots.likelihood import CHAINS
from tarocchi.bots.search import Stat
from tarocchi.bots.valuation import BATCHES, paired


def stat(margins: list[float]) -> Stat:
    s = Stat()
    for m in margins:
        s.add(m)
    return s


def test_a_chain_s_own_drift_counts_in_the_spread() -> None:
    # deal i comes from chain i % CHAINS; here each chain sits at its own offset, so every
    # run of CHAINS successive deals has the same mean: only batches by chain see the drift
    assert BATCHES == CHAINS
    drift = [float(i % CHAINS) for i in range(CHAINS * 16)]
    mean, spread = paired(stat(drift), stat([0.0] * len(drift)))
    offsets = [float(c) for c in range(CHAINS)]
    assert mean == pytest.approx(statistics.fmean(offsets))
    assert spread == pytest.approx(statistics.stdev(offsets) / CHAINS**0.5)


def test_no_spread_without_noise_and_none_from_one_deal() -> None:
    assert paired(stat([3.0] * 64), stat([1.0] * 64)) == (2.0, 0.0)
    assert paired(stat([3.0]), stat([1.0])) == (2.0, 0.0)
