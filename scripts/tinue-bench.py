#!/usr/bin/env python3
"""Builds the tinue benchmark set (issue 26) from self-play PTN games.

For every game won by a road, takes the positions a few plies before the end with the winner
to move (odd distances 3..15: candidate tinues, the forcing line of that length or shorter)
and one further back (17..23: the winner often already threatens there, a "tempting threat"
that may not yet be tinue). TPS comes from Menhir itself (TEI `position ...` then `d`).

Usage: scripts/tinue-bench.py MENHIR PTN_FILE... > tests/data/tinue-bench.txt
The label (tinue / no tinue) of each line is what the solver proved, verified separately;
see ANALYSIS.md.
"""
import sys

from ptn_games import Tei, games


def main():
    binary, files = sys.argv[1], sys.argv[2:]
    tei = Tei(binary)

    print("# Tinue benchmark: TPS, then a comment: size, source game, plies before the road")
    print("# win in the game (d), the side to move. Solve with --half-komi 4 (komi 2, as played).")
    for path in files:
        for number, (tags, moves) in enumerate(games(open(path).read()), 1):
            if tags.get("Result") not in ("R-0", "0-R"):
                continue
            size = tags["Size"]
            n = len(moves)
            near = [3, 5, 7, 9, 11, 13, 15]
            picks = [d for d in near + [17 + 2 * (number % 4)] if d < n - 2]
            for d in picks:
                tps = tei.tps(size, moves[: n - d])
                kind = "winner" if d <= 15 else "winner-far"
                print(f"{tps} # size {size} {path.rsplit('/', 1)[-1]} game {number} d={d} {kind} to move")
    tei.close()


main()
