#!/usr/bin/env python3
"""Candidate tinue positions from `menhir datagen` text data (issue 47: long tinues at 7x7 and
8x8 for tests/data/tinue-bench.txt).

Each game of the file (its positions in order; a new game starts when the ply goes back) that
ended with a win gives its positions D plies before the end with the winner to move, for odd D
from DMIN to DMAX. Prints 'TPS # size N FILE game G d=D'. Whether a line is a tinue is what
`menhir tinue` proves (each proof re-walked with the rules); only proved lines go into the set.

Usage: scripts/tinue-datagen-candidates.py DATA_FILE DMIN DMAX > candidates.txt
e.g.   menhir datagen --out sp7.txt --size 7 --komi 2 --games 40 --nodes 4000 --seed 4707
       scripts/tinue-datagen-candidates.py sp7.txt 9 9 > d9.txt
       menhir tinue --positions d9.txt --nodes 10000 --half-komi 4
"""
import sys


def main():
    path, dmin, dmax = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    games, cur, last_ply = [], [], None
    for line in open(path):
        f = line.strip().split(";")
        if len(f) < 4:
            continue
        tps = f[0]
        parts = tps.split(" ")
        ply = (int(parts[2]) - 1) * 2 + (int(parts[1]) - 1)
        if last_ply is not None and ply <= last_ply:
            games.append(cur)
            cur = []
        cur.append((tps, float(f[3])))
        last_ply = ply
    if cur:
        games.append(cur)
    name = path.rsplit("/", 1)[-1]
    for number, lines in enumerate(games, 1):
        result = lines[0][1]
        if result == 0.5:
            continue
        winner = "1" if result == 1.0 else "2"
        n = len(lines)
        for d in range(dmin, dmax + 1, 2):
            if d > n:
                break
            tps = lines[n - d][0]
            if tps.split(" ")[1] != winner:
                continue
            size = tps.count("/") + 1
            print(f"{tps} # size {size} {name} game {number} d={d} winner to move")


main()
