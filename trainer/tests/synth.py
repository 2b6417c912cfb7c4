"""Hand-made and random `.mhd` records, written independently of the trainer's decoder (one
Python loop per position, straight from docs/network.md), so tests check one against the other."""

import numpy as np

from menhir_trainer import data


def make_record(size, stacks, stm=0, score=0, result=1, komi=4, ply=None):
    """One record. `stacks` maps a board index to its pieces from the top down: the top's code
    (1..6 as in the file) then the colour of each piece under it (0 White, 1 Black).
    Reserves are what the pieces on the board leave; the ply's parity is the side to move's
    (menhir convert-data checks both when it reads a record back)."""
    ply = 10 + stm if ply is None else ply
    stones, caps = data.PIECES[size]
    rec = np.zeros(1, data.record_dtype(size))[0]
    rec["score"], rec["result"], rec["stm"], rec["ply"], rec["komi"] = score, result, stm, ply, komi
    used = {(c, kind): 0 for c in (0, 1) for kind in ("stone", "cap")}
    bits = []
    for square in sorted(stacks):
        top, *under = stacks[square]
        rec["tops"][square] = top
        rec["heights"][square] = 1 + len(under)
        used[(int(top >= 4), "cap" if top in (3, 6) else "stone")] += 1
        for colour in under:
            used[(colour, "stone")] += 1
            bits.append(colour)
    rec["reserves"] = [stones - used[(0, "stone")], stones - used[(1, "stone")],
                       caps - used[(0, "cap")], caps - used[(1, "cap")]]
    assert min(rec["reserves"]) >= 0, "more pieces than the players have"
    for j, bit in enumerate(bits):
        rec["under"][j >> 3] |= bit << (j & 7)
    return rec


def random_stacks(size, rng):
    """A random position that respects the piece counts: stacks of random colours, walls and
    capstones only on top."""
    stones, caps = data.PIECES[size]
    s = size * size
    pieces = [0] * rng.integers(0, stones + 1) + [1] * rng.integers(0, stones + 1)
    rng.shuffle(pieces)
    if not pieces:
        return {}
    occupied = rng.integers(1, min(s, len(pieces)) + 1)
    cuts = np.sort(rng.choice(np.arange(1, len(pieces)), occupied - 1, replace=False))
    squares = rng.choice(s, occupied, replace=False)
    caps_left = [caps, caps]
    stacks = {}
    for square, stack in zip(squares, np.split(np.array(pieces), cuts)):
        colour = int(stack[-1])
        kind = 0
        if caps_left[colour] and rng.random() < 0.1:
            kind, caps_left[colour] = 2, caps_left[colour] - 1
        elif rng.random() < 0.15:
            kind = 1
        # The top is stack[-1]; a capstone top replaces the stone drawn for it.
        stacks[int(square)] = [1 + 3 * colour + kind] + [int(c) for c in stack[-2::-1]]
    return stacks


def random_records(size, count, rng, learnable=False):
    """`count` random records; with `learnable`, the score is 100 × White's flat lead (and the
    result follows it), something a network can fit."""
    records = np.zeros(count, data.record_dtype(size))
    for i in range(count):
        stacks = random_stacks(size, rng)
        if learnable:
            lead = sum((t == 1) - (t == 4) for t, *_ in stacks.values())
            score, result = int(np.clip(100 * lead, -10000, 10000)), int(np.sign(lead) + 1)
        else:
            score = int(rng.choice([-10000, 10000])) if rng.random() < 0.05 else \
                int(rng.integers(-2000, 2001))
            result = int(rng.integers(0, 3))
        stm = int(rng.integers(0, 2))
        records[i] = make_record(size, stacks, stm=stm, score=score, result=result, komi=4,
                                 ply=2 * int(rng.integers(0, 100)) + stm)
    return records


def slow_features(rec, colour, size, depth):
    """The active inputs of one view, one square at a time, for comparison with the
    vectorised builder."""
    stones, caps = data.PIECES[size]
    width = 6 + 2 * depth
    bits = [(rec["under"][j >> 3] >> (j & 7)) & 1 for j in range(8 * len(rec["under"]))]
    j = 0
    active = []
    for s in range(size * size):
        top, height = int(rec["tops"][s]), int(rec["heights"][s])
        if top:
            own = (top >= 4) == (colour == 1)
            active.append(s * width + (top - 1) % 3 + (0 if own else 3))
        for d in range(height - 1):
            if d < depth:
                active.append(s * width + 6 + 2 * d + (0 if bits[j + d] == colour else 1))
        j += max(height - 1, 0)
    res = [int(x) for x in rec["reserves"]]
    own_st, opp_st = (res[0], res[1]) if colour == 0 else (res[1], res[0])
    own_cap, opp_cap = (res[2], res[3]) if colour == 0 else (res[3], res[2])
    base = size * size * width
    active += [base + own_st, base + stones + 1 + opp_st, base + 2 * (stones + 1) + own_cap,
               base + 2 * (stones + 1) + caps + 1 + opp_cap]
    return sorted(active)
