#!/bin/sh
# bench-migration.sh — task migration on the testbed (issue 14, "Measure"; seed 001; root):
#  1. seed 001 section 5.2: examples/ep (4 tasks, 2 spares, the args of
#     examples/ep/job-dynpvm.yaml with BENCH_MIG_STEPS steps, default 1000: a loaded run
#     of about a minute, as the site file intends, 400 being too short for its
#     one-minute load average to move) on sites/dynpvm.yaml, whose
#     nodes all carry the same background load (emulate: load 1, every 20 s), under
#     migration none, load-diff and load-abs; the makespan against the unloaded run (a copy
#     of the site file without emulate:), slowdown = loaded / unloaded - 1, the migrations,
#     and load-diff's slowdown over none's (goal: at most 2/3, the same order as the paper:
#     none +75%, load-abs, load-diff +46%). The load generator of a node is seeded by its
#     place in the file (testbed/testbed-up.c) and starts with `testbed up`: the
#     testbed is built again for every loaded run, so every policy meets the same arrivals
#     (offset by the launch, a second or two). BENCH_MIG_REPS (3) runs of each, medians.
#  2. seed 001 fig. 4: the time of a move against the state's size, 64 KiB to 32 MiB, over
#     a 100 Mbit/s link (2 nodes, one task and a spare, GRT_MIGRATION=rotate through the
#     job's env: so that the task moves after every step): the migrate events' seconds and
#     bytes; per size the median seconds, the throughput bytes / seconds and its ratio to
#     the link's 12.5 MB/s (goal >= 0.8 from 4 MiB), and a least-squares line over every
#     move (goal r^2 >= 0.99). The runtime's seconds are the pack, the receive (from the
#     probe to the end of MPI_Recv) and the unpack (runtime/task/grt-task-worker.c): not the wait
#     for the step under way to end before the task leaves.
#  3. overhead: the same ep unloaded, load-diff against none, BENCH_MIG_RUNS (5) runs each
#     (interleaved), the median makespans' ratio (goal <= 1.03); the none runs are part 1's
#     unloaded baseline.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh)
# and writes the per-run figures to $BUILD/bench/migration.md.
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
EP=$SRC/$BUILD/examples/ep
STEPS=${BENCH_MIG_STEPS:-1000}
REPS=${BENCH_MIG_REPS:-3}
RUNS=${BENCH_MIG_RUNS:-5}
LINK=12500000	# bytes per second of a 100 Mbit/s link
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-mig.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export NO_COLOR=1
J=$GRIDSUBMIT_HOME/jobs
TESTBED=""
RUN=""
cleanup() {
	[ -n "$RUN" ] && kill -9 "$RUN" 2>/dev/null
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$EP" ] || { echo "bench-migration: $EP not built (make)" >&2; exit 1; }
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_testbed_skip bench-migration && exit 0
command -v jq >/dev/null 2>&1 || { echo "bench-migration: jq is not installed" >&2; exit 1; }
mkdir -p "$BUILD/bench"
MD=$BUILD/bench/migration.md

# up FILE: the testbed of FILE, built again
up() {
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" > /dev/null 2>&1
	TESTBED=$1
	if ! "$GS" testbed up "$1" > "$T/up.out" 2>&1; then
		echo "bench-migration: testbed up $1 failed:" >&2
		cat "$T/up.out" >&2
		exit 1
	fi
	SITES=$GRIDSUBMIT_HOME/testbed/$(basename "$1" .yaml)/sites.yaml
}

down() {
	"$GS" testbed down "$TESTBED" > /dev/null 2>&1
	TESTBED=""
}

# run JOB ARGS...: one job on the testbed up; sets id; fails unless it ends done with 0
run() {
	id=$(cat "$J/next-id" 2>/dev/null || echo 1)
	"$GS" run --sites "$SITES" "$@" -q > "$T/run.out" 2> "$T/run.err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ "$("$GS" status "$id" --json | jq -r .state)" != "done" ]; then
		echo "bench-migration: job $id ($*) exited $rc:" >&2
		cat "$T/run.out" "$T/run.err" >&2
		return 1
	fi
}

# endf FIELD: the end event's FIELD of job $id
endf() {
	grep '"ev":"end"' "$J/$id/events.jsonl" | tail -n 1 | jq ".$1"
}

# median: of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 }
	    END { if (NR % 2) printf "%.6g", v[(NR + 1) / 2]; else if (NR) printf "%.6g", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# loaded COLUMN POLICY: the median of a column of the loaded runs of POLICY
loaded() {
	awk -v c="$1" -v p="$2" '$1 == p { print $c }' "$T/loaded" | median
}

# --- the EP job of part 1 and 3: job-dynpvm.yaml's, with STEPS steps and no --check (the
# check recomputes every task on the master after the end: correctness is tests/sh's)
sed -e "s|^program: .*|program: $EP|" \
    -e "s|\"--steps\", \"[0-9]*\"|\"--steps\", \"$STEPS\"|" -e 's|, "--check"||' \
    "$SRC/examples/ep/job-dynpvm.yaml" > "$T/ep.yaml"
sed -e 's|, *emulate: *{[^}]*}||' "$SRC/sites/dynpvm.yaml" > "$T/dynpvm-noload.yaml"
grep -q 'emulate' "$T/dynpvm-noload.yaml" &&
    { echo "bench-migration: dynpvm-noload.yaml still has emulate:" >&2; exit 1; }
{
	echo "# task migration — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -r)"
	echo
	echo "ep $(sed -n 's/^args: //p' "$T/ep.yaml"), 7 ranks, 2 spares, sites/dynpvm.yaml"
	echo
	echo "| run | sites | migration | makespan (s) | migrations |"
	echo "|---|---|---|---|---|"
} > "$MD"

# --- 3 (and part 1's baseline): unloaded, none and load-diff interleaved
up "$T/dynpvm-noload.yaml"
: > "$T/unloaded"
i=1
while [ "$i" -le "$RUNS" ]; do
	for p in none load-diff; do
		run "$T/ep.yaml" --migration "$p" || exit 1
		m=$(endf makespan)
		echo "$p $m $(endf migrations)" >> "$T/unloaded"
		echo "| $i | unloaded | $p | $m | $(endf migrations) |" >> "$MD"
	done
	i=$((i + 1))
done
down
base=$(awk '$1 == "none" { print $2 }' "$T/unloaded" | median)
ld0=$(awk '$1 == "load-diff" { print $2 }' "$T/unloaded" | median)
echo "# unloaded, medians of $RUNS: none $base s, load-diff $ld0 s (moves: $(awk '$1 == "load-diff" { n += $3 } END { print n + 0 }' "$T/unloaded"))"

# --- 1: loaded, each run on a testbed just built
: > "$T/loaded"
: > "$T/reasons"
i=1
while [ "$i" -le "$REPS" ]; do
	for p in none load-diff load-abs; do
		up "$SRC/sites/dynpvm.yaml"
		run "$T/ep.yaml" --migration "$p" || exit 1
		down
		m=$(endf makespan)
		n=$(endf migrations)
		echo "$p $m $n" >> "$T/loaded"
		echo "| $i | loaded | $p | $m | $n |" >> "$MD"
		grep '"ev":"migrate"' "$J/$id/events.jsonl" | jq -r '"\(.t) \(.reason)"' |
		    sed -e "s/^/$p run $i: t = /" >> "$T/reasons"
	done
	i=$((i + 1))
done
{
	echo
	echo "Migrations of the loaded runs (t from the start, the policy's reason):"
	echo
	sed -e 's/^/    /' "$T/reasons"
} >> "$MD"
for p in none load-diff load-abs; do
	m=$(loaded 2 "$p")
	n=$(loaded 3 "$p")
	awk -v p="$p" -v m="$m" -v b="$base" -v n="$n" -v r="$REPS" 'BEGIN {
		printf "| migration | 5.2 ep on dynpvm, %s: loaded makespan (s), median of %d; %s migrations | %.2f | %.2f (unloaded none) | +%.0f%% | paper %s |\n",
		    p, r, n, m, b, (m / b - 1) * 100,
		    (p == "none" ? "+75%" : p == "load-diff" ? "+46%, 58 moves" : "between, 31 moves") }'
done
awk -v n="$(loaded 2 none)" -v d="$(loaded 2 load-diff)" -v a="$(loaded 2 load-abs)" \
    -v b="$base" 'BEGIN {
	sn = n / b - 1; sd = d / b - 1; sa = a / b - 1
	printf "| migration | 5.2 slowdown of load-diff over that of none (load-abs %.2f) | %.2f | %.2f | %.2f | <= 0.67, order none > load-abs > load-diff |\n",
	    sa / sn, sd, sn, sd / sn }'

# --- 2: move time against state size
cat > "$T/fig4.yaml" <<'EOF'
# two one-core nodes on a 100 Mbit/s link: the task and the spare it moves to
sites:
  - name: lan
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "mv[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 1024}
EOF
up "$T/fig4.yaml"
: > "$T/moves"
for kb in 64 256 1024 4096 16384 32768; do
	# enough steps (about 0.05 s each) for 4 moves of the state there and back
	s=$(awk -v kb="$kb" -v l="$LINK" 'BEGIN { printf "%d", 12 + 80 * kb * 1024 / l }')
	cat > "$T/f4.yaml" <<EOF
name: ep-fig4-$kb
program: $EP
args: ["--tasks", "1", "--steps", "$s", "--pairs", "2000000", "--state-kb", "$kb", "--check"]
ranks: 3
runtime: {spare: 1}
env: {GRT_MIGRATION: rotate}
EOF
	run "$T/f4.yaml" || exit 1
	grep -q 'result matches' "$T/run.out" ||
	    { echo "bench-migration: fig4 $kb KiB: the check failed" >&2; exit 1; }
	grep '"ev":"migrate"' "$J/$id/events.jsonl" | jq -r "\"$kb \\(.bytes) \\(.seconds)\"" \
	    >> "$T/moves"
done
down
{
	echo
	echo "Moves over 100 Mbit/s (2 nodes, rotate): state KiB, moves, median seconds, bytes/s, of the link"
	echo
	echo "| state (KiB) | moves | seconds | bytes/s | of 12.5 MB/s |"
	echo "|---|---|---|---|---|"
} >> "$MD"
for kb in 64 256 1024 4096 16384 32768; do
	n=$(awk -v k="$kb" '$1 == k' "$T/moves" | wc -l)
	[ "$n" -gt 0 ] || { echo "bench-migration: no move of $kb KiB" >&2; exit 1; }
	sec=$(awk -v k="$kb" '$1 == k { printf "%.6f\n", $3 }' "$T/moves" | median)
	bytes=$(awk -v k="$kb" '$1 == k { print $2; exit }' "$T/moves")
	awk -v k="$kb" -v n="$n" -v s="$sec" -v b="$bytes" -v l="$LINK" -v md="$MD" 'BEGIN {
		printf "| %d | %d | %.4f | %.3g | %.2f |\n", k, n, s, b / s, b / s / l >> md
		printf "| migration | fig. 4 move of %d KiB over 100 Mbit/s: throughput (MB/s), median of %d moves (%.3f s) | %.2f | 12.50 | %.2f | %s |\n",
		    k, n, s, b / s / 1e6, b / s / l, (k >= 4096 ? ">= 0.80" : "-") }'
done
# seconds = a + bytes / rate, least squares over every move
awk -v l="$LINK" -v md="$MD" '{ x = $2; y = $3; n++; sx += x; sy += y; sxx += x * x; sxy += x * y; syy += y * y }
END {
	b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
	r2 = (n * sxy - sx * sy) ^ 2 / ((n * sxx - sx * sx) * (n * syy - sy * sy))
	printf "\nLeast squares over %d moves: seconds = %.4f + bytes / %.4g (r^2 %.4f)\n", n, a, 1 / b, r2 >> md
	printf "| migration | fig. 4 linear fit over %d moves: r^2 (seconds = %.4f + bytes / %.3g B/s) | %.4f | - | %.2f of the link | >= 0.99 |\n",
	    n, a, 1 / b, r2, 1 / b / l }' "$T/moves"

# --- 3: the overhead row
awk -v d="$ld0" -v b="$base" -v r="$RUNS" 'BEGIN {
	printf "| migration | overhead: ep unloaded, load-diff makespan (s), median of %d | %.3f | %.3f (none) | %.3f | <= 1.03 |\n",
	    r, d, b, d / b }'
echo "# per-run figures and every migration's reason: $MD"
