"""PTN games and TPS for the scripts that build position sets from self-play
(scripts/tinue-bench.py, scripts/tactics-suite.py): the games of a PTN file, and the TPS of a
position after some moves, as Menhir itself computes it (TEI `position ...` then `d`)."""
import re
import subprocess


def games(text):
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = re.sub(r"\{[^}]*\}", " ", re.sub(r"\[[^\]]*\]", " ", chunk))
        moves = [t for t in body.split() if not re.fullmatch(r"\d+\.|R-0|0-R|F-0|0-F|1-0|0-1|1/2-1/2|\*", t)]
        if tags.get("Size"):
            yield tags, moves


class Tei:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def tps(self, size, moves):
        self.proc.stdin.write(f"teinewgame {size}\nposition startpos moves {' '.join(moves)}\nd\n")
        self.proc.stdin.flush()
        while True:
            reply = self.proc.stdout.readline()
            if not reply:
                raise SystemExit("menhir stopped answering")
            if reply.startswith("info string tps "):
                return reply.split("info string tps ", 1)[1].rsplit(" halfkomi", 1)[0].strip()
            if reply.startswith("info string error"):
                raise SystemExit(reply)

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait()
