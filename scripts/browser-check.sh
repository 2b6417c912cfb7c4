#!/usr/bin/env bash
# Browser check for `menhir serve`: headless Chromium loads scripts/browser-check.html, whose
# JavaScript runs PTN Ninja's TEI sequence over a WebSocket to a `menhir serve` on a free
# loopback port and writes the transcript into the page; this script reads the page and
# checks for teiok, readyok, `info … wdl … pv …` lines, a solved score from `go solved` and from
# the search with ScoreSolved on (a 4x4 tinue), and four bestmoves.
#
#   scripts/browser-check.sh            (MENHIR=path/to/menhir to test another build)
#
# Installs Debian's `chromium` with apt-get if no Chromium is found (root, or sudo). Needs
# python3 (a stdlib HTTP server holds the page open, see below).
set -euo pipefail
cd "$(dirname "$0")/.."

MENHIR=${MENHIR:-target/release/menhir}
if [ ! -x "$MENHIR" ]; then
    nice -n 15 cargo build --release
fi

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    echo "browser-check: installing Debian's chromium" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
    CHROMIUM=$(command -v chromium)
fi

work=$(mktemp -d)
server_pid=""
hold_pid=""
cleanup() {
    if [ -n "$hold_pid" ]; then
        kill "$hold_pid" 2>/dev/null || true
        wait "$hold_pid" 2>/dev/null || true
    fi
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

"$MENHIR" serve --listen 127.0.0.1:0 2>"$work/serve.log" &
server_pid=$!
port=""
for _ in $(seq 200); do
    port=$(sed -n 's|.*ws://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$work/serve.log" | head -n 1)
    [ -n "$port" ] && break
    sleep 0.05
done
if [ -z "$port" ]; then
    echo "browser-check: FAIL: menhir serve did not start" >&2
    cat "$work/serve.log" >&2
    exit 1
fi
echo "browser-check: menhir serve on ws://127.0.0.1:$port, $("$CHROMIUM" --version 2>/dev/null)"

# Headless Chromium dumps the DOM once the page has loaded, and its timers run on virtual
# time, so the page cannot simply wait for the engine. Instead it loads an image from this
# small HTTP server, which answers only when the page asks it to (/done) or after 60 s.
cat >"$work/hold.py" <<'PY'
import http.server, sys, threading
done = threading.Event()
GIF = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b")
class Hold(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/done"):
            done.set()
        else:
            done.wait(60)
        self.send_response(200)
        self.send_header("Content-Type", "image/gif")
        self.send_header("Content-Length", str(len(GIF)))
        self.end_headers()
        self.wfile.write(GIF)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hold)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$work/hold.py" >"$work/hold.port" &
hold_pid=$!
hold=""
for _ in $(seq 200); do
    hold=$(head -n 1 "$work/hold.port")
    [ -n "$hold" ] && break
    sleep 0.05
done
[ -n "$hold" ] || { echo "browser-check: FAIL: the hold server did not start" >&2; exit 1; }

cp scripts/browser-check.html "$work/page.html"
timeout 120 "$CHROMIUM" --headless --disable-gpu --no-sandbox --no-first-run \
    --user-data-dir="$work/profile" \
    --dump-dom "file://$work/page.html?port=$port&hold=$hold" >"$work/dom.html" 2>"$work/chromium.log" || {
    echo "browser-check: FAIL: chromium failed" >&2
    tail -n 20 "$work/chromium.log" >&2
    exit 1
}

# The transcript as the page wrote it (HTML-escaped `<<` / `>>` decoded).
transcript=$(sed -n '/<pre id="transcript">/,/<\/pre>/p' "$work/dom.html" |
    sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g')
status=$(sed -n 's|.*<p id="status">\([^<]*\)</p>.*|\1|p' "$work/dom.html")
echo "$transcript"

fail=0
check() {
    if printf '%s\n' "$transcript" | grep -Eq "$2"; then
        echo "browser-check: ok: $1"
    else
        echo "browser-check: FAIL: $1" >&2
        fail=1
    fi
}
[ "$status" = "done" ] || { echo "browser-check: FAIL: page status '$status', not 'done'" >&2; fail=1; }
check "teiok" '^<< teiok$'
check "readyok" '^<< readyok$'
check "info ... wdl ... pv" '^<< info .*score cp -?[0-9]+ wdl [0-9]+ [0-9]+ [0-9]+ .* pv [^ ]+'
check "info multipv 2 ... wdl ... pv" '^<< info multipv 2 .* wdl [0-9]+ [0-9]+ [0-9]+ .* pv [^ ]+'
check "bestmove after stop" '^<< bestmove [^ ]+'
check "go solved: score solved win 7 pv c2" '^<< info depth 7 .*score solved win 7 .* pv c2 '
check "go infinite, default options: score solved win" '^<< info .*score solved win [0-9]+ .* pv c2'
printf '%s\n' "$transcript" | grep -q '^>> setoption name ScoreSolved' &&
    { echo "browser-check: FAIL: the page set ScoreSolved; the default must do" >&2; fail=1; }
# Every solved score's line reaches the end of the game: N moves after `pv`.
while IFS= read -r line; do
    n=$(printf '%s\n' "$line" | sed -E 's/.* score solved (win|loss) ([0-9]+) .*/\2/')
    moves=$(printf '%s\n' "$line" | sed -E 's/.* pv //' | wc -w)
    if [ "$n" -eq "$moves" ]; then
        echo "browser-check: ok: solved $n with a $moves-ply line"
    else
        echo "browser-check: FAIL: solved $n with a $moves-ply line: $line" >&2
        fail=1
    fi
done < <(printf '%s\n' "$transcript" | grep '^<< info .* score solved ')
check "bestmove c2 for the tinue" '^<< bestmove c2$'
[ "$(printf '%s\n' "$transcript" | grep -c '^<< bestmove ')" -eq 4 ] ||
    { echo "browser-check: FAIL: expected four bestmoves" >&2; fail=1; }
if [ "$fail" -ne 0 ]; then
    echo "browser-check: FAILED" >&2
    exit 1
fi
echo "browser-check: PASSED"
