#!/bin/sh
# bench-simulate-scale.sh — what `gridsubmit simulate` costs this host for a large grid:
# the wall time and peak memory of simulating the synthetic job (gss, --check, 10 units
# per rank) on 1,000 and 10,000 nodes of 10 sites (a site file generated here: host
# ranges, cpu_mhz and link bandwidth (10 to 1000 Mbit/s) varying by site), the master
# one more node of the last (fastest) site. Goal of the issue: 10,000 nodes in under 10 minutes
# and 8 GB on a 2-core host.
#
# SMPI loads the program once per rank, about 7 memory maps a rank (simulate.h,
# SIM_MAPS_PER_RANK): 10,001 ranks need a vm.max_map_count above Linux's default 65530.
# As root the limit is raised for the run and restored after; otherwise the size that
# does not fit is a SKIP row. Each rank's copy of the program is also held on smpirun's
# temporary directory's file system for the run (the binary's size times the ranks).
# Peak memory is /usr/bin/time's maximum resident set size of the processes it waited
# for (smpirun's simulator is the largest). Every run must exit 0 (its check passed).
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
SIZES=${BENCH_SIMSCALE_NODES:-1000 10000}
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

[ -x "$SYN" ] || { echo "bench-simulate-scale: $SYN not built (make)" >&2; exit 1; }
bench_sim_need bench-simulate-scale
bench_scratch

# sites N: a site file of N nodes in 10 sites and a master, on stdout
sites() {
	awk -v n="$1" 'BEGIN {
		split("10 17 28 46 77 129 215 359 599 1000", bw, " ")
		print "master: s9n0000"
		print "defaults: {cores: 1, mem_mb: 4096, arch: x86_64}"
		print "sites:"
		for (s = 0; s < 10; s++) {
			printf "  - name: site%d\n", s
			printf "    link: {bandwidth_mbps: %d, latency_ms: %g}\n", bw[s + 1],
			    0.5 + s / 2
			print "    nodes:"
			printf "      - {host: \"s%dn[%04d-%04d]\", cpu_mhz: %d}\n", s,
			    s == 9 ? 0 : 1, n / 10, 1000 + 200 * s
		}
	}'
}

# run N: simulate the job on N nodes; sets WALL (s), RSS (MB), MAKESPAN, EFF, or fails
run() {
	ranks=$(($1 + 1))
	sites "$1" > "$T/sites-$1.yaml"
	cat > "$T/job-$1.yaml" <<EOF
name: simscale-$1
program: $SYN
args: ["--units", "$((ranks * 10))", "--mean-us", "20", "--seed", "1", "--check"]
ranks: $ranks
runtime: {scheme: gss}
EOF
	if ! /usr/bin/time -v -o "$T/time" "$GS" simulate "$T/job-$1.yaml" \
	    --sites "$T/sites-$1.yaml" --json > "$T/out.json" 2> "$T/err"; then
		echo "bench-simulate-scale: simulate of $1 nodes failed:" >&2
		tail -n 20 "$T/err" >&2
		return 1
	fi
	WALL=$(jq -r .wall_seconds "$T/out.json")
	MAKESPAN=$(jq -r .makespan "$T/out.json")
	EFF=$(jq -r .efficiency "$T/out.json")
	RSS=$(awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$T/time")
	[ "$(jq -r .ranks "$T/out.json")" = "$ranks" ] ||
	    { echo "bench-simulate-scale: $1 nodes: not $ranks ranks" >&2; return 1; }
}

status=0
base=""
for n in $SIZES; do
	what="simulate synthetic gss, $n nodes in 10 sites, $((n * 10 + 10)) units"
	bench_sim_maps $((n + 1))
	case $? in
	1)	printf '| simulate | %s | SKIP: vm.max_map_count %s < %s (needs root) | - | - | < 600 s, < 8 GB |\n' \
		    "$what" "$BENCH_MAPS_HAVE" "$BENCH_MAPS_NEED"
		continue ;;
	2)	echo "bench-simulate-scale: cannot raise vm.max_map_count" >&2
		status=1
		continue ;;
	esac
	if ! run "$n"; then
		status=1
		continue
	fi
	if [ -z "$base" ]; then
		printf '| simulate | %s: wall, peak RSS | %.1f s, %.2f GB | - | - | < 600 s, < 8 GB |\n' \
		    "$what" "$WALL" "$(echo "$RSS" | awk '{ print $1 / 1024 }')"
		base="$WALL $RSS $n"
	else
		echo "$base" | awk -v w="$WALL" -v r="$RSS" -v what="$what" '{
			printf "| simulate | %s: wall, peak RSS | %.1f s, %.2f GB | %.1f s, %.2f GB (%d nodes) | %.1f | < 600 s, < 8 GB |\n",
			    what, w, r / 1024, $1, $2 / 1024, $3, ($1 > 0 ? w / $1 : 0)
		}'
	fi
	printf '# bench-simulate-scale: %s nodes: simulated makespan %.3f s, efficiency %.4f\n' \
	    "$n" "$MAKESPAN" "$EFF"
done
exit $status
