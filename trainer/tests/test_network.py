"""The network, its quantisation, the network file, and the float/integer inferences."""

import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

from menhir_trainer import cli, data, model, netfile

from .synth import random_records

torch.set_num_threads(1)

CONFIG = {"size": 5, "hidden": 32, "depth": 3, "buckets": 3, "scale": 400}


def random_network(seed):
    """A network with weights spread over the clipping range, clipped as training leaves it."""
    torch.manual_seed(seed)
    net = cli.build_network(CONFIG)
    with torch.no_grad():
        net.w1.normal_(0.0, 0.3)
        net.b1.uniform_(-0.5, 1.2)
        net.out.weight.normal_(0.0, 1.0)
        net.out.bias.normal_(0.0, 0.5)
    net.clip()
    return net


def state_of(net):
    return {"format": cli.CHECKPOINT_FORMAT, "config": CONFIG, "k": 200.0, "lambda": 0.5,
            "model": net.state_dict(), "epoch": 1, "data": [["a.mhd", 10]], "komi": [3, 4],
            "command": "train.py train a.mhd", "loss": [0.05, 0.06]}


class NetworkFileTest(unittest.TestCase):
    def test_export_reads_back_the_quantised_weights(self):
        net = random_network(1)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "net.mhn"
            cli.write_network(state_of(net), path)
            fields, header, q = netfile.read(path)
            size = path.stat().st_size
        expected = model.quantise(net.float_weights())
        for name in ("w1", "b1", "w2", "b2"):
            np.testing.assert_array_equal(q[name], expected[name], name)
        inputs = data.input_count(5, 3)
        self.assertEqual(fields, {"size": 5, "depth": 3, "hidden": 32, "buckets": 3, "kind": 0,
                                  "qa": 255, "qb": 512, "scale": 400, "inputs": inputs})
        text = len("".join(f"{k}: {v}\n" for k, v in header.items()).encode())
        self.assertEqual(size, 14 + text + 16 + 2 * inputs * 32 + 2 * 32 + 2 * 3 * 64 + 4 * 3)
        for key in ("architecture", "quantisation", "komi", "data", "command", "date", "loss"):
            self.assertIn(key, header)
        self.assertEqual(header["architecture"],
                         f"crelu, inputs {inputs}, hidden 32 x2, depth 3, buckets 3")
        self.assertEqual(header["quantisation"], "QA 255, QB 512, scale 400")
        self.assertEqual(header["komi"], "1.5, 2")
        self.assertEqual(header["data"], "a.mhd (10 records)")

    def test_quantisation_rounds_and_respects_the_bounds(self):
        q = model.quantise({"w1": np.array([[1.0, -1.0, 0.4 / 255, 0.6 / 255]]),
                            "b1": np.array([0.25]), "w2": np.array([[127 / 64, -0.01]]),
                            "b2": np.array([-1.5])})
        self.assertEqual(q["w1"].tolist(), [[255, -255, 0, 1]])
        self.assertEqual(q["b1"].tolist(), [64])
        self.assertEqual(q["w2"].tolist(), [[1016, -5]])
        self.assertEqual(q["b2"].tolist(), [-195840])
        self.assertEqual(q["w1"].dtype, np.int16)
        self.assertEqual(q["b2"].dtype, np.int32)

    def test_clipping_bounds_keep_the_accumulator_in_i16(self):
        for size in range(3, 9):
            for depth in (0, 6, 30):
                self.assertLessEqual(model.QA * (1 + data.max_active(size, depth)), 32767)


class InferenceTest(unittest.TestCase):
    def test_float64_inference_matches_torch_and_integer_is_close(self):
        net = random_network(2)
        records = random_records(5, 200, np.random.default_rng(3))
        planes = data.decode(records)
        stm = records["stm"].astype(np.int64)
        with torch.no_grad():
            y = net(*model.batch_inputs(planes, stm, 5, CONFIG["depth"], CONFIG["buckets"]))
        weights = net.float_weights()
        floats = model.float_eval(weights, planes, stm, 5, CONFIG["depth"], CONFIG["scale"])
        np.testing.assert_allclose(floats, y.double().numpy() * CONFIG["scale"], atol=1e-2)
        integers = model.integer_eval(model.quantise(weights), planes, stm, 5, CONFIG["depth"],
                                      CONFIG["scale"])
        self.assertTrue(np.all(integers == np.round(integers)))
        # Worst case: each of the n active W1 and b1 off by 0.5/QA moves a unit's h by at most
        # (n + 1)·0.5/QA; each W2 is off by at most 0.5/QB, b2 by 0.5/(QA·QB); truncation 1.
        q = model.quantise(weights)
        k = data.buckets(planes, 5, CONFIG["buckets"])
        w2 = np.abs(q["w2"][k] / model.QB)
        dh = []
        for colour in (stm, 1 - stm):
            rows, _ = data.features(planes, colour, 5, CONFIG["depth"])
            dh.append((np.bincount(rows, minlength=len(stm)) + 1) * 0.5 / model.QA)
        half = CONFIG["hidden"]
        bound = (w2[:, :half].sum(1) * dh[0] + w2[:, half:].sum(1) * dh[1]
                 + 2 * half * 0.5 / model.QB + 0.5 / (model.QA * model.QB)) * CONFIG["scale"] + 1
        self.assertTrue(np.all(np.abs(floats - integers) <= bound))
        self.assertGreater(np.abs(floats - integers).max(), 0)

    def test_sparse_gradient_matches_a_dense_product(self):
        net = random_network(4)
        records = random_records(5, 50, np.random.default_rng(4))
        planes = data.decode(records)
        stm = records["stm"].astype(np.int64)
        x, bucket = model.batch_inputs(planes, stm, 5, CONFIG["depth"], CONFIG["buckets"])
        net(x, bucket).square().sum().backward()
        sparse_grad = net.w1.grad.clone()
        net.w1.grad = None
        dense = torch.clamp(x.to_dense() @ net.w1 + net.b1, 0.0, 1.0)
        h = torch.cat([dense[:50], dense[50:]], dim=1)
        net.out(h).gather(1, bucket[:, None]).square().sum().backward()
        torch.testing.assert_close(sparse_grad, net.w1.grad)

    def test_integer_division_truncates_toward_zero(self):
        q = {"w1": np.zeros((data.input_count(3, 0), 16), np.int16),
             "b1": np.zeros(16, np.int16), "w2": np.zeros((1, 32), np.int16),
             "b2": np.array([-800], np.int32)}
        rec = random_records(3, 1, np.random.default_rng(0))
        planes = data.decode(rec)
        # -800 · 400 / (255 · 512) = -2.45 -> -2
        self.assertEqual(model.integer_eval(q, planes, np.array([0]), 3, 0, 400).tolist(), [-2])


if __name__ == "__main__":
    unittest.main()
