#!/usr/bin/env python3
"""Builds the tactical suite (issue 25 point 5) from self-play PTN games.

Usage: scripts/tactics-suite.py MENHIR PTN_FILE... > tests/data/tactics.txt

Two kinds of line, each labelled by Menhir's own tinue solver (komi 2: --half-komi 4, as the
games were played), never by the game's outcome:

- win N: from every game won by a road, the positions 1, 3 and 5 plies before the road, the
  winner to move; kept when the solver proves a win in N <= 5 plies (N is the solver's length,
  a proved bound, not always the shortest); at most WIN_PER_SIZE_AND_N per size and N, spread
  over the games.
- defend: positions of any game where the side to move faces a threat to win at once (the
  position with the other side to move has a win in one, found by the solver on the TPS with
  the player swapped), has no win in one itself, and is not lost: the solver proves no loss
  (a proved loss, or unknown, is dropped). At most DEFEND_PER_GAME a game, spread over it, and
  DEFEND_PER_SIZE a size.

A position picked as a defence candidate is not also taken as a win. Finally
`menhir tactics --verify-suite` must find for every line a move that passes the same check the
engine's move gets (a forced win within N plies; a defence after which the opponent has no
forced win within 5 plies, both by trying every move); a line it cannot answer is dropped.
Takes about 17 minutes on 2 loaded cores, most of it the labels.

TPS comes from Menhir itself (TEI `position ...` then `d`), as in scripts/tinue-bench.py.
"""
import os
import subprocess
import sys
import tempfile

from ptn_games import Tei, games

HALF_KOMI = "4"
# Solver nodes per candidate for the labels (a few seconds at most in a release build).
LABEL_NODES = "300000"
WIN_DISTANCES = (1, 3, 5)
WIN_PER_SIZE_AND_N = 6
DEFEND_PER_GAME = 2
DEFEND_PER_SIZE = 12
# Plies at the start of a game never taken (the opening: no threats yet).
SKIP_OPENING = 6


def solve(binary, positions, nodes, hash_mb="64"):
    """`menhir tinue --positions` on the TPS list: (verdict, plies) per position."""
    if not positions:
        return []
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(positions) + "\n")
        name = f.name
    try:
        out = subprocess.run([binary, "tinue", "--positions", name, "--nodes", nodes, "--hash", hash_mb,
                              "--half-komi", HALF_KOMI],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(name)
    verdicts = {}
    for row in out.splitlines():
        f = row.split("\t")
        if len(f) >= 3 and f[0].isdigit():
            verdicts[int(f[0])] = (f[1], int(f[2]) if f[2].isdigit() else None)
    return [verdicts[i + 1] for i in range(len(positions))]


def swapped(tps):
    board, player, number = tps.split()
    return f"{board} {'2' if player == '1' else '1'} {number}"


def spread(items, k):
    """k items spread evenly over the list (the last always among them)."""
    if len(items) <= k:
        return items
    step = len(items) / k
    return [items[len(items) - 1 - int(i * step)] for i in range(k)][::-1]


def verify(binary, lines):
    """The lines `menhir tactics --verify-suite` answers."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    try:
        run = subprocess.run([binary, "tactics", name, "--verify-suite", "--half-komi", HALF_KOMI],
                             capture_output=True, text=True)
    finally:
        os.unlink(name)
    if run.returncode not in (0, 1):  # 1: some line unanswered; anything else: a broken run
        raise SystemExit(f"menhir tactics --verify-suite failed: {run.stderr.strip()}")
    out = run.stdout
    ok = set()
    for row in out.splitlines():
        f = row.split("\t")
        if len(f) >= 4 and f[0].isdigit():
            if f[3] == "ok":
                ok.add(int(f[0]))
            else:
                print(f"dropped (no answer): {lines[int(f[0]) - 1]}", file=sys.stderr)
    return [line for i, line in enumerate(lines) if i + 1 in ok]


def main():
    binary, files = sys.argv[1], sys.argv[2:]
    tei = Tei(binary)
    wins = []  # (tps, size, note)
    threatened = []  # (tps, size, note, game key)
    for path in files:
        name = path.rsplit("/", 1)[-1]
        for number, (tags, moves) in enumerate(games(open(path).read()), 1):
            size, n = tags["Size"], len(moves)
            if tags.get("Result") in ("R-0", "0-R"):
                for d in WIN_DISTANCES:
                    if n - d >= SKIP_OPENING:
                        tps = tei.tps(size, moves[: n - d])
                        wins.append((tps, size, f"size {size} {name} game {number} ply {n - d + 1} ({d} before the road)"))
            for ply in range(SKIP_OPENING, n):
                tps = tei.tps(size, moves[:ply])
                threatened.append((tps, size, f"size {size} {name} game {number} ply {ply + 1}", (name, number)))
    tei.close()
    print(f"{len(wins)} win candidates, {len(threatened)} positions", file=sys.stderr)

    # Threats: the swapped position has a win in one (the solver says so before any node).
    quick = solve(binary, [swapped(t[0]) for t in threatened], "1", "1")
    own = solve(binary, [t[0] for t in threatened], "1", "1")
    threatened = [t for t, q, o in zip(threatened, quick, own) if q == ("win", 1) and o != ("win", 1)]
    seen = set()
    picked = []
    for key in dict.fromkeys(t[3] for t in threatened):
        in_game = [t for t in threatened if t[3] == key and t[0] not in seen]
        for t in spread(in_game, DEFEND_PER_GAME * 2):
            seen.add(t[0])
            picked.append(t)

    print(f"{len(picked)} defence candidates to label", file=sys.stderr)
    defends = []
    for t, (verdict, plies) in zip(picked, solve(binary, [t[0] for t in picked], LABEL_NODES)):
        if verdict == "disproved" or (verdict == "win" and plies and plies > 1):
            defends.append(t)
    by_game = {}
    for t in defends:
        by_game.setdefault(t[3], []).append(t)
    defends = [t for key in by_game for t in spread(by_game[key], DEFEND_PER_GAME)]
    by_size = {}
    for t in defends:
        by_size.setdefault(t[1], []).append(t)
    defends = [t for size in sorted(by_size) for t in spread(by_size[size], DEFEND_PER_SIZE)]

    by_kind = {}
    for (tps, size, note), (verdict, plies) in zip(wins, solve(binary, [w[0] for w in wins], LABEL_NODES)):
        if verdict == "win" and plies and plies <= 5 and tps not in seen:
            seen.add(tps)
            by_kind.setdefault((size, plies), []).append(f"{tps} ; win {plies} ; {note}")
    labelled = []
    for key in sorted(by_kind):
        labelled += spread(by_kind[key], WIN_PER_SIZE_AND_N)
    labelled += [f"{tps} ; defend ; {note}" for tps, size, note, _ in defends]
    final = verify(binary, labelled)

    print("# Tactical suite (issue 25 point 5): `TPS ; task ; note`, one position a line.")
    print("# `win N`: the side to move forces a win within N plies (counting its winning move);")
    print("# `defend`: it faces a threat to win at once and is not lost. Built by")
    print("# scripts/tactics-suite.py from Menhir self-play games (scripts/tinue-games.sh,")
    print("# komi 2): wins 1, 3 and 5 plies before each road, the winner to move; defences from")
    print("# positions facing a threat. Labels by Menhir's tinue solver at --half-komi 4 and")
    print(f"# {LABEL_NODES} nodes, unknowns dropped, every line answered by")
    print("# `menhir tactics --verify-suite`. Rebuild:")
    print("#   scripts/tinue-games.sh target/release/menhir /work/runs/tinue/games 24")
    print("#   scripts/tactics-suite.py target/release/menhir /work/runs/tinue/games/selfplay-{4,5,6,7,8}.ptn \\")
    print("#       > tests/data/tactics.txt")
    print("# Run: menhir tactics tests/data/tactics.txt --movetime 100 (komi 2 is its default)")
    for line in final:
        print(line)


main()
