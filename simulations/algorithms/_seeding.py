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

from typing import Any, Sequence

import numpy as np

__all__ = ["generators"]

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
        for i, s in zip(idx, states):
            out[i] = np.random.Generator(np.random.PCG64(_Words(s)))
    return out
