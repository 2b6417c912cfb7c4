#!/usr/bin/env python3
"""Time used per move in the games of a PTN file written by `menhir match --ptn`.

    scripts/move-times.py FILE.ptn [--game N] [--every K]
    scripts/move-times.py FILE.ptn [--game N] --bucket B

Prints one row per K moves of game N (default: the first): move number, then for White and
Black the seconds that move took and the depth it reached, and a total per side at the end.
With --bucket, one row per B moves instead: the mean time and depth of both sides' moves.
"""
import argparse
import re
import sys

COMMENT = re.compile(r"\{([^}]*)\}")
MOVE_LINE = re.compile(r"^(\d+)\.\s")


def games(text):
    """Splits a PTN file into games: lists of move lines."""
    out, current = [], []
    for line in text.splitlines():
        if line.startswith("[Event"):
            if current:
                out.append(current)
            current = []
        elif MOVE_LINE.match(line):
            current.append(line)
    if current:
        out.append(current)
    return out


def parse(comment):
    """'-1.41/9 1.39s' -> (depth, seconds); 'book' -> None."""
    m = re.match(r"\s*[-+]?[\d.]+/(\d+)\s+([\d.]+)s", comment)
    return (int(m.group(1)), float(m.group(2))) if m else None


def print_buckets(game, size):
    """Mean seconds and depth of both sides' searched moves, per `size` moves."""
    buckets = {}
    for line in game:
        number = int(MOVE_LINE.match(line).group(1))
        for comment in COMMENT.findall(line)[:2]:
            parsed = parse(comment)
            if parsed:
                buckets.setdefault((number - 1) // size, []).append(parsed)
    print("| moves | mean s | mean depth | moves searched |")
    print("|---|---|---|---|")
    for b in sorted(buckets):
        moves = buckets[b]
        secs = sum(m[1] for m in moves) / len(moves)
        depth = sum(m[0] for m in moves) / len(moves)
        print(f"| {b * size + 1}-{b * size + size} | {secs:.2f} | {depth:.1f} | {len(moves)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptn")
    ap.add_argument("--game", type=int, default=1)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--bucket", type=int, default=0)
    args = ap.parse_args()
    try:
        text = open(args.ptn, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"move-times: {e}")
    all_games = games(text)
    if not 1 <= args.game <= len(all_games):
        sys.exit(f"move-times: {args.ptn} has {len(all_games)} games, not game {args.game}")
    if args.bucket > 0:
        print_buckets(all_games[args.game - 1], args.bucket)
        return
    totals = [0.0, 0.0]
    print("| move | White s | White depth | Black s | Black depth |")
    print("|---|---|---|---|---|")
    for line in all_games[args.game - 1]:
        number = int(MOVE_LINE.match(line).group(1))
        cells = []
        for side, comment in enumerate(COMMENT.findall(line)[:2]):
            parsed = parse(comment)
            if parsed:
                totals[side] += parsed[1]
                cells += [f"{parsed[1]:.2f}", str(parsed[0])]
            else:
                cells += ["book", ""]
        cells += [""] * (4 - len(cells))
        if number % args.every == 0 or number == 1:
            print(f"| {number} | " + " | ".join(cells) + " |")
    print(f"| total | {totals[0]:.1f} | | {totals[1]:.1f} | |")


if __name__ == "__main__":
    main()
