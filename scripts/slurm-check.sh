#!/usr/bin/env bash
# A real Slurm check of sharded matches, on this machine: installs Slurm and munge from
# Debian's packages (if missing; needs root), starts a single-node cluster on loopback
# (munged, slurmctld and slurmd, each with its own files under a temporary folder and its own
# ports), submits a 4-task array of a short sharded match (scripts/slurm/match.sbatch) and the
# report step after it (scripts/slurm/report.sbatch), waits, and checks that
#   - every array task and the report completed with exit code 0,
#   - the four PTN files hold exactly the games of the same match played unsharded here
#     (round, players, start, every move and the result; comments with times aside),
#   - `menhir report` over the four files prints the same figures as over the unsharded one.
# It stops what it started and removes its folder on exit (KEEP=1 keeps the folder).
#
#   scripts/slurm-check.sh
#
# The players are tests/engines/misbehave.py in its --per-position mode: its moves depend
# only on the position, so a game replays exactly whichever shard plays it (engines that
# think on a clock do not, and two runs of their match differ). Environment: MENHIR (a built
# binary; default: `cargo build --release` of this tree), GAMES (default 10), KEEP.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${GAMES:-10}
SHARDS=4
CTLD_PORT=16817
SLURMD_PORT=16818
say() { echo "slurm-check: $*"; }
fail() {
    echo "slurm-check: FAIL: $*" >&2
    exit 1
}

# 1. Slurm and munge from Debian's packages.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    [[ $(id -u) == 0 ]] || fail "Slurm is not installed and installing it needs root"
    say "installing slurmctld slurmd slurm-client munge (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
fi
say "$(slurmctld -V)"
for port in $CTLD_PORT $SLURMD_PORT; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        fail "port $port is in use (another cluster running?)"
    fi
done

# 2. The binary.
if [[ -z ${MENHIR:-} ]]; then
    say "building menhir (release)"
    (cd "$ROOT" && nice -n 15 cargo build --release --quiet)
    MENHIR=$ROOT/target/release/menhir
fi
[[ -x $MENHIR ]] || fail "MENHIR=$MENHIR is not an executable"

# 3. A private cluster: everything under WORK, stopped and removed on exit.
WORK=$(mktemp -d /tmp/menhir-slurm-check.XXXXXX)
chmod 755 "$WORK"
mkdir -p "$WORK"/{munge,state,spool,log,out}
chmod 755 "$WORK/munge"
pids=()
jobs_submitted=()
cleanup() {
    local status=$?
    set +e
    if ((${#jobs_submitted[@]})); then
        scancel --quiet "${jobs_submitted[@]}" 2>/dev/null
    fi
    # Stop the daemons this script started, newest first, by their process ids.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null
        for _ in $(seq 50); do
            kill -0 "${pids[i]}" 2>/dev/null || break
            sleep 0.1
        done
        kill -9 "${pids[i]}" 2>/dev/null
        wait "${pids[i]}" 2>/dev/null
    done
    if ((status != 0)); then
        for log in "$WORK"/log/*.log "$WORK"/out/*.log; do
            [[ -f $log ]] && { echo "--- $log (last lines)"; tail -n 15 "$log"; } >&2
        done
    fi
    if [[ ${KEEP:-0} == 1 ]]; then
        say "kept $WORK"
    else
        rm -rf "$WORK"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "munged, slurmctld and slurmd on 127.0.0.1, files in $WORK"
# A fresh key of our own; munged refuses keys and sockets that others can write.
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
MUNGE_SOCKET=$WORK/munge/munge.socket
munged --foreground --force --socket="$MUNGE_SOCKET" --key-file="$WORK/munge/munge.key" \
    --log-file="$WORK/log/munged.log" --pid-file="$WORK/munge/munged.pid" \
    --seed-file="$WORK/munge/munged.seed" >>"$WORK/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $MUNGE_SOCKET ]] && break; sleep 0.1; done
[[ -S $MUNGE_SOCKET ]] || fail "munged did not start"

# The node as slurmd sees it (CPUs, sockets, cores, memory), on loopback.
node=$(slurmd -C | head -n 1)
node_name=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$node")
[[ -n $node_name ]] || fail "slurmd -C printed no NodeName: $node"
export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=menhircheck
SlurmctldHost=$node_name(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=3600
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=check Nodes=$node_name Default=YES MaxTime=30 State=UP
CONF
slurmctld -D -c -f "$SLURM_CONF" >>"$WORK/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node_name" >>"$WORK/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
done
[[ ${state:-} == idle ]] || fail "the node did not come up idle (state '${state:-none}')"
say "node $node_name idle: $(sinfo -h -N -o '%N %c CPUs %m MB %P')"

# 4. The match: the same flags sharded on Slurm and whole here.
engine=$ROOT/tests/engines/misbehave.py
match_args=(
    --engine "name=alpha,cmd=$engine,args=--per-position --seed 1"
    --engine "name=beta,cmd=$engine,args=--per-position --seed 2"
    --size 5 --games "$GAMES" --tc 2+0.05 --random-plies 2 --seed 14
)
OUT=$WORK/out
array=$(MENHIR=$MENHIR OUT=$OUT sbatch --parsable --array=0-$((SHARDS - 1)) \
    --chdir="$WORK" --output="$OUT/match-%A_%a.log" \
    "$ROOT/scripts/slurm/match.sbatch" "${match_args[@]}")
jobs_submitted+=("$array")
report_job=$(MENHIR=$MENHIR OUT=$OUT sbatch --parsable --dependency="afterok:$array" \
    --chdir="$WORK" --output="$OUT/report-%j.log" "$ROOT/scripts/slurm/report.sbatch")
jobs_submitted+=("$report_job")
say "submitted array job $array (tasks 0-$((SHARDS - 1))) and report job $report_job"
for _ in $(seq 600); do
    [[ -z $(squeue -h -j "$array,$report_job" 2>/dev/null) ]] && break
    sleep 0.5
done
[[ -z $(squeue -h -j "$array,$report_job") ]] || fail "the jobs did not finish in 300 s"
states=$(scontrol -o show job "$array" | awk '{
    for (i = 1; i <= NF; i++) if ($i ~ /^(ArrayJobId|ArrayTaskId|JobState|ExitCode)=/) printf "%s ", $i
    print ""
}')
echo "$states" | sed 's/^/  /'
[[ $(grep -c 'JobState=COMPLETED ExitCode=0:0 *$' <<<"$states") == "$SHARDS" ]] ||
    fail "not every array task completed with exit code 0"
scontrol -o show job "$report_job" | grep -q 'JobState=COMPLETED.*ExitCode=0:0' ||
    fail "the report job did not complete: $(scontrol -o show job "$report_job")"
for ((k = 0; k < SHARDS; k++)); do
    log=$(grep -h '^shard ' "$OUT"/match-"${array}_$k".log || echo "no shard line in its log")
    say "task $k: $log; $(grep -c '^\[Round' "$OUT/shard-$k.ptn") games in shard-$k.ptn"
done

say "playing the same match unsharded"
"$MENHIR" match "${match_args[@]}" --ptn "$WORK/whole.ptn" >"$WORK/whole.txt" 2>"$WORK/log/whole.log"
"$MENHIR" report "$WORK/whole.ptn" >"$WORK/whole-report.txt"

# 5. The checks.
python3 - "$WORK/whole.ptn" "$OUT"/shard-*.ptn <<'PY' || fail "the shards' games differ from the whole match's"
import re, sys

def games(path):
    """Games by round: the tags that name them and the movetext without {comments}."""
    found = {}
    for game in re.split(r"\n\s*\n(?=\[)", open(path).read()):
        if not game.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, re.M))
        moves = " ".join(re.sub(r"\{[^}]*\}", " ", re.sub(r"^\[.*$", "", game, flags=re.M)).split())
        key = int(tags["Round"])
        assert key not in found, f"{path}: round {key} twice"
        found[key] = (tags["Player1"], tags["Player2"], tags.get("TPS"), tags["Result"], moves)
    return found

whole = games(sys.argv[1])
union = {}
for path in sys.argv[2:]:
    for key, game in games(path).items():
        assert key not in union, f"round {key} in two shards"
        union[key] = game
assert sorted(whole) == list(range(1, len(whole) + 1)), sorted(whole)
assert union == whole, "games differ"
print(f"slurm-check: the {len(union)} games of the 4 shards are the unsharded match's, move for move")
PY
sharded=$(tail -n +2 "$OUT/report.txt")
unsharded=$(tail -n +2 "$WORK/whole-report.txt")
say "menhir report over the $SHARDS shards (Slurm's report job):"
sed 's/^/  | /' "$OUT/report.txt"
say "menhir report over the unsharded match:"
sed 's/^/  | /' "$WORK/whole-report.txt"
[[ $sharded == "$unsharded" ]] || fail "the reports differ"
# The unsharded match's own summary is the report's figures too.
[[ $(cat "$WORK/whole.txt") == "$(tail -n +3 "$WORK/whole-report.txt")" ]] ||
    fail "the report differs from the match's summary"
say "PASS: the sharded reports equal the unsharded match's figures"
