#!/bin/sh
# bench-status-scale.sh — `gridsubmit status` and `gridsubmit list` on a job of 10,000 ranks
# (issue 34). The job is a real one: `gridsubmit simulate` of the synthetic loop (gss,
# --check, 10 units per rank) on 9,999 nodes of 10 sites and a master, as
# bench-simulate-scale.sh runs it, writes its job directory (state.json, rankmap,
# hostfile, events.jsonl) into a store of its own. status and list are then timed on it
# as the job left them, and again with 400,000 more chunk records of its workers put into
# its events.jsonl after the start record (8 units each, the stream of a longer run of the
# same ranks: status reads every record for the progress). Each figure is the median of
# BENCH_STATUS_TRIALS (default 5) runs: CPU time (user + system) and wall time, with the
# output to /dev/null. Goal: under 1 s each. As root, vm.max_map_count is raised for the
# simulation (SMPI maps the program about 7 times a rank) and restored after; otherwise a
# SKIP row. Prints "| area | what | value | baseline | ratio | goal |" rows
# (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
TRIALS=${BENCH_STATUS_TRIALS:-5}
NODES=9999
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

bench_sim_need bench-status-scale
bench_scratch

bench_sim_maps $((NODES + 1))
case $? in
1)	echo "| status | status and list, 10,000 ranks | SKIP: vm.max_map_count $BENCH_MAPS_HAVE < $BENCH_MAPS_NEED (needs root) | - | - | < 1 s |"
	exit 0 ;;
2)	echo "bench-status-scale: cannot raise vm.max_map_count" >&2
	exit 1 ;;
esac

# 9,999 nodes for the workers in 10 sites, the master one more of the last: 10,000 ranks
awk -v n="$NODES" 'BEGIN {
	print "master: s9n0000"
	print "defaults: {cores: 1, mem_mb: 4096, arch: x86_64}"
	print "sites:"
	for (s = 0; s < 10; s++) {
		printf "  - name: site%d\n", s
		printf "    link: {bandwidth_mbps: 1000, latency_ms: %g}\n", 0.5 + s / 2
		print "    nodes:"
		printf "      - {host: \"s%dn[%04d-%04d]\", cpu_mhz: %d}\n", s,
		    s < 9 ? 1 : 0, s < 9 ? 1000 : n - 9000, 1000 + 200 * s
	}
}' > "$T/sites.yaml"
cat > "$T/job.yaml" <<EOF
name: status-scale
program: $SYN
args: ["--units", "$(((NODES + 1) * 10))", "--mean-us", "20", "--seed", "1", "--check"]
ranks: $((NODES + 1))
runtime: {scheme: gss}
EOF
if ! "$GS" simulate "$T/job.yaml" --sites "$T/sites.yaml" --json > "$T/sim.json" 2> "$T/err"; then
	echo "bench-status-scale: simulate of $NODES nodes failed:" >&2
	tail -n 20 "$T/err" >&2
	exit 1
fi
id=$(jq -r .id "$T/sim.json")
dir=$(jq -r .dir "$T/sim.json")
ranks=$(jq -r .ranks "$T/sim.json")
[ "$ranks" = $((NODES + 1)) ] ||
    { echo "bench-status-scale: the job has $ranks ranks, not $((NODES + 1))" >&2; exit 1; }
rm -rf "$dir/.smpi"

# timed CMD...: median CPU and wall seconds of TRIALS runs, as "CPU WALL"
timed() {
	: > "$T/times"
	i=0
	while [ "$i" -lt "$TRIALS" ]; do
		/usr/bin/time -f '%U %S %e' -o "$T/t1" "$@" > /dev/null 2> "$T/err" ||
		    { echo "bench-status-scale: $* failed:" >&2; tail -n 5 "$T/err" >&2; return 1; }
		awk '{ print $1 + $2, $3 }' "$T/t1" >> "$T/times"
		i=$((i + 1))
	done
	cpu=$(awk '{ print $1 }' "$T/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	wall=$(awk '{ print $2 }' "$T/times" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	echo "$cpu $wall"
}

# row WHAT CPU WALL
row() {
	awk -v w="$1" -v c="$2" -v e="$3" -v n="$TRIALS" 'BEGIN {
		printf "| status | %s, median of %d: CPU s (wall s) | %.2f (%.2f) | - | - | < 1 s |\n",
		    w, n, c, e
	}'
}

status=0
measure() {
	ev=$(wc -l < "$dir/events.jsonl")
	mb=$(du -m "$dir/events.jsonl" | cut -f1)
	for c in "status $id" "status $id --json" "list" "list --json"; do
		# shellcheck disable=SC2086 # the command's words
		if r=$(timed "$GS" $c); then
			# shellcheck disable=SC2086
			row "gridsubmit $c, a job of $ranks ranks, events.jsonl of $ev records ($mb MB)$1" $r
		else
			status=1
		fi
	done
}

measure ""
# 400,000 chunk records of its workers after the start record, as a longer run writes them
awk -v ranks="$ranks" 'NR == 1 { print; next } { rest[++n] = $0 } END {
	srand(1)
	for (c = 0; c < 400000; c++) {
		r = 1 + int(rand() * (ranks - 1))
		printf "{\"v\":1,\"t\":%.4f,\"ev\":\"chunk\",\"rank\":%d,\"round\":1,\"start\":%d,", \
		    c / 1e5, r, 8 * c
		printf "\"count\":8,\"t_calc\":0.0002,\"t_comm\":0.0001,\"t_exe\":0.0003}\n"
	}
	for (i = 1; i <= n; i++)
		print rest[i]
}' "$dir/events.jsonl" > "$T/events.jsonl" && mv "$T/events.jsonl" "$dir/events.jsonl"
measure " (400,000 chunk records put in)"
exit $status
