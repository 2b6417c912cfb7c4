#!/usr/bin/env python3
"""A TEI engine that plays a fixed script, for tests/match.rs: a match with a known result.

As White it plays the moves of --white in order, as Black those of --black (its colour is read
from the number of moves in `position startpos moves ...`; the first move of each side places
the opponent's flat, as the rules say). When its script runs out it places a flat on the first
empty square from a1 on. Moves are separated by "/" (the match runner splits `args` on spaces and engines on commas).
Usage: tests/engines/scripted.py --white c3/a1/b1/c1 --black b2/a3
"""
import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--white", default="")
parser.add_argument("--black", default="")
args = parser.parse_args()
scripts = [args.white.split("/") if args.white else [], args.black.split("/") if args.black else []]

size = 5
played = []


def reply(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    command = words[0]
    if command == "tei":
        reply("id name scripted")
        reply("option name HalfKomi type spin default 0 min -10 max 10")
        reply("teiok")
    elif command == "isready":
        reply("readyok")
    elif command == "teinewgame":
        size = int(words[1])
        played = []
    elif command == "position":
        played = words[words.index("moves") + 1:] if "moves" in words else []
    elif command == "go":
        colour = len(played) % 2
        own = len(played) // 2
        if own < len(scripts[colour]):
            move = scripts[colour][own]
        else:
            occupied = {m.lstrip("FSC")[:2] for m in played}
            move = next(f"{chr(ord('a') + f)}{r + 1}" for r in range(size) for f in range(size)
                        if f"{chr(ord('a') + f)}{r + 1}" not in occupied)
        reply(f"info depth 1 score cp 0 pv {move}")
        reply(f"bestmove {move}")
    elif command == "quit":
        break
