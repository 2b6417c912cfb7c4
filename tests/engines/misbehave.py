#!/usr/bin/env python3
"""A TEI engine that misbehaves on purpose, for tests/match.rs.

It only places flats on random empty squares (always legal, as long as both players in the
game are this script), tracking the board from `position startpos moves ...`. From ply --at
of each game (0 = its first move) it misbehaves as --mode says:
  good       never misbehaves
  illegal    a placement on an occupied square (a capstone on a1 on an empty board)
  malformed  something that is not a PTN move
  crash      exits with status 3
  silent     stops answering (sleeps for an hour) but keeps running
  slow       answers correctly after --delay-ms milliseconds
With --per-position its choice depends only on --seed and the moves so far, not on the games
it played before, so a game replays exactly whichever process plays it (for sharded matches).
It prints "pid N" on stderr so a test can check that the process was reaped.
With --log FILE it appends every line it receives to FILE (to see what a test's client sent).
Usage: tests/engines/misbehave.py --mode crash --at 2 --seed 7
"""
import argparse
import os
import random
import sys
import time

from tei_stub import empty_squares, reply, serve

parser = argparse.ArgumentParser()
parser.add_argument("--mode", default="good")
parser.add_argument("--at", type=int, default=0)
parser.add_argument("--delay-ms", type=int, default=0)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--per-position", action="store_true")
parser.add_argument("--log", help="append every line received to this file")
args = parser.parse_args()
rng = random.Random(args.seed)
print(f"pid {os.getpid()}", file=sys.stderr, flush=True)



def go(size, played):
    global rng
    # File by file (a1 a2 ... b1), the order its random choices have always been made in.
    empty = sorted(empty_squares(size, played))
    if args.per_position:
        rng = random.Random(f"{args.seed} {size} {' '.join(played)}")
    move = rng.choice(empty)
    if len(played) < args.at or args.mode == "good":
        reply(f"info depth 2 score cp 10 pv {move}")
        reply(f"bestmove {move}")
    elif args.mode == "illegal":
        reply(f"bestmove {played[0].lstrip('FSC')[:2] if played else 'Ca1'}")
    elif args.mode == "malformed":
        reply("bestmove z9?!")
    elif args.mode == "crash":
        sys.exit(3)
    elif args.mode == "silent":
        time.sleep(3600)
    elif args.mode == "slow":
        # Claims a 1 ms search: the delay is outside it, as for a process kept off the CPU.
        time.sleep(args.delay_ms / 1000)
        reply(f"info depth 1 score cp 0 time 1 pv {move}")
        reply(f"bestmove {move}")


serve("misbehave", go, args.log)
