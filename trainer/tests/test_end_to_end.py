"""The commands as a user runs them: train on synthetic data, export, reference."""

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

from menhir_trainer import data, netfile

from .synth import random_records

TRAIN = Path(__file__).resolve().parents[1] / "train.py"


def run(*args):
    return subprocess.run([sys.executable, str(TRAIN), *map(str, args)], capture_output=True,
                          text=True, timeout=600)


class EndToEndTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        tmp = Path(cls.dir.name)
        cls.tmp = tmp
        rng = np.random.default_rng(7)
        cls.files = [tmp / "a.mhd", tmp / "b.mhd"]
        data.write_data(cls.files[0], 5, random_records(5, 1500, rng, learnable=True))
        data.write_data(cls.files[1], 5, random_records(5, 500, rng, learnable=True))
        cls.train = run("train", *cls.files, "--size", 5, "--out", tmp / "net.mhn",
                        "--hidden", 16, "--depth", 2, "--buckets", 2, "--epochs", 4,
                        "--batch", 128, "--lr", 0.01, "--k", 200, "--validation", 0.2,
                        "--checkpoint", tmp / "run.pt", "--augment")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_train_lowers_the_loss_and_exports(self):
        self.assertEqual(self.train.returncode, 0, self.train.stderr)
        epochs = [line for line in self.train.stderr.splitlines() if line.startswith("epoch")]
        self.assertEqual(len(epochs), 4)
        validation = [float(line.split("validation loss ")[1].split(",")[0]) for line in epochs]
        self.assertLess(validation[-1], validation[0])
        fields, header, _ = netfile.read(self.tmp / "net.mhn")
        self.assertEqual((fields["size"], fields["depth"], fields["hidden"], fields["buckets"]),
                         (5, 2, 16, 2))
        self.assertEqual(header["komi"], "2")
        self.assertIn("a.mhd (1500 records)", header["data"])
        self.assertIn("b.mhd (500 records)", header["data"])
        self.assertIn("--augment", header["command"])

    def test_export_matches_the_file_train_wrote(self):
        out = self.tmp / "again.mhn"
        result = run("export", self.tmp / "run.pt", "--out", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        _, _, q1 = netfile.read(out)
        _, _, q2 = netfile.read(self.tmp / "net.mhn")
        for name in q1:
            np.testing.assert_array_equal(q1[name], q2[name])

    def test_resume_continues_the_epochs(self):
        result = run("train", *self.files, "--size", 5, "--out", self.tmp / "more.mhn",
                     "--epochs", 5, "--batch", 128, "--k", 200, "--validation", 0.2,
                     "--resume", self.tmp / "run.pt")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("epoch 5/5", result.stderr)
        self.assertNotIn("epoch 4/5", result.stderr)
        fields, _, _ = netfile.read(self.tmp / "more.mhn")
        self.assertEqual(fields["hidden"], 16)

    def test_reference_writes_positions_and_evals(self):
        positions, expected = self.tmp / "p.mhd", self.tmp / "e.txt"
        result = run("reference", self.tmp / "run.pt", self.files[0], "--count", 20, "--spread",
                     "--out-positions", positions, "--out-expected", expected)
        self.assertEqual(result.returncode, 0, result.stderr)
        records = data.open_data(positions, 5)
        source = data.open_data(self.files[0], 5)
        self.assertEqual(len(records), 20)
        self.assertEqual(records[0].tobytes(), source[0].tobytes())
        self.assertEqual(records[-1].tobytes(), source[-1].tobytes())
        lines = expected.read_text().splitlines()
        self.assertTrue(lines[0].startswith("# max_abs_error_integer_vs_float: "))
        self.assertEqual(len(lines), 21)
        self.assertGreaterEqual(float(lines[0].split(": ")[1]), 0.0)
        [float(line) for line in lines[1:]]

    def test_bad_file_exits_with_one_line(self):
        bad = self.tmp / "bad.mhd"
        bad.write_bytes(self.files[0].read_bytes()[:-5])
        result = run("train", bad, "--size", 5, "--out", self.tmp / "x.mhn", "--k", 200)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertIn("truncated", result.stderr)


if __name__ == "__main__":
    unittest.main()
