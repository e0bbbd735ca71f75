"""The vectorised SeedSequence hash gives NumPy's streams bit for bit."""

import numpy as np
import pytest

from simulations.algorithms._seeding import generators


def _numpy(entropy, key):
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=key)))


def test_generators_are_numpys_seedsequence_streams():
    # the reference is NumPy's own SeedSequence; entropies and keys of every word length the
    # simulators use (0, below and above 2**32, lists of such ints, up to 2**70)
    rng = np.random.default_rng(7)
    pairs = [(0, ()), (0, (0,)), (5, (0, 1)), (2**32, (3,)), (2**32 - 1, (2**32, 7)),
             ([2**40, 3], (1, 2, 0)), ([5, 2**51], (0, 9, 1)), (2**62, (1,)),
             (2**70, (4, 4)), ([0, 0], (0, 0, 0)), (123, (2**33,))]
    pairs += [([int(a), int(b)], (3, int(lv), int(p))) for a, b, lv, p in
              zip(rng.integers(0, 2**52, 200), rng.integers(0, 2**33, 200),
                  rng.integers(0, 20, 200), rng.integers(0, 2, 200))]
    pairs += [(int(s), (int(r), int(k))) for s, r, k in
              zip(rng.integers(0, 2**63, 200, dtype=np.uint64), rng.integers(0, 10**6, 200),
                  rng.integers(0, 3, 200))]
    for (entropy, key), g in zip(pairs, generators(pairs), strict=True):
        ref = _numpy(entropy, key)
        assert g.bit_generator.state == ref.bit_generator.state
        assert np.array_equal(g.standard_normal(7), ref.standard_normal(7))


def test_a_changed_word_changes_the_stream():
    # power: a one-bit change of the entropy or the key gives another stream
    a, b, c = generators([(2**40, (1, 2)), (2**40 + 1, (1, 2)), (2**40, (1, 3))])
    assert a.random() != b.random() and a.random() != c.random()


def test_negative_entropy_is_an_error():
    with pytest.raises(ValueError, match="non-negative"):
        generators([(-1, (0,))])
