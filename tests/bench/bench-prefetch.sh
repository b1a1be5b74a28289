#!/bin/sh
# bench-prefetch.sh — prefetching (doc/runtime.md, "Prefetching") against none on an
# emulated grid: three sites of one node each behind links of 2, 10 and 20 ms, the master
# on this host, mandelbrot over `gridsubmit run`, the same job with `prefetch: false` and
# with `prefetch: auto` (the default), 5 trials each, interleaved (which goes first
# alternates); makespans from the "end" event, medians, the ratio auto / false. Two
# schemes: css with 8-row chunks (each chunk's compute, a few ms, is short against the
# links' round trips: what prefetching is for) and gss (big chunks first: auto leaves
# them alone, so the two should be close). As root with ip netns; otherwise it says so and
# prints no row (the latency is the point: on this host there is none to hide).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
MANDEL=$SRC/$BUILD/examples/mandelbrot
TRIALS=${BENCH_PREFETCH_TRIALS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-pf.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export NO_COLOR=1
TESTBED=""
cleanup() {
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$MANDEL" ] || { echo "bench-prefetch: $MANDEL not built (make)" >&2; exit 1; }
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_testbed_skip bench-prefetch && exit 0
cat > "$T/wan3.yaml" <<'EOF2'
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 2}
    nodes: [{host: pfn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: mid
    link: {bandwidth_mbps: 100, latency_ms: 10}
    nodes: [{host: pfm1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: far
    link: {bandwidth_mbps: 100, latency_ms: 20}
    nodes: [{host: pff1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
EOF2
if ! "$GS" testbed up "$T/wan3.yaml" > "$T/up.out" 2>&1; then
	echo "bench-prefetch: testbed up failed:" >&2
	cat "$T/up.out" >&2
	exit 1
fi
TESTBED=$T/wan3.yaml
SITES=$GRIDSUBMIT_HOME/testbed/wan3/sites.yaml

# job SCHEME K PREFETCH: a job file for mandelbrot 1024 rows on 4 ranks
job() {
	cat > "$T/job-$1-$3.yaml" <<EOF2
name: bench-prefetch
program: $MANDEL
args: ["--size", "1024", "--iter", "600", "--check"]
ranks: 4
runtime: {scheme: $1, k: $2, prefetch: $3}
EOF2
}

# run SCHEME PREFETCH: one run; prints its makespan
run() {
	next=$(cat "$GRIDSUBMIT_HOME/jobs/next-id" 2>/dev/null || echo 1)
	if ! "$GS" run "$T/job-$1-$2.yaml" --sites "$SITES" > "$T/run.out" 2>&1 ||
	    ! grep -q matches "$T/run.out"; then
		echo "bench-prefetch: $1 prefetch $2 failed:" >&2
		cat "$T/run.out" >&2
		return 1
	fi
	sed -n 's/.*"ev":"end".*"makespan":\([0-9.eE+-]*\).*/\1/p' \
	    "$GRIDSUBMIT_HOME/jobs/$next/events.jsonl"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

status=0
for sk in css:8 gss:1; do
	s=${sk%:*} k=${sk#*:}
	job "$s" "$k" false
	job "$s" "$k" auto
	run "$s" auto > /dev/null || { status=1; continue; }	# warm: ssh, page cache
	: > "$T/off" && : > "$T/on"
	i=1
	while [ "$i" -le "$TRIALS" ]; do
		if [ $((i % 2)) -eq 1 ]; then
			run "$s" false >> "$T/off" && run "$s" auto >> "$T/on"
		else
			run "$s" auto >> "$T/on" && run "$s" false >> "$T/off"
		fi || status=1
		i=$((i + 1))
	done
	off=$(median < "$T/off") on=$(median < "$T/on")
	echo "# $s (k $k): makespans without prefetching: $(tr '\n' ' ' < "$T/off")"
	echo "# $s (k $k): makespans with prefetch auto:  $(tr '\n' ' ' < "$T/on")"
	if [ -z "$off" ] || [ -z "$on" ]; then
		continue
	fi
	label="$s"
	[ "$s" = css ] && label="css k $k"
	awk -v l="$label" -v a="$on" -v b="$off" 'BEGIN {
		printf "| libgrt | prefetch auto, mandelbrot 1024, %s, testbed 2/10/20 ms | %.3f s | %.3f s (no prefetching) | %.2f | - |\n",
		    l, a, b, a / b
	}'
done
exit $status
