#!/usr/bin/env python3
"""A TEI engine that plays a fixed script, for tests/match.rs: a match with a known result.

As White it plays the moves of --white in order, as Black those of --black (its colour is read
from the number of moves in `position startpos moves ...`; the first move of each side places
the opponent's flat, as the rules say). When its script runs out it places a flat on the first
empty square from a1 on. Moves are separated by "/" (the match runner splits `args` on spaces and engines on commas).
Usage: tests/engines/scripted.py --white c3/a1/b1/c1 --black b2/a3
"""
import argparse

from tei_stub import empty_squares, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--white", default="")
parser.add_argument("--black", default="")
args = parser.parse_args()
scripts = [args.white.split("/") if args.white else [], args.black.split("/") if args.black else []]


def go(size, played):
    colour = len(played) % 2
    own = len(played) // 2
    if own < len(scripts[colour]):
        move = scripts[colour][own]
    else:
        move = empty_squares(size, played)[0]
    reply(f"info depth 1 score cp 0 pv {move}")
    reply(f"bestmove {move}")


serve("scripted", go)
