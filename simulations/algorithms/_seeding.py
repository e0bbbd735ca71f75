"""Many seeded generators at once: ``Generator(PCG64(SeedSequence(entropy, spawn_key=key)))``
for a list of (entropy, spawn key) pairs, bit for bit, with NumPy's SeedSequence hashing
vectorised over the pairs.

The simulators give every replicate (and every tree-noise stream of every replicate) its own
SeedSequence, so a run of R replicates builds several R generators; NumPy's SeedSequence
hashes its entropy in a Python-level loop (about 10 us each, most of a generator's
construction cost), which at R = 8000 made the generators a third of an audit's CPU time. The
hash (``numpy.random.SeedSequence``: ``mix_entropy`` and ``generate_state``, pool size 4) is
a fixed sequence of 32-bit multiply, xor and shift steps whose constants depend only on the
entropy's length, so it runs on all pairs of one length as array operations; the PCG64 is
then seeded with the words SeedSequence would give it. Pairs whose entropy words differ in
length are grouped; the result is the list NumPy builds, checked against it in the tests.
"""

from __future__ import annotations

import gc
from typing import Any, Sequence

import numpy as np

__all__ = ["generators", "generators_of"]

_POOL = 4
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_M32 = 0xFFFFFFFF


def _words(x: Any) -> list[int]:
    """NumPy's ``_coerce_to_uint32_array`` for a non-negative int or a sequence of them:
    little-endian 32-bit words (0 is one word)."""
    if isinstance(x, (list, tuple, np.ndarray)):
        out: list[int] = []
        for v in x:
            out += _int_words(int(v))
        return out
    return _int_words(int(x))


def _int_words(v: int) -> list[int]:
    if v <= _M32:
        if v < 0:
            raise ValueError(f"entropy and spawn keys must be non-negative integers, got {v}")
        return [v]
    out = []
    while v:
        out.append(v & _M32)
        v >>= 32
    return out


def _entropy(entropy: Any, key: Sequence[int]) -> list[int]:
    run, spawn = _words(entropy), _words(list(key))
    if spawn and len(run) < _POOL:
        run = run + [0] * (_POOL - len(run))
    return run + spawn


def _hash(ent: np.ndarray) -> np.ndarray:
    """(m, L) uint32 entropy words -> (m, 4) uint64 states (``generate_state(4, uint64)``)."""
    m, L = ent.shape
    u = np.uint32
    h = [_INIT_A]      # the hash constant: a scalar sequence, the same for every row

    def hashmix(v: np.ndarray) -> np.ndarray:
        v = v ^ u(h[0])
        h[0] = (h[0] * _MULT_A) & _M32
        v = v * u(h[0])
        return v ^ (v >> u(16))

    def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        r = u(_MIX_L) * x - u(_MIX_R) * y
        return r ^ (r >> u(16))

    zero = np.zeros(m, dtype=u)
    pool = [hashmix(ent[:, i] if i < L else zero) for i in range(_POOL)]
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(_POOL, L):
        for dst in range(_POOL):
            pool[dst] = mix(pool[dst], hashmix(ent[:, src]))
    hb = _INIT_B
    state = np.empty((m, 8), dtype=u)
    for i in range(8):
        v = pool[i % _POOL] ^ u(hb)
        hb = (hb * _MULT_B) & _M32
        v = v * u(hb)
        state[:, i] = v ^ (v >> u(16))
    return np.ascontiguousarray(state.astype("<u4")).view("<u8").astype(np.uint64)


class _Words(np.random.bit_generator.ISeedSequence):
    """The four 64-bit words a SeedSequence would hand to PCG64."""

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        """The stored words (PCG64 asks for 4 uint64)."""
        if n_words != 4 or np.dtype(dtype) != np.uint64:
            raise ValueError(f"only PCG64's generate_state(4, uint64) is precomputed, got "
                             f"({n_words}, {np.dtype(dtype)})")
        return self.words


def generators(pairs: Sequence[tuple[Any, Sequence[int]]]) -> list[np.random.Generator]:
    """``[Generator(PCG64(SeedSequence(entropy, spawn_key=key))) for entropy, key in pairs]``
    with the same streams, built with the SeedSequence hash vectorised. The generators have
    no SeedSequence of their own (``bit_generator.seed_seq`` cannot spawn): streams that
    spawn children must use NumPy's SeedSequence."""
    ents = [_entropy(e, k) for e, k in pairs]
    out: list[Any] = [None] * len(ents)
    by_len: dict[int, list[int]] = {}
    for i, e in enumerate(ents):
        by_len.setdefault(len(e), []).append(i)
    for idx in by_len.values():
        states = _hash(np.array([ents[i] for i in idx], dtype=np.uint32))
        for i, g in zip(idx, _seeded(states)):
            out[i] = g
    return out


def _seeded(states: np.ndarray) -> list[np.random.Generator]:
    """One PCG64 generator per row of (m, 4) uint64 seeding words. The cyclic garbage
    collector is paused while they are built: creating tens of thousands of tracked objects
    triggers its passes over every live object, which tripled the cost of building them (no
    cycle is created here, so nothing is left for it to collect)."""
    was = gc.isenabled()
    gc.disable()
    try:
        return [np.random.Generator(np.random.PCG64(_Words(s))) for s in states]
    finally:
        if was:
            gc.enable()


def generators_of(entropy: Any, keys: Any) -> list[np.random.Generator]:
    """``generators([(list(entropy[i]), list(keys[i])) for i in range(m)])`` with the entropy
    words built as array operations too: ``entropy`` is (m, k) and ``keys`` (m, j) non-negative
    integers below 2**64 (a 1-d ``entropy`` is one value per row: the same words as a list of
    one). In ``generators`` the per-pair word lists cost about 10 us a pair, five times the
    generator itself; here rows whose values have the same word counts (a value up to
    2**32 - 1 is one 32-bit word, a larger one two) are hashed together."""
    ent = np.asarray(entropy)
    key = np.asarray(keys)
    if ent.ndim == 1:
        ent = ent[:, None]
    if key.ndim == 1:
        key = key[:, None]
    if ent.ndim != 2 or key.ndim != 2 or ent.shape[0] != key.shape[0]:
        raise ValueError(f"entropy and keys must be (m, k) and (m, j) arrays with the same m, "
                         f"got shapes {np.shape(entropy)} and {np.shape(keys)}")
    if (ent.size and ent.min() < 0) or (key.size and key.min() < 0):
        raise ValueError("entropy and spawn keys must be non-negative integers")
    ent, key = ent.astype(np.uint64), key.astype(np.uint64)
    m, k = ent.shape
    j = key.shape[1]
    wide = np.concatenate([ent, key], axis=1) > np.uint64(_M32)     # two words, else one
    # rows grouped by their word-count pattern (one bit per column)
    code = wide.astype(np.int64) @ (np.int64(1) << np.arange(k + j, dtype=np.int64))
    out: list[Any] = [None] * m
    lo32 = np.uint64(_M32)
    for c in np.unique(code):
        idx = np.flatnonzero(code == c)
        pat = wide[idx[0]]
        cols: list[np.ndarray] = []
        for col in range(k + j):
            v = ent[idx, col] if col < k else key[idx, col - k]
            cols.append((v & lo32).astype(np.uint32))
            if pat[col]:
                cols.append((v >> np.uint64(32)).astype(np.uint32))
            if col == k - 1 and j and len(cols) < _POOL:     # the run entropy is padded
                cols += [np.zeros(idx.size, dtype=np.uint32)] * (_POOL - len(cols))
        for i, g in zip(idx.tolist(), _seeded(_hash(np.stack(cols, axis=1)))):
            out[i] = g
    return out
