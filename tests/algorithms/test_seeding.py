"""The vectorised SeedSequence hash gives NumPy's streams bit for bit."""

import numpy as np
import pytest

from simulations.algorithms._seeding import generators, generators_of


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


def test_generators_of_arrays_are_numpys_seedsequence_streams():
    # reference: NumPy's SeedSequence; values on both sides of every word boundary (0, 2**32 - 1,
    # 2**32, 2**64 - 1) mixed per column, so rows of different word patterns are grouped
    rng = np.random.default_rng(11)
    edge = np.array([0, 1, 2**32 - 1, 2**32, 2**52 + 7, 2**64 - 1], dtype=np.uint64)
    for k, j in [(1, 0), (1, 2), (2, 3), (3, 1), (2, 0)]:
        m = 120
        ent = np.where(rng.random((m, k)) < 0.5, edge[rng.integers(0, 6, (m, k))],
                       rng.integers(0, 2**63, (m, k), dtype=np.uint64))
        key = np.where(rng.random((m, j)) < 0.5, edge[rng.integers(0, 6, (m, j))],
                       rng.integers(0, 50, (m, j)).astype(np.uint64))
        for i, g in enumerate(generators_of(ent, key)):
            ref = _numpy([int(x) for x in ent[i]], tuple(int(x) for x in key[i]))
            assert g.bit_generator.state == ref.bit_generator.state
    # a 1-d entropy is one int per row (NumPy: SeedSequence(int) == SeedSequence([int]))
    g = generators_of(np.array([5, 2**40]), np.array([[1, 2], [3, 4]]))
    assert g[1].bit_generator.state == _numpy(2**40, (3, 4)).bit_generator.state


def test_generators_of_refuses_bad_shapes_and_negatives():
    with pytest.raises(ValueError, match="same m"):
        generators_of(np.zeros((3, 2), dtype=np.uint64), np.zeros((2, 1), dtype=np.uint64))
    with pytest.raises(ValueError, match="non-negative"):
        generators_of(np.array([[-1]]), np.zeros((1, 1), dtype=np.int64))
