#!/usr/bin/env python3
"""Time used per move in the games of a PTN file written by `menhir match --ptn`.

    scripts/move-times.py FILE.ptn [--game N] [--every K]

Prints one row per K moves of game N (default: the first): move number, then for White and
Black the seconds that move took and the depth it reached, and a total per side at the end.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptn")
    ap.add_argument("--game", type=int, default=1)
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args()
    try:
        text = open(args.ptn, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"move-times: {e}")
    all_games = games(text)
    if not 1 <= args.game <= len(all_games):
        sys.exit(f"move-times: {args.ptn} has {len(all_games)} games, not game {args.game}")
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
