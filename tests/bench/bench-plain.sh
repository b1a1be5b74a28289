#!/bin/sh
# bench-plain.sh — a plain MPI program (examples/pi, no libgrt) through `gridsubmit run -n 4
# --oversubscribe -- PROGRAM ARGS` (no job file, as srun users run it; 4 ranks whatever
# this host's cores, as the bare side runs them) against a bare mpiexec of the same
# program on the same hosts, to the end (issue 31): on this host (fork launcher), and as
# root (with ip netns) on an emulated 3-site testbed as well (one node per site, rank 0
# here, the same command with --sites). On the testbed the program is /bin/sleep 2, not pi:
# over tcp, MPICH 4.0.2's MPI_Finalize hangs in most runs of a plain MPI program under a
# bare mpiexec (doc/reliability.md, "MPI_Finalize over tcp"), so the baseline could not be
# timed. One unmeasured run of each first (page cache, warm ssh connections); then PAIRS
# pairs, each a bare run and a gridsubmit run back to back, which goes first alternating;
# the ratio is the median of the pairs' own ratios (runs of one pair share this VM's mood
# of the moment).
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
MPIEXEC=${MPIEXEC:-mpiexec}
PAIRS=${PAIRS:-7}
SRC=$(pwd)
PI=$SRC/$BUILD/examples/pi
N=400000000
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_scratch

[ -x "$PI" ] || { echo "bench-plain: $PI not built (make)" >&2; exit 1; }

# took CMD...: the seconds CMD takes to its end; a failure is said
took() {
	t0=$(bench_now)
	"$@" > "$T/m.out" 2>&1 || { echo "bench-plain: failed: $*" >&2; sed -e 's/^/#   /' "$T/m.out" >&2; }
	t1=$(bench_now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }'
}

# the program and its args, as run's words after -- (paths without blanks)
PROG="$PI --n $N"

# pairs WHAT WHERE SITES_ARG BARE...: PAIRS pairs of `gridsubmit run` and the bare command,
# a row
pairs() {
	what=$1 where=$2 sites=$3
	shift 3
	# shellcheck disable=SC2086
	"$GS" run $sites -n 4 --oversubscribe -- $PROG > /dev/null 2>&1
	"$@" > /dev/null 2>&1
	: > "$T/pairs"
	i=1
	while [ "$i" -le "$PAIRS" ]; do
		[ $((i % 2)) -eq 1 ] && b=$(took "$@")
		# shellcheck disable=SC2086
		g=$(took "$GS" run $sites -n 4 --oversubscribe -- $PROG)
		[ $((i % 2)) -eq 0 ] && b=$(took "$@")
		echo "# pair $i ($where): gridsubmit run $g s, bare mpiexec $b s"
		echo "$g $b" >> "$T/pairs"
		i=$((i + 1))
	done
	printf '| plain | run -> end, %s, 4 ranks, no libgrt (%s; median of %d pairs) | %.3f s | %.3f s (bare mpiexec) | %.3f | <= 1.1 |\n' \
	    "$what" "$where" "$PAIRS" "$(awk '{ print $1 }' "$T/pairs" | bench_median)" \
	    "$(awk '{ print $2 }' "$T/pairs" | bench_median)" \
	    "$(awk '{ print $1 / $2 }' "$T/pairs" | bench_median)"
}

# this host: the fork launcher, the job's own hostfile
# shellcheck disable=SC2086
"$GS" run -n 4 --oversubscribe -- $PROG > "$T/warm.out" 2>&1 ||
	{ echo "bench-plain: gridsubmit run failed" >&2; cat "$T/warm.out" >&2; exit 1; }
J=$GRIDSUBMIT_HOME/jobs/$(($(cat "$GRIDSUBMIT_HOME/jobs/next-id") - 1))
mkdir -p "$T/bare"
pairs "pi over $N intervals" "this host, fork launcher" "" "$MPIEXEC" -launcher fork \
    -f "$J/hostfile" -n 4 -wdir "$T/bare" "$PI" --n "$N"

bench_testbed_skip "bench-plain (3 sites)" && exit 0
cat > "$T/plain3.yaml" <<'EOF'
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes: [{host: bpf1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes: [{host: bpe1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes: [{host: bpw1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
EOF
if ! "$GS" testbed up "$T/plain3.yaml" > "$T/up.out" 2>&1; then
	echo "# bench-plain: testbed up failed: this host only"
	sed -e 's/^/#   /' "$T/up.out"
	exit 0
fi
TESTBED=$T/plain3.yaml
SITES=$GRIDSUBMIT_HOME/testbed/plain3/sites.yaml
PROG="/bin/sleep 2"
# shellcheck disable=SC2086
"$GS" run --sites "$SITES" -n 4 --oversubscribe -- $PROG > "$T/warm.out" 2>&1 ||
	{ echo "bench-plain: gridsubmit run on the testbed failed" >&2; cat "$T/warm.out" >&2; exit 1; }
J=$GRIDSUBMIT_HOME/jobs/$(($(cat "$GRIDSUBMIT_HOME/jobs/next-id") - 1))
# the bare baseline over ssh: a plain launcher on the job's ssh config and shared connections
iface=$(sed -n 's/.*on bridge \(gs[0-9a-f]*br\).*/\1/p' "$T/up.out")
cat > "$T/plain-ssh" <<EOF
#!/bin/sh
[ "\$1" = -x ] && shift
exec ssh -F "$J/ssh_config" -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=60 \
	-o "ControlPath=$GRIDSUBMIT_HOME/ssh/%C" "\$@"
EOF
chmod +x "$T/plain-ssh"
pairs "/bin/sleep 2" "testbed, 3 sites over ssh" "--sites $SITES" "$MPIEXEC" -launcher ssh \
    -launcher-exec "$T/plain-ssh" -iface "$iface" -f "$J/hostfile" -n 4 -wdir "$T/bare" \
    /bin/sleep 2
