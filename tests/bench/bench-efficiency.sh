#!/bin/sh
# bench-efficiency.sh — the issue's grid at full size (doc/experiments.md, "The bound"):
# `simulate` of synthetic (40,000 units of 10 ms mean, seed 1) on 2,000 nodes in 20 sites
# behind links of 2 to 40 ms, under gss and pss: each run's efficiency against the
# divisible-load bound, which must be in (0, 1] (before the bound was built from the
# work and the nodes' speeds, gss reported 11.1 here), with its makespan, bound and wall
# time. make check runs the same at 200 nodes (tests/simulate/test-simulate-efficiency.sh).
# BENCH_EFF_NODES, BENCH_EFF_UNITS and BENCH_EFF_MEAN_US override the size. As root,
# vm.max_map_count is raised for the run if SMPI's copies of the program need it, and
# restored. Prints "| area | what | value | baseline | ratio | goal |" rows
# (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
NODES=${BENCH_EFF_NODES:-2000}
UNITS=${BENCH_EFF_UNITS:-40000}
MEAN=${BENCH_EFF_MEAN_US:-10000}
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

bench_sim_need bench-efficiency
bench_scratch
if ! bench_sim_maps $((NODES + 1)); then
	echo "| simulate | efficiency, $NODES nodes | SKIP: vm.max_map_count $BENCH_MAPS_HAVE < $BENCH_MAPS_NEED (needs root, or it could not be raised) | - | - | (0, 1] |"
	exit 0
fi

awk -v n="$NODES" 'BEGIN {
	print "defaults: {cores: 1, mem_mb: 4096, arch: x86_64}"
	print "sites:"
	for (s = 0; s < 20; s++) {
		printf "  - name: site%d\n", s
		printf "    link: {bandwidth_mbps: 100, latency_ms: %d}\n", 2 + 2 * s
		printf "    nodes:\n      - {host: \"s%dn[0001-%04d]\", cpu_mhz: %d}\n", s, n / 20,
		    1000 + 100 * s
	}
}' > "$T/sites.yaml"
cat > "$T/job.yaml" <<EOF
name: efficiency
program: $SYN
args: ["--units", "$UNITS", "--mean-us", "$MEAN", "--seed", "1"]
ranks: $((NODES + 1))
EOF
status=0
for s in gss pss; do
	if ! "$GS" simulate "$T/job.yaml" --sites "$T/sites.yaml" --scheme "$s" --json \
	    > "$T/out.json" 2> "$T/err"; then
		echo "bench-efficiency: $s failed:" >&2
		tail -n 20 "$T/err" >&2
		status=1
		continue
	fi
	jq -r --arg s "$s" --arg n "$NODES" --arg u "$UNITS" --arg m "$MEAN" '
	    "| simulate | efficiency, synthetic \($u) units of \($m) us, \($s), \($n) nodes in 20 sites (2-40 ms) | \(.efficiency * 1000 | round / 1000) | T_LB \(.bound.t_lb * 1000 | round / 1000) s, makespan \(.makespan * 1000 | round / 1000) s | - | (0, 1] |",
	    "# bench-efficiency: \($s): work \(.bound.work) s, speeds \(.bound.speeds), port \(.bound.port) s, port dropped \(.bound.port_dropped), wall \(.wall_seconds) s"' \
	    "$T/out.json"
	jq -e '.efficiency > 0 and .efficiency <= 1' "$T/out.json" > /dev/null || {
		echo "# bench-efficiency: $s: efficiency out of (0, 1]"; status=1; }
done
exit $status
