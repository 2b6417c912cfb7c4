"""The TEI loop the test engines share (scripted.py, misbehave.py): the handshake, `isready`,
`teinewgame`, `position startpos moves ...` and `quit`; each `go` is handed to the engine's own
function with the board size and the moves played so far. `go infinite` (pondering) is answered
only on `stop`, as TEI asks, with the first empty square, so pondering leaves the engine's own
choices as they were. With `log`, every line received is appended to that file."""
import sys


def reply(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def empty_squares(size, played):
    """The squares no move of `played` has placed on, a1 b1 ... by rank (flats only)."""
    occupied = {move.lstrip("FSC")[:2] for move in played}
    squares = [f"{chr(ord('a') + f)}{r + 1}" for r in range(size) for f in range(size)]
    return [square for square in squares if square not in occupied]


def serve(name, go, log=None):
    """Answers TEI on stdin until `quit` or end of input; `go(size, played)` answers `go`."""
    size = 5
    played = []
    pondering = False
    for line in sys.stdin:
        if log:
            with open(log, "a") as f:
                f.write(line.rstrip("\n") + "\n")
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "tei":
            reply(f"id name {name}")
            reply("option name HalfKomi type spin default 0 min -10 max 10")
            reply("teiok")
        elif command == "isready":
            reply("readyok")
        elif command == "teinewgame":
            size = int(words[1])
            played = []
        elif command == "position":
            played = words[words.index("moves") + 1:] if "moves" in words else []
        elif command == "go" and "infinite" in words:
            pondering = True
        elif command == "go":
            go(size, played)
        elif command == "stop" and pondering:
            pondering = False
            empty = empty_squares(size, played)
            reply(f"bestmove {empty[0] if empty else '--'}")
        elif command == "quit":
            break
