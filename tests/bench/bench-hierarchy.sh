#!/bin/sh
# bench-hierarchy.sh — libgrt's sub-masters against the flat master in `gridsubmit simulate`
# (doc/runtime.md, "The hierarchy"): the synthetic loop (20 units of 10 ms per node,
# --check) on grids of 1,000 and 2,000 nodes (BENCH_HIER_NODES) in 20 sites whose links to
# the master have latencies from 2 to 40 ms (1 Gbit/s; one link per site that its nodes
# share, --links site, a LAN of 0.01 ms inside), with pss and gss (BENCH_HIER_SCHEMES),
# runtime: {hierarchy: none} and {hierarchy: site}.
#
# Simulated time is compressed 100 times (smpi/host-speed 1e11 flops instead of 1e9, and a
# rank's first contact 0.14 ms of CPU instead of 14, so that it stays 14 ms simulated): a
# unit of 10 ms simulated costs 0.1 ms of this host's CPU, and 40,000 of them take seconds,
# not minutes. CPU bursts under 50 us of this host (5 ms simulated: the master's and the
# sub-masters' work per message) are not charged (smpi/cpu-threshold): neither master pays
# for its messages, which favours the flat one, whose master handles every chunk. Units
# are all 10 ms (--uniform), so that none of them falls under that threshold.
#
# For each run: the simulated makespan, simulate's efficiency (the divisible-load bound of
# experiment/exp-metrics.c as simulate reports it today), the busy share (the chunks'
# compute time over every rank but the master times the makespan: sub-masters count as
# idle ranks), wall time and peak RSS (/usr/bin/time). Every run must exit 0 (its check
# passed) within 20 minutes. Prints "| area | what | value | baseline | ratio | goal |" rows
# (tests/bench/run-bench.sh): the value is the hierarchy's, the baseline the flat master's.
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
SIZES=${BENCH_HIER_NODES:-1000 2000}
SCHEMES=${BENCH_HIER_SCHEMES:-pss gss}
SITES=20
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

bench_sim_need bench-hierarchy
bench_scratch

# sites N: N nodes in $SITES sites, latencies 2..40 ms, clocks 1000..1400 MHz; the master
# one more node of the first site
sites() {
	awk -v n="$1" -v s="$SITES" 'BEGIN {
		print "master: s0n0000"
		print "defaults: {cores: 1, mem_mb: 4096, arch: x86_64}"
		print "sites:"
		per = int(n / s)
		for (i = 0; i < s; i++) {
			printf "  - name: site%d\n", i
			printf "    link: {bandwidth_mbps: 1000, latency_ms: %g}\n",
			    2 + 38 * i / (s - 1)
			print "    nodes:"
			printf "      - {host: \"s%dn[%04d-%04d]\", cpu_mhz: %d}\n", i,
			    i == 0 ? 0 : 1, per, 1000 + 100 * (i % 5)
		}
	}'
}

# run N SCHEME HIER: sets WALL (s), RSS (MB), MAKESPAN, EFF, BUSY, or fails
run() {
	ranks=$(($1 + 1))
	cat > "$T/job.yaml" <<EOF2
name: hier-$1-$2-$3
program: $SYN
args: ["--units", "$(($1 * 20))", "--mean-us", "10000", "--seed", "1", "--uniform", "--check"]
ranks: $ranks
runtime: {scheme: $2, hierarchy: $3}
EOF2
	if ! timeout -k 10 1200 /usr/bin/time -v -o "$T/time" "$GS" simulate "$T/job.yaml" \
	    --sites "$T/sites-$1.yaml" --links site --cfg smpi/host-speed:1e11f \
	    --cfg smpi/cpu-threshold:5e-5 --first-contact-ms 0.14 --json \
	    > "$T/out.json" 2> "$T/err"; then
		echo "bench-hierarchy: simulate of $1 nodes, $2, hierarchy $3 failed:" >&2
		tail -n 20 "$T/err" >&2
		return 1
	fi
	WALL=$(jq -r .wall_seconds "$T/out.json")
	MAKESPAN=$(jq -r .makespan "$T/out.json")
	EFF=$(jq -r .efficiency "$T/out.json")
	BUSY=$(jq -s '(map(select(.ev == "chunk") | .t_calc) | add) as $c |
	    (map(select(.ev == "end"))[-1].makespan) as $m |
	    (map(select(.ev == "start"))[-1].ranks | length) as $n | $c / (($n - 1) * $m)' \
	    "$(jq -r .dir "$T/out.json")/events.jsonl")
	RSS=$(awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$T/time")
}

status=0
for n in $SIZES; do
	sites "$n" > "$T/sites-$n.yaml"
	if ! bench_sim_maps $((n + 1)); then
		echo "| simulate | hierarchy, $n nodes | SKIP: vm.max_map_count $BENCH_MAPS_HAVE < $BENCH_MAPS_NEED (needs root, or it could not be raised) | - | - | - |"
		continue
	fi
	for s in $SCHEMES; do
		run "$n" "$s" none || { status=1; continue; }
		flat="$MAKESPAN $EFF $BUSY $WALL $RSS"
		run "$n" "$s" site || { status=1; continue; }
		echo "$flat" | awk -v n="$n" -v s="$s" -v m="$MAKESPAN" -v e="$EFF" -v b="$BUSY" \
		    -v w="$WALL" -v r="$RSS" '{
			printf "| simulate | hierarchy site vs none, %s, %d nodes in 20 sites: makespan (efficiency, busy share; wall, RSS) | %.3f s (%.3g, %.3f; %.0f s, %.0f MB) | %.3f s (%.3g, %.3f; %.0f s, %.0f MB) | %.2f | <= 1, busy >= 0.9 at 10,000 |\n",
			    s, n, m, e, b, w, r, $1, $2, $3, $4, $5, ($1 > 0 ? m / $1 : 0)
		}'
	done
done
exit $status
