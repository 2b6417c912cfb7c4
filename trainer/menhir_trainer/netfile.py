"""The network file (`.mhn`) of docs/network.md: writing it, and reading it back (for tests)."""

import os
import struct
from pathlib import Path

import numpy as np

from . import data
from .model import QA, QB

MAGIC = b"MENHIRNN"
VERSION = 1
FIXED = struct.Struct("<BBHBBhhhI")  # N, D, H, K, kind, QA, QB, SCALE, I


def encode(q, size, depth, scale, header, residual=False):
    """The file's bytes for quantised weights `q`; `header` is a dict of text-header lines;
    `residual`: the kind whose output the engine adds to its linear evaluation."""
    inputs, hidden = q["w1"].shape
    buckets = len(q["b2"])
    assert inputs == data.input_count(size, depth)
    assert hidden % 16 == 0 and hidden <= 512 and 1 <= buckets <= 8
    assert q["b1"].shape == (hidden,) and q["w2"].shape == (buckets, 2 * hidden)
    text = "".join(f"{key}: {value}\n" for key, value in header.items()).encode("utf-8")
    return b"".join([
        MAGIC, struct.pack("<HI", VERSION, len(text)), text,
        FIXED.pack(size, depth, hidden, buckets, int(residual), QA, QB, scale, inputs),
        q["w1"].astype("<i2").tobytes(), q["b1"].astype("<i2").tobytes(),
        q["w2"].astype("<i2").tobytes(), q["b2"].astype("<i4").tobytes(),
    ])


def write(path, q, size, depth, scale, header, residual=False):
    """Writes the file through a temporary name, so a failed export leaves no partial file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    tmp.write_bytes(encode(q, size, depth, scale, header, residual))
    os.replace(tmp, path)


def read(path):
    """(fields, header dict, quantised weights) of a network file; refuses any other length."""
    raw = Path(path).read_bytes()
    if raw[:8] != MAGIC:
        raise ValueError(f"{path}: bad magic")
    version, t = struct.unpack_from("<HI", raw, 8)
    if version != VERSION:
        raise ValueError(f"{path}: version {version}")
    text = raw[14:14 + t].decode("utf-8")
    header = dict(line.split(": ", 1) for line in text.splitlines())
    pos = 14 + t
    size, depth, hidden, buckets, kind, qa, qb, scale, inputs = FIXED.unpack_from(raw, pos)
    pos += FIXED.size
    fields = {"size": size, "depth": depth, "hidden": hidden, "buckets": buckets, "kind": kind,
              "qa": qa, "qb": qb, "scale": scale, "inputs": inputs}
    q = {}
    for name, dtype, count, shape in [
            ("w1", "<i2", inputs * hidden, (inputs, hidden)), ("b1", "<i2", hidden, (hidden,)),
            ("w2", "<i2", buckets * 2 * hidden, (buckets, 2 * hidden)),
            ("b2", "<i4", buckets, (buckets,))]:
        q[name] = np.frombuffer(raw, dtype, count, pos).reshape(shape)
        pos += q[name].nbytes
    if pos != len(raw):
        raise ValueError(f"{path}: {len(raw) - pos} bytes after the weights")
    return fields, header, q
