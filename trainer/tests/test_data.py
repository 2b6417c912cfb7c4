"""The data format, the input builder and the board symmetries."""

import contextlib
import io
import tempfile
import unittest
from pathlib import Path

import numpy as np

from menhir_trainer import cli, data

from .synth import make_record, random_records, slow_features

# 6×6: a1 a Black wall; c2 (index 8) a White capstone on Black on White; f6 (35) a White flat
# on Black. Black to move.
HAND = {0: [5], 8: [3, 1, 0], 35: [1, 1]}


def hand_planes():
    rec = np.array([make_record(6, HAND, stm=1)])
    return rec, data.decode(rec)


class RecordTest(unittest.TestCase):
    def test_record_lengths_match_the_spec(self):
        expected = {3: 35, 4: 50, 5: 70, 6: 94, 7: 123, 8: 155}
        self.assertEqual({n: data.record_length(n) for n in expected}, expected)
        self.assertEqual(data.input_count(6, 6), 36 * 18 + 2 * 31 + 2 * 2)

    def test_hand_record_bytes(self):
        rec, _ = hand_planes()
        raw = rec.tobytes()
        self.assertEqual(len(raw), 94)
        self.assertEqual(list(raw[8:12]), [28, 27, 0, 1])  # reserves
        self.assertEqual(raw[14 + 8], 3)  # top of c2
        self.assertEqual(raw[14 + 36 + 8], 3)  # height of c2
        self.assertEqual(raw[14 + 72], 0b101)  # c2: Black, White; f6: Black


class FeatureTest(unittest.TestCase):
    def test_hand_record_white_view(self):
        _, planes = hand_planes()
        rows, index = data.features(planes, np.array([0]), 6, 6)
        self.assertEqual(rows.tolist(), [0] * 10)
        # a1 opponent wall; c2 own capstone, opponent under it, own under that; f6 own flat
        # with an opponent under it; reserves: own 28 stones, opponent 27, own 0 caps, opp 1.
        self.assertEqual(sorted(index.tolist()),
                         [4, 146, 151, 152, 630, 637, 648 + 28, 648 + 31 + 27, 648 + 62 + 0,
                          648 + 62 + 2 + 1])

    def test_hand_record_black_view(self):
        _, planes = hand_planes()
        _, index = data.features(planes, np.array([1]), 6, 6)
        self.assertEqual(sorted(index.tolist()),
                         [1, 149, 150, 153, 633, 636, 648 + 27, 648 + 31 + 28, 648 + 62 + 1,
                          648 + 62 + 2 + 0])

    def test_depth_drops_deeper_pieces(self):
        _, planes = hand_planes()  # depth 1: F = 8
        _, index = data.features(planes, np.array([0]), 6, 1)
        base = 36 * 8
        self.assertEqual(sorted(index.tolist()),
                         [4, 66, 71, 280, 287, base + 28, base + 31 + 27, base + 62,
                          base + 62 + 2 + 1])

    def test_hand_record_bucket_and_target(self):
        rec, planes = hand_planes()
        # Placements left: min(28 + 0, 27 + 1, 33 empty) = 28; 28 · 4 // 32 = 3.
        self.assertEqual(data.buckets(planes, 6, 4).tolist(), [3])
        self.assertEqual(data.buckets(planes, 6, 1).tolist(), [0])
        rec["score"], rec["result"] = 0, 2  # White won; Black to move
        self.assertAlmostEqual(data.targets(rec, 250.0, 0.5)[0], 0.25)
        rec["stm"] = 0
        self.assertAlmostEqual(data.targets(rec, 250.0, 0.5)[0], 0.75)

    def test_impossible_reserves_are_refused(self):
        rec, _ = hand_planes()
        rec["reserves"][0][0] = 31
        with self.assertRaises(data.DataError):
            data.features(data.decode(rec), np.array([0]), 6, 6)

    def test_random_records_match_the_slow_builder(self):
        rng = np.random.default_rng(5)
        for size, depth in [(3, 2), (5, 6), (6, 6), (8, 3)]:
            records = random_records(size, 60, rng)
            planes = data.decode(records)
            for colour in (0, 1):
                view = np.full(len(records), colour)
                rows, index = data.features(planes, view, size, depth)
                self.assertTrue(np.all(np.diff(rows) >= 0))
                for b, rec in enumerate(records):
                    got = index[rows == b].tolist()
                    self.assertEqual(got, sorted(set(got)))  # ascending: coalesced
                    self.assertEqual(got, slow_features(rec, colour, size, depth))
                    self.assertLessEqual(len(got), data.max_active(size, depth))
            self.assertLess(index.max(), data.input_count(size, depth))


class SymmetryTest(unittest.TestCase):
    def test_identity_and_permutations(self):
        for size in range(3, 9):
            perms = data.symmetries(size)
            self.assertEqual(perms[0].tolist(), list(range(size * size)))
            self.assertEqual(len({p.tobytes() for p in perms}), 8)
            for p in perms:
                self.assertEqual(sorted(p.tolist()), list(range(size * size)))
                for q in perms:  # a group: closed under composition
                    self.assertIn(p[q].tobytes(), {r.tobytes() for r in perms})

    def test_symmetry_moves_the_inputs_with_their_squares(self):
        size, depth = 5, 4
        width = 6 + 2 * depth
        records = random_records(size, 40, np.random.default_rng(9))
        planes = data.decode(records)
        stm = records["stm"].astype(np.int64)
        base_rows, base = data.features(planes, stm, size, depth)
        same = planes.permuted(data.symmetries(size)[0])
        for name in ("tops", "heights", "first_bit", "bits", "reserves"):
            np.testing.assert_array_equal(getattr(same, name), getattr(planes, name))
        for perm in data.symmetries(size):
            moved = planes.permuted(perm)
            np.testing.assert_array_equal(data.buckets(moved, size, 4),
                                          data.buckets(planes, size, 4))
            rows, index = data.features(moved, stm, size, depth)
            np.testing.assert_array_equal(rows, base_rows)
            inverse = np.argsort(perm)
            square, rest = np.divmod(base, width)
            board = base < size * size * width
            expected = np.where(board, inverse[np.minimum(square, size * size - 1)] * width
                                + rest, base)
            for b in range(len(records)):
                self.assertEqual(index[rows == b].tolist(), sorted(expected[rows == b].tolist()))

    def test_rotation_of_a_corner(self):
        # Swapping rank and file with both flips maps a1 to the far corner.
        perms = data.symmetries(6)
        self.assertEqual({int(np.argsort(p)[0]) for p in perms}, {0, 5, 30, 35})


class FileTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = Path(self.dir.name)
        self.good = self.path / "good.mhd"
        data.write_data(self.good, 6, random_records(6, 5, np.random.default_rng(1)))

    def tearDown(self):
        self.dir.cleanup()

    def variant(self, name, mutate):
        raw = bytearray(self.good.read_bytes())
        raw = mutate(raw)
        path = self.path / name
        path.write_bytes(bytes(raw))
        return path

    def test_good_file_reads(self):
        records = data.open_data(self.good, 6)
        self.assertEqual(len(records), 5)
        self.assertEqual(data.Dataset([self.good, self.good], 6).komis(), [4])

    def test_bad_files_are_refused_with_one_line(self):
        def set_byte(i, v):
            def f(raw):
                raw[i] = v
                return raw
            return f
        cases = {
            "magic": (set_byte(0, ord("X")), "bad magic"),
            "version": (set_byte(8, 2), "version 2"),
            "size": (None, "not --size 5"),
            "length": (set_byte(12, 91), "record length 91"),
            "truncated": (lambda raw: raw[:-1], "truncated"),
            "empty": (lambda raw: raw[:3], "bad magic"),
        }
        for name, (mutate, message) in cases.items():
            path = self.good if mutate is None else self.variant(name, mutate)
            size = 5 if name == "size" else 6
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                status = cli.main(["train", str(path), "--size", str(size), "--out",
                                   str(self.path / "x.mhn"), "--k", "250"])
            self.assertEqual(status, 1, name)
            lines = err.getvalue().splitlines()
            self.assertEqual(len(lines), 1, lines)
            self.assertIn(message, lines[0])
            self.assertTrue(lines[0].startswith("error: "))
            self.assertFalse((self.path / "x.mhn").exists())

    def test_scale_is_read_from_the_weights_file(self):
        self.assertGreater(data.read_scale(6), 0)
        with self.assertRaises(data.DataError):
            data.read_scale(6, self.path)


if __name__ == "__main__":
    unittest.main()
