#!/bin/sh
# bench-finalize.sh — how often a plain MPI program ends across sites, with the finalize
# library gridsubmit-rank preloads (runtime/finalize/grt-finalize.c) and without it (issue
# 31): examples/pi (4 ranks, 1e7 intervals, rank 0 here and one on each node of a 3-site
# testbed, two of them private_fs) under `gridsubmit run`, RUNS runs each way, alternating.
# Without it means the job's `env: {GRT_FINALIZE: mpi}`: the library then calls MPICH's own
# MPI_Finalize, as every plain program did before. Each run is bounded by --time LIMIT
# (Slurm's format, default 0:40, 40 s): a run that hangs in MPI_Finalize ends there as a
# timeout (exit 8) and is counted as a hang.
# The row: the runs done with the right value, the hangs, and the median seconds from run to
# end of the runs that ended. Needs root and ip netns; prints a SKIP comment elsewhere.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
RUNS=${RUNS:-8}
LIMIT=${LIMIT:-0:40}
SRC=$(pwd)
PI=$SRC/$BUILD/examples/pi
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_scratch

[ -x "$PI" ] || { echo "bench-finalize: $PI not built (make)" >&2; exit 1; }
bench_testbed_skip bench-finalize && exit 0

cat > "$T/fin3.yaml" <<'EOF2'
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes: [{host: bff1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes: [{host: bfe1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}]
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes: [{host: bfw1, cpu_mhz: 2000, cores: 1, mem_mb: 256, emulate: {private_fs: true}}]
EOF2
if ! "$GS" testbed up "$T/fin3.yaml" > "$T/up.out" 2>&1; then
	echo "# bench-finalize: SKIP: testbed up failed"
	sed -e 's/^/#   /' "$T/up.out"
	exit 0
fi
TESTBED=$T/fin3.yaml
SITES=$GRIDSUBMIT_HOME/testbed/fin3/sites.yaml

# jobfile NAME [ENV_LINE]: pi's job file $T/NAME.yaml, 4 ranks, no restart
jobfile() {
	{
		echo "name: $1"
		echo "program: $PI"
		echo 'args: ["--n", "10000000"]'
		echo "ranks: 4"
		echo "restarts: 0"
		[ -n "$2" ] && echo "$2"
	} > "$T/$1.yaml"
}
jobfile with
jobfile without "env: {GRT_FINALIZE: mpi}"

# one NAME: a run of job NAME; "ok SECONDS", "hang" or "other STATUS" to $T/NAME.runs
one() {
	t0=$(bench_now)
	"$GS" run "$T/$1.yaml" --sites "$SITES" --no-metrics --time "$LIMIT" > "$T/o" 2> "$T/e"
	rc=$?
	t1=$(bench_now)
	if [ $rc -eq 0 ] && grep -q 'matches M_PI$' "$T/o"; then
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "ok %.3f\n", b - a }' >> "$T/$1.runs"
	elif [ $rc -eq 8 ]; then
		echo hang >> "$T/$1.runs"
	else
		echo "other $rc" >> "$T/$1.runs"
		sed -e 's/^/#   /' "$T/e" | tail -n 5
	fi
	echo "# $1 run $i: $(tail -n 1 "$T/$1.runs")"
}

# a warm-up run (page cache, ssh connections), not counted
"$GS" run "$T/with.yaml" --sites "$SITES" --no-metrics > /dev/null 2>&1
: > "$T/with.runs"
: > "$T/without.runs"
i=1
while [ "$i" -le "$RUNS" ]; do
	if [ $((i % 2)) -eq 1 ]; then one with; one without; else one without; one with; fi
	i=$((i + 1))
done
for w in with without; do
	okn=$(grep -c '^ok' "$T/$w.runs")
	hangs=$(grep -c '^hang' "$T/$w.runs")
	med=$(awk '$1 == "ok" { print $2 }' "$T/$w.runs" | bench_median)
	printf '| finalize | pi across 3 sites, 4 ranks, %s the finalize library: runs done, right value (hangs in MPI_Finalize, stopped at --time %s) | %d of %d (%d hung) | median %s s to the end | | %s |\n' \
	    "$w" "$LIMIT" "$okn" "$RUNS" "$hangs" "$med" \
	    "$([ "$w" = with ] && echo "all done" || echo "the control")"
done
