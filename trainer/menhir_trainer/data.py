"""Menhir's binary training data (`.mhd`) and the network inputs built from it.

Everything follows docs/network.md byte for byte. Records are read through numpy memory maps
with one structured dtype, and every step from a batch of records to the input indices is
vectorised over the batch: the trainer spends its time in the network, not in Python loops.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

MAGIC = b"MENHIRDB"
VERSION = 1
HEADER_BYTES = 16

# Stones and capstones each player starts with (src/core/position.rs, starting_reserves).
PIECES = {3: (10, 0), 4: (15, 0), 5: (21, 1), 6: (30, 1), 7: (40, 2), 8: (50, 2)}


class DataError(Exception):
    """A data file the trainer refuses; its message is the one line the user sees."""


def colour_bytes(size):
    """B = ceil(P / 8), P = both players' pieces: room for every piece that can lie under a top."""
    stones, caps = PIECES[size]
    return (2 * (stones + caps) + 7) // 8


def record_length(size):
    """R = 14 + 2·N² + B."""
    return 14 + 2 * size * size + colour_bytes(size)


def record_dtype(size):
    """One record as a numpy structured dtype (packed, little-endian: itemsize == R)."""
    s = size * size
    dtype = np.dtype([
        ("score", "<i2"), ("result", "u1"), ("stm", "u1"), ("ply", "<u2"), ("komi", "i1"),
        ("zero", "u1"),
        # White stones, Black stones, White capstones, Black capstones in reserve.
        ("reserves", "u1", (4,)),
        # The writing build's linear evaluation, side to move's view (what a residual corrects).
        ("linear", "<i2"),
        ("tops", "u1", (s,)), ("heights", "u1", (s,)), ("under", "u1", (colour_bytes(size),)),
    ])
    assert dtype.itemsize == record_length(size)
    return dtype


def header_bytes(size):
    """The 16-byte file header for `size`."""
    return (MAGIC + np.array([VERSION], "<u2").tobytes() + bytes([size, 0])
            + np.array([record_length(size)], "<u4").tobytes())


def open_data(path, size):
    """Memory-maps the records of one `.mhd` file, refusing any file that is not `size`'s."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_BYTES)
        length = path.stat().st_size
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror}") from None
    if len(head) < HEADER_BYTES or head[:8] != MAGIC:
        raise DataError(f"{path}: not Menhir binary data (bad magic)")
    version = int.from_bytes(head[8:10], "little")
    if version != VERSION:
        raise DataError(f"{path}: data version {version}, this trainer reads version {VERSION}")
    if head[10] != size:
        raise DataError(f"{path}: data for size {head[10]}, not --size {size}")
    r = int.from_bytes(head[12:16], "little")
    if r != record_length(size):
        raise DataError(f"{path}: record length {r}, size {size} needs {record_length(size)}")
    if (length - HEADER_BYTES) % r:
        raise DataError(f"{path}: length {length} is not 16 + a multiple of {r} (truncated)")
    count = (length - HEADER_BYTES) // r
    if count == 0:
        return np.zeros(0, record_dtype(size))
    return np.memmap(path, record_dtype(size), "r", HEADER_BYTES, (count,))


def write_data(path, size, records):
    """Writes records (an array of `record_dtype(size)`) as a `.mhd` file."""
    with open(path, "wb") as f:
        f.write(header_bytes(size))
        f.write(np.ascontiguousarray(records, record_dtype(size)).tobytes())


class Dataset:
    """Several memory-mapped files seen as one array of records."""

    def __init__(self, paths, size):
        self.size = size
        self.paths = [str(p) for p in paths]
        self.files = [open_data(p, size) for p in paths]
        self.counts = [len(f) for f in self.files]
        self.starts = np.concatenate([[0], np.cumsum(self.counts)]).astype(np.int64)

    def __len__(self):
        return int(self.starts[-1])

    def komis(self):
        """The komis (in half flats) found in the data, sorted."""
        found = set()
        for f in self.files:
            if len(f):
                found.update(np.unique(f["komi"]).tolist())
        return sorted(found)

    def gather(self, index):
        """The records at global indices `index` (sorted first: each file is read in order)."""
        index = np.sort(np.asarray(index, np.int64))
        which = np.searchsorted(self.starts, index, "right") - 1
        parts = []
        for f in np.unique(which):
            parts.append(self.files[f][index[which == f] - self.starts[f]])
        return np.concatenate(parts) if parts else np.zeros(0, record_dtype(self.size))


@dataclass
class Planes:
    """A batch of positions decoded per square, so a board symmetry is one permutation of
    axis 1: tops, heights and first_bit are [B, S]; first_bit[b, s] is where square s's
    colour bits (the pieces under its top, from the top down; 1 = Black) start in bits[b].
    The bits run square by square in board-index order, so each square's start is found
    before anything permutes squares. reserves [B, 4] as in the file."""

    tops: np.ndarray
    heights: np.ndarray
    first_bit: np.ndarray
    bits: np.ndarray
    reserves: np.ndarray

    def permuted(self, perm):
        """The same positions with square s holding what square perm[s] held."""
        return Planes(self.tops[:, perm], self.heights[:, perm], self.first_bit[:, perm],
                      self.bits, self.reserves)


def decode(records):
    """Planes of a batch of records."""
    heights = records["heights"].astype(np.int32)
    below = np.maximum(heights - 1, 0)
    return Planes(records["tops"].astype(np.int32), heights, np.cumsum(below, axis=1) - below,
                  np.unpackbits(records["under"], axis=1, bitorder="little"),
                  records["reserves"].astype(np.int32))


def symmetries(size):
    """The 8 symmetries of the square board as permutations of board indices (0 = identity):
    flip the file, flip the rank, swap rank and file, in every combination."""
    rank, file = np.divmod(np.arange(size * size), size)
    perms = []
    for t in range(8):
        r = size - 1 - rank if t & 2 else rank
        f = size - 1 - file if t & 1 else file
        if t & 4:
            r, f = f, r
        perms.append(r * size + f)
    return perms


def input_count(size, depth):
    """I = S·F + 2(stones + 1) + 2(caps + 1), F = 6 + 2·D."""
    stones, caps = PIECES[size]
    return size * size * (6 + 2 * depth) + 2 * (stones + 1) + 2 * (caps + 1)


def max_active(size, depth):
    """The most inputs one view can have active: a top or an under-piece input per piece on
    the board (at most every piece, and at most 1 + D per square), plus the 4 reserve inputs."""
    stones, caps = PIECES[size]
    return min(2 * (stones + caps), size * size * (1 + depth)) + 4


def views(planes, size, depth):
    """The active inputs of both views of each position, as (rows, white, black): position
    b's inputs in the view of White are white[rows == b], in the view of Black black[rows ==
    b]. Rows ascend and each row's inputs ascend in both views (the coalesced coordinates of
    a sparse [B, I] input matrix). One pass finds the active slots (a top, or a piece under it
    within D, per square; 4 reserve inputs per position); only those slots are then looked at.
    """
    stones, caps = PIECES[size]
    count, s = planes.tops.shape
    slots = 1 + depth
    width = 6 + 2 * depth
    board = np.arange(slots) < np.minimum(planes.heights, slots)[:, :, None]
    active = np.concatenate([board.reshape(count, -1), np.ones((count, 4), bool)], axis=1)
    rows, columns = np.nonzero(active)

    on_board = columns < s * slots
    r = rows[on_board]
    square, d = np.divmod(columns[on_board], slots)
    top = planes.tops[r, square]
    black_top = top >= 4
    # The colour of the (d-1)-th piece under the top, for d ≥ 1 (clamped: d = 0 reads a bit
    # that np.where drops).
    where = np.clip(planes.first_bit[r, square] + d - 1, 0, planes.bits.shape[1] - 1)
    black_under = planes.bits[r, where].astype(np.int32)
    is_top = d == 0
    base = square * width + np.where(is_top, (top - 1) % 3, 6 + 2 * (d - 1))
    white_board = base + np.where(is_top, 3 * black_top, black_under)
    black_board = base + np.where(is_top, 3 * ~black_top, 1 - black_under)

    res = planes.reserves
    if (res[:, :2] > stones).any() or (res[:, 2:] > caps).any():
        # Such an input would index past W1 (the sparse product does not check).
        raise DataError(f"a record holds more pieces in reserve than {size}x{size} has")
    r0 = s * width
    blocks = r0 + np.array([0, stones + 1, 2 * (stones + 1), 2 * (stones + 1) + caps + 1])
    white_res = blocks + res  # own stones, opponent's, own capstones, opponent's
    black_res = blocks + res[:, [1, 0, 3, 2]]

    white = np.empty(len(rows), np.int64)
    black = np.empty(len(rows), np.int64)
    white[on_board], black[on_board] = white_board, black_board
    white[~on_board], black[~on_board] = white_res.reshape(-1), black_res.reshape(-1)
    return rows, white, black


def features(planes, colour, size, depth):
    """The active inputs of the view of `colour` ([B], 0 White, 1 Black) as (rows, index):
    position b's inputs are index[rows == b], ascending."""
    rows, white, black = views(planes, size, depth)
    return rows, np.where(np.asarray(colour)[rows] == 1, black, white)


def buckets(planes, size, count):
    """Output bucket k = ⌊L·K / (stones + caps + 1)⌋, L = the placements left: the least of
    White's reserve, Black's reserve (stones and capstones) and the empty squares."""
    stones, caps = PIECES[size]
    res = planes.reserves
    empty = (planes.tops == 0).sum(axis=1)
    left = np.minimum(np.minimum(res[:, 0] + res[:, 2], res[:, 1] + res[:, 3]), empty)
    return left * count // (stones + caps + 1)


def targets(records, k, lam):
    """λ·result + (1 − λ)·sigmoid(score / K), both turned to the side to move's view."""
    white_to_move = records["stm"] == 0
    score = records["score"].astype(np.float64)
    score = np.where(white_to_move, score, -score)
    result = records["result"].astype(np.float64) / 2
    result = np.where(white_to_move, result, 1 - result)
    return lam * result + (1 - lam) / (1 + np.exp(-score / k))


def read_scale(size, weights_dir=None):
    """K: the `scale` line of weights/eval-NxN.txt (the size's fitted sigmoid scale)."""
    if weights_dir is None:
        weights_dir = Path(__file__).resolve().parents[2] / "weights"
    path = Path(weights_dir) / f"eval-{size}x{size}.txt"
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        raise DataError(f"{path}: cannot read: {e.strerror}; pass --k") from None
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and parts[0] == "scale":
            return float(parts[1])
    raise DataError(f"{path}: no `scale` line; pass --k")
