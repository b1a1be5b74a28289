#!/bin/sh
# bench-launch-scale.sh — launch as the grid grows (issue 34, "Launch measured as it
# grows"): on testbeds of 16, 32, 64 and 128 nodes in 4 sites (--no-speeds, every node
# with a file system of its own, emulate: {private_fs: true}, so that the program is
# staged as on a real grid and no node runs this host's login scripts), `gridsubmit run`
# of the synthetic loop on every node plus rank 0 here, to its first chunk and to its end,
# against a bare mpiexec of the same program on the same hostfile, ssh config and shared
# connections. gridsubmit's parts come from the job's own records: the checks (the
# speculative launch and the preflight) and the staging before mpiexec starts (state.json's
# submitted and started; the staging is the slowest node's copies and check in stage.log),
# then hydra's proxies and MPI_Init (started to the start event), then the first chunk.
#
# The overhead is (gridsubmit's time - bare mpiexec's time) / bare mpiexec's time, to the
# first chunk and to the end: what gridsubmit adds, in units of what the launch costs
# without it; the goal is <= 1.0. Both run the same copy of the program, in a directory of
# /var/cache, which every node sees (doc/testbed.md, "A node without this host's files"):
# installed on every node, as on a real grid; gridsubmit stages only its rank wrapper.
# Each size: one unmeasured run of each kind first, then BENCH_LAUNCH_TRIALS (default 3)
# trials of both, alternating which goes first; medians. The load average is printed
# beside each size: the host has 2 cores, shared with whatever else runs.
# Sizes: BENCH_LAUNCH_NODES (default "16 32 64 128"). Needs root.
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
MPIEXEC=${MPIEXEC:-mpiexec}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
SIZES=${BENCH_LAUNCH_NODES:-16 32 64 128}
TRIALS=${BENCH_LAUNCH_TRIALS:-3}
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_scratch
V=$(mktemp -d /var/cache/gs-bench-launch.XXXXXX) || exit 1
trap 'rm -rf "$V"; bench_cleanup' EXIT

[ -x "$SYN" ] || { echo "bench-launch-scale: $SYN not built (make)" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ] || ! ip netns list >/dev/null 2>&1; then
	printf '| launch | run vs bare mpiexec at 16-128 nodes | SKIP: needs root | - | - | <= 1.0 |\n'
	exit 0
fi
cp "$SYN" "$V/synthetic"
ARGS='"--units", "20000", "--mean-us", "50", "--seed", "1", "--check"'

# sites N: N nodes in 4 sites of N/4, on stdout
sites() {
	awk -v n="$1" 'BEGIN {
		print "sites:"
		for (s = 1; s <= 4; s++) {
			printf "  - name: s%d\n    link: {bandwidth_mbps: 1000, latency_ms: 0}\n", s
			printf "    nodes:\n      - {host: \"l%dn[%03d-%03d]\", cpu_mhz: 2000, " \
			    "cores: 1, mem_mb: 256, emulate: {private_fs: true}}\n", s, 1, n / 4
		}
	}'
}

# last_job: the id of the newest job of the store
last_job() { ls "$GRIDSUBMIT_HOME/jobs" | grep -E '^[0-9]+$' | sort -n | tail -1; }

# iso SECONDS-SINCE-EPOCH of an ISO 8601 UTC time with milliseconds
iso() { date -u -d "$1" +%s.%N; }

# gs_run N: one gridsubmit run; prints "first end checks staging proxies" (seconds)
gs_run() {
	t0=$(bench_now)
	timeout -k 5 600 "$GS" run "$T/job-$1.yaml" --sites "$GRIDSUBMIT_HOME/testbed/scale$1/sites.yaml" \
	    > "$T/gs.out" 2>&1 ||
	    { echo "bench-launch-scale: run on $1 nodes failed" >&2; tail -5 "$T/gs.out" >&2
	      return 1; }
	t1=$(bench_now)
	jd=$GRIDSUBMIT_HOME/jobs/$(last_job)
	sub=$(iso "$(jq -r .submitted "$jd/state.json")")
	la=$(iso "$(jq -r .started "$jd/state.json")")
	base=$(iso "$(jq -r .t0 "$jd/state.json")")
	st=$(sed -n 's/.*"t":\([0-9.e+-]*\),"ev":"start".*/\1/p' "$jd/events.jsonl" | tail -1)
	fc=$(sed -n 's/.*"t":\([0-9.e+-]*\),"ev":"chunk".*/\1/p' "$jd/events.jsonl" | head -1)
	stage=$(awk '$1 == "bin" || $1 == "in" { s[$2] += $5 } $1 == "verify" { s[$2] += $4 }
	    END { for (h in s) if (s[h] > m) m = s[h]; print m + 0 }' "$jd/stage.log" 2>/dev/null)
	awk -v t0="$t0" -v t1="$t1" -v sb="$sub" -v la="$la" -v b="$base" -v st="$st" \
	    -v fc="$fc" -v sg="${stage:-0}" 'BEGIN {
		printf "%.3f %.3f %.3f %.3f %.3f\n", b + fc - t0, t1 - t0, la - sb - sg, sg,
		    b + st - la
	}'
}

# bare_run N: one bare mpiexec of the same ranks on the hostfile of the last gridsubmit
# run; prints "first end"
bare_run() {
	rm -f "$V/events.jsonl"
	t0=$(bench_now)
	"$@" > "$T/bare.out" 2>&1 &
	p=$!
	first=""
	while kill -0 "$p" 2>/dev/null; do
		[ -z "$first" ] && grep -q '"ev":"chunk"' "$V/events.jsonl" 2>/dev/null &&
		    first=$(bench_now)
		sleep 0.01
	done
	wait "$p" || { echo "bench-launch-scale: bare mpiexec failed" >&2
		tail -5 "$T/bare.out" >&2; return 1; }
	t1=$(bench_now)
	[ -n "$first" ] || first=$t1
	awk -v a="$t0" -v f="$first" -v e="$t1" 'BEGIN { printf "%.3f %.3f\n", f - a, e - a }'
}

status=0
for n in $SIZES; do
	sites "$n" > "$T/scale$n.yaml"
	cat > "$T/job-$n.yaml" <<EOF
name: scale$n
program: $V/synthetic
args: [$ARGS]
ranks: $((n + 1))
runtime: {scheme: gss}
restarts: 0
EOF
	u0=$(bench_now)
	# down at exit also when up is interrupted halfway
	TESTBED=$T/scale$n.yaml
	if ! "$GS" testbed up --no-speeds "$T/scale$n.yaml" > "$T/up.out" 2>&1; then
		echo "bench-launch-scale: testbed up of $n nodes failed" >&2
		tail -5 "$T/up.out" >&2
		"$GS" testbed down "$TESTBED" > /dev/null 2>&1
		TESTBED=""
		status=1
		continue
	fi
	up=$(awk -v a="$u0" -v b="$(bench_now)" 'BEGIN { printf "%.1f", b - a }')
	iface=$(sed -n 's/.*on bridge \(gs[0-9a-f]*br\).*/\1/p' "$T/up.out")
	# the unmeasured runs: shared connections, page cache, the hostfile
	if ! gs_run "$n" > /dev/null; then
		status=1
		"$GS" testbed down "$TESTBED" > /dev/null 2>&1
		TESTBED=""
		continue
	fi
	J=$GRIDSUBMIT_HOME/jobs/$(last_job)
	cat > "$T/plain-ssh" <<EOF
#!/bin/sh
[ "\$1" = -x ] && shift
exec ssh -F "$J/ssh_config" -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=60 \
	-o "ControlPath=$GRIDSUBMIT_HOME/ssh/%C" "\$@"
EOF
	chmod +x "$T/plain-ssh"
	# rank 0's UCX on the testbed's bridge only, as gridsubmit gives it (doc/reliability.md,
	# "UCX's network devices"): other testbeds' bridges are unreachable from these nodes
	set -- env UCX_NET_DEVICES="$iface" timeout -k 5 600 "$MPIEXEC" -launcher ssh -launcher-exec "$T/plain-ssh" \
	    -iface "$iface" -genvnone -genv UCX_TLS self,tcp -disable-auto-cleanup \
	    -genv GRT_FINALIZE skip -f "$J/hostfile" -n $((n + 1)) -wdir "$V" \
	    -genv GRT_SCHEME gss -genv GRT_EVENTS "$V/events.jsonl" \
	    -genv GRT_RANKMAP "$J/rankmap" "$V/synthetic" --units 20000 --mean-us 50 \
	    --seed 1 --check
	bare_run "$@" > /dev/null || status=1
	: > "$T/trials"
	i=1
	while [ "$i" -le "$TRIALS" ]; do
		[ $((i % 2)) -eq 1 ] && b=$(bare_run "$@")
		g=$(gs_run "$n") || { status=1; break; }
		[ $((i % 2)) -eq 0 ] && b=$(bare_run "$@")
		echo "$g $b" >> "$T/trials"
		echo "# $n nodes, trial $i: gridsubmit first, end, checks, staging, proxies+init $g s; bare mpiexec first, end $b s"
		i=$((i + 1))
	done
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	"$GS" testbed down "$TESTBED" > /dev/null 2>&1
	TESTBED=""
	[ -s "$T/trials" ] || continue
	col() { awk -v c="$1" '{ print $c }' "$T/trials" | bench_median; }
	over() { awk -v a="$1" -v b="$2" '{ print ($a - $b) / $b }' "$T/trials" | bench_median; }
	printf '| launch | run -> first chunk, %d nodes in 4 sites + rank 0 here (testbed up %s s, load %s) | %.2f s | %.2f s (bare mpiexec) | %.2f | <= 1.0 (overhead) |\n' \
	    "$n" "$up" "$load" "$(col 1)" "$(col 6)" "$(over 1 6)"
	printf '| launch | run -> end, %d nodes | %.2f s | %.2f s (bare mpiexec) | %.2f | <= 1.0 (overhead) |\n' \
	    "$n" "$(col 2)" "$(col 7)" "$(over 2 7)"
	printf '| launch | run'"'"'s parts, %d nodes: checks, staging (slowest node), proxies + MPI_Init | %.2f s, %.2f s, %.2f s | - | - | - |\n' \
	    "$n" "$(col 3)" "$(col 4)" "$(col 5)"
done
exit $status
