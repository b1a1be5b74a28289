#!/bin/sh
# bench-sim-master.sh — what a result costs the master in simulation against what it costs
# the native master on this host, measured in the same run (doc/simulate.md, "The
# master's cost"): natively, bench-grt's chunk rate (pss, one-unit chunks, empty compute,
# events off; mpiexec -n 2), a result every 1 / rate; simulated, synthetic's 20,000 empty
# units under pss on 32 workers whose links are never the limit (10 Gbit/s, 1 us), so
# that the master is: the simulated time between its 5,000th and 15,000th chunk records
# over 10,000. The simulation charges the master what the native one costs when the
# ratio is near 1 (goal 0.8 to 1.25; measured about 12: not calibrated yet). Prints
# "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
MPIEXEC=${MPIEXEC:-mpiexec}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
HERE=$(dirname "$0")
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$HERE/lib-bench.sh"

for p in "$BUILD/tests/bench/bench-grt" "$SYN" "$(dirname "$SYN")/smpi/synthetic"; do
	[ -x "$p" ] || { echo "bench-sim-master: $p is not built (make bench, with smpicc)" >&2
		exit 1; }
done
bench_scratch

# native: the median rate of bench-grt's trials, events off
BUILD=$BUILD MPIEXEC=$MPIEXEC sh "$HERE/bench-grt.sh" > "$T/grt" 2>&1 ||
	{ echo "bench-sim-master: bench-grt failed:" >&2; cat "$T/grt" >&2; exit 1; }
rate=$(awk -F'|' '$3 ~ /events off *$/ && $3 !~ /no prefetching/ {
	v = $4; gsub(/[^0-9.]/, "", v); print v; exit }' "$T/grt")
[ -n "$rate" ] || { echo "bench-sim-master: no rate in bench-grt's rows" >&2; exit 1; }

cat > "$T/sites.yaml" <<'YAML'
sites:
  - name: lan
    link: {bandwidth_mbps: 10000, latency_ms: 0.001}
    nodes:
      - {host: "n[01-32]", cpu_mhz: 3000, cores: 1}
YAML
cat > "$T/job.yaml" <<YAML
name: master-cost
program: $SYN
args: ["--units", "20000", "--mean-us", "0", "--seed", "1"]
ranks: 33
runtime: {scheme: pss}
YAML
if ! "$GS" simulate "$T/job.yaml" --sites "$T/sites.yaml" --first-contact-ms 0 --json \
    > "$T/out.json" 2> "$T/err"; then
	echo "bench-sim-master: simulate failed:" >&2
	tail -n 20 "$T/err" >&2
	exit 1
fi
dir=$(jq -r .dir "$T/out.json")
sim=$(sed -n 's/.*"t":\([0-9.e+-]*\),"ev":"chunk".*/\1/p' "$dir/events.jsonl" |
	awk 'NR == 5000 { a = $1 } NR == 15000 { b = $1 } END { if (b > a) print (b - a) / 10000 * 1e6 }')
[ -n "$sim" ] || { echo "bench-sim-master: fewer than 15,000 chunk records" >&2; exit 1; }
awk -v s="$sim" -v r="$rate" 'BEGIN {
	n = 1e6 / r
	printf "| simulate | the master'"'"'s cost per result, simulated (32 workers, pss, empty units) | %.2f us | native %.2f us (bench-grt, %.0f chunks/s) | %.2f | 0.8 - 1.25 |\n", s, n, r, s / n
}'
