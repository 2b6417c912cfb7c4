#!/usr/bin/env python3
"""Menhir's network trainer: `train`, `export` and `reference` (trainer/README.md).

    python trainer/train.py train data/*.mhd --size 6 --out nnue-6x6.mhn --checkpoint run.pt
    python trainer/train.py export run.pt --out nnue-6x6.mhn
    python trainer/train.py reference run.pt data.mhd --count 64 \\
        --out-positions tests/data/nnue-positions.mhd --out-expected tests/data/nnue-expected.txt
"""

import sys

from menhir_trainer.cli import main

if __name__ == "__main__":
    sys.exit(main())
