"""The two-perspective network of docs/network.md, its quantisation, and two numpy inferences
(float64 and the engine's integer one) that the reference command compares."""

import numpy as np
import torch
from torch import nn

from . import data

QA = 255
QB = 512
W1_LIMIT = 1.0  # |W1|, |b1| ≤ 1: QA·(1 + the most active inputs) stays within i16
W2_LIMIT = 127 / 64  # |W2| ≤ 127/64: the i32 output sum stays far from overflow at any width


class Network(nn.Module):
    """a_c = b1 + Σ W1[i]; h = [crelu(a_stm), crelu(a_other)]; y = b2[k] + W2[k]·h.

    Both views share W1 and b1: the accumulators of a batch are one product of a sparse 0/1
    input matrix [2B, I] with W1 (torch.sparse.mm; its backward is about 2.5 times faster on
    CPU than nn.EmbeddingBag's). The output is y in network units, eval = y · SCALE."""

    def __init__(self, inputs, hidden, buckets):
        super().__init__()
        self.w1 = nn.Parameter(torch.empty(inputs, hidden))
        self.b1 = nn.Parameter(torch.empty(hidden))
        self.out = nn.Linear(2 * hidden, buckets)
        with torch.no_grad():
            # About 40 inputs are active: start each accumulator near the middle of crelu.
            self.w1.normal_(0.0, 0.05)
            self.b1.uniform_(0.25, 0.75)
            self.out.weight.uniform_(-0.1, 0.1)
            self.out.bias.zero_()

    def forward(self, x, bucket):
        """x: the sparse inputs, the B side-to-move views' rows first, then the B others'."""
        acc = torch.clamp(torch.sparse.mm(x, self.w1) + self.b1, 0.0, 1.0)
        half = len(bucket)
        h = torch.cat([acc[:half], acc[half:]], dim=1)
        return self.out(h).gather(1, bucket[:, None]).squeeze(1)

    @torch.no_grad()
    def clip(self):
        """Keeps every weight quantisable without overflow (docs/network.md)."""
        self.w1.clamp_(-W1_LIMIT, W1_LIMIT)
        self.b1.clamp_(-W1_LIMIT, W1_LIMIT)
        self.out.weight.clamp_(-W2_LIMIT, W2_LIMIT)

    def float_weights(self):
        """W1 [I, H], b1 [H], W2 [K, 2H], b2 [K] as float64 numpy arrays."""
        return {
            "w1": self.w1.detach().double().numpy().copy(),
            "b1": self.b1.detach().double().numpy().copy(),
            "w2": self.out.weight.detach().double().numpy().copy(),
            "b2": self.out.bias.detach().double().numpy().copy(),
        }


def batch_inputs(planes, stm, size, depth, bucket_count):
    """Torch inputs of `Network.forward`: the sparse matrix of both views, and the buckets."""
    rows, white, black = data.views(planes, size, depth)
    black_to_move = np.asarray(stm)[rows] == 1
    count = len(stm)
    coordinates = np.stack([np.concatenate([rows, rows + count]),
                            np.concatenate([np.where(black_to_move, black, white),
                                            np.where(black_to_move, white, black)])])
    x = torch.sparse_coo_tensor(torch.from_numpy(coordinates),
                                torch.ones(coordinates.shape[1]),
                                (2 * count, data.input_count(size, depth)), is_coalesced=True,
                                check_invariants=False)
    bucket = data.buckets(planes, size, bucket_count)
    return x, torch.from_numpy(bucket)


def quantise(weights):
    """W1, b1 × QA and W2 × QB as i16, b2 × QA·QB as i32, rounded to nearest (ties to even,
    numpy's rint); the clipping bounds are asserted, not assumed."""
    q = {
        "w1": np.rint(weights["w1"] * QA),
        "b1": np.rint(weights["b1"] * QA),
        "w2": np.rint(weights["w2"] * QB),
        "b2": np.rint(weights["b2"] * QA * QB),
    }
    assert np.abs(q["w1"]).max(initial=0) <= QA and np.abs(q["b1"]).max(initial=0) <= QA
    assert np.abs(q["w2"]).max(initial=0) <= round(W2_LIMIT * QB)
    assert np.abs(q["b2"]).max(initial=0) < 2**31
    return {"w1": q["w1"].astype(np.int16), "b1": q["b1"].astype(np.int16),
            "w2": q["w2"].astype(np.int16), "b2": q["b2"].astype(np.int32)}


def dense_inputs(planes, colour, size, depth):
    """The view of `colour` as a 0/1 matrix [B, I] (small batches: the reference command)."""
    rows, index = data.features(planes, colour, size, depth)
    x = np.zeros((len(colour), data.input_count(size, depth)), np.int64)
    x[rows, index] = 1
    return x


def float_eval(weights, planes, stm, size, depth, scale):
    """The float network's eval in centi-flats, side to move's view, in float64."""
    k = data.buckets(planes, size, len(weights["b2"]))
    halves = []
    for colour in (stm, 1 - stm):
        acc = dense_inputs(planes, colour, size, depth) @ weights["w1"] + weights["b1"]
        halves.append(np.clip(acc, 0.0, 1.0))
    h = np.concatenate(halves, axis=1)
    y = weights["b2"][k] + np.einsum("bj,bj->b", h, weights["w2"][k])
    return y * scale


def integer_eval(q, planes, stm, size, depth, scale):
    """The engine's integer inference: acc = b1 + Σ W1 in i16, h = clamp(acc, 0, QA),
    out = b2[k] + Σ h·W2[k] in i32, eval = out · SCALE / (QA·QB) with the division
    truncating toward zero (computed in int64, with the i16/i32 ranges asserted)."""
    k = data.buckets(planes, size, len(q["b2"]))
    halves = []
    for colour in (stm, 1 - stm):
        acc = dense_inputs(planes, colour, size, depth) @ q["w1"].astype(np.int64)
        acc = acc + q["b1"].astype(np.int64)
        assert acc.min(initial=0) >= -32768 and acc.max(initial=0) <= 32767
        halves.append(np.clip(acc, 0, QA))
    h = np.concatenate(halves, axis=1)
    out = q["b2"].astype(np.int64)[k] + np.einsum("bj,bj->b", h, q["w2"].astype(np.int64)[k])
    assert out.min(initial=0) >= -2**31 and out.max(initial=0) < 2**31
    product = out * scale
    return np.sign(product) * (np.abs(product) // (QA * QB))
