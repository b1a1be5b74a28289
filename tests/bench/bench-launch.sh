#!/bin/sh
# bench-launch.sh — launch overhead of gridsubmit (issue 5, "Tests and benchmark"): the time
# from `gridsubmit run` to the first chunk event and to the end, against a bare mpiexec of
# the same program with the same hostfile and the same ssh connections, in one run.
# As root (with ip netns) on an emulated 3-site testbed (one node per site, rank 0 here),
# otherwise on this host (fork launcher). ssh connections are warm (ControlPersist) for
# both: one unmeasured run of each first. 5 trials, each a bare run and a gridsubmit run
# back to back (which goes first alternates); a ratio is the median of the trials' own
# ratios: this VM's speed jumps between modes (a warm ssh command took 0.1 s one hour and
# 0.6 s the next), and runs of one trial share a mode where the best of each kind need not.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
MPIEXEC=${MPIEXEC:-mpiexec}
SRC=$(pwd)
MANDEL=$SRC/$BUILD/examples/mandelbrot
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_scratch

[ -x "$MANDEL" ] || { echo "bench-launch: $MANDEL not built (make)" >&2; exit 1; }

# measure EVENTS CMD...: "first end" seconds after the start: the first chunk event in
# EVENTS (a path, or a directory whose newest job's events we follow) and the end of CMD
measure() {
	ev=$1
	shift
	t0=$(bench_now)
	"$@" > "$T/m.out" 2>&1 &
	p=$!
	first=""
	while kill -0 "$p" 2>/dev/null; do
		if [ -z "$first" ] && grep -q '"ev":"chunk"' "$ev" 2>/dev/null; then
			first=$(bench_now)
		fi
		sleep 0.005
	done
	wait "$p" || { echo "bench-launch: failed: $*" >&2; sed -e 's/^/#   /' "$T/m.out" >&2; }
	t1=$(bench_now)
	[ -n "$first" ] || first=$t1
	awk -v a="$t0" -v f="$first" -v e="$t1" 'BEGIN { printf "%.4f %.4f\n", f - a, e - a }'
}

cat > "$T/job.yaml" <<EOF
name: bench-launch
program: $MANDEL
args: ["--size", "512", "--out", "m.pgm"]
ranks: 4
# on this host (no testbed): the same 4 ranks as on the testbed, whatever its cores
oversubscribe: true
runtime: {scheme: gss}
EOF

where="this host, fork launcher"
SITES_ARG=""
if [ "$(id -u)" -eq 0 ] && ip netns list >/dev/null 2>&1; then
	cat > "$T/bench3.yaml" <<'EOF'
sites:
  - name: fast
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes: [{host: bnf1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: eth
    link: {bandwidth_mbps: 10, latency_ms: 0.5}
    nodes: [{host: bne1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
  - name: wlan
    link: {bandwidth_mbps: 2, latency_ms: 3}
    nodes: [{host: bnw1, cpu_mhz: 2000, cores: 1, mem_mb: 256}]
EOF
	if "$GS" testbed up "$T/bench3.yaml" > "$T/up.out" 2>&1; then
		TESTBED=$T/bench3.yaml
		SITES_ARG="--sites $GRIDSUBMIT_HOME/testbed/bench3/sites.yaml"
		where="testbed, 3 sites over ssh"
	else
		echo "# bench-launch: testbed up failed, measuring on this host" >&2
	fi
fi

# one unmeasured run: warm ssh connections, page cache; gives the job's hostfile
# shellcheck disable=SC2086
"$GS" run "$T/job.yaml" $SITES_ARG > "$T/warm.out" 2>&1 ||
	{ echo "bench-launch: gridsubmit run failed" >&2; cat "$T/warm.out" >&2; exit 1; }
J=$GRIDSUBMIT_HOME/jobs/$(($(cat "$GRIDSUBMIT_HOME/jobs/next-id") - 1))
mkdir -p "$T/bare"
# the bare baseline: mpiexec, the same hostfile, ranks and program; over ssh a plain
# launcher using the same ssh config and shared connections (no checks, no quoting)
if [ -n "$TESTBED" ]; then
	iface=$(sed -n 's/.*on bridge \(gs[0-9a-f]*br\).*/\1/p' "$T/up.out")
	cat > "$T/plain-ssh" <<EOF
#!/bin/sh
[ "\$1" = -x ] && shift
exec ssh -F "$J/ssh_config" -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=60 \
	-o "ControlPath=$GRIDSUBMIT_HOME/ssh/%C" "\$@"
EOF
	chmod +x "$T/plain-ssh"
	set -- "$MPIEXEC" -launcher ssh -launcher-exec "$T/plain-ssh" -iface "$iface" \
		-genv UCX_TLS self,tcp
else
	set -- "$MPIEXEC" -launcher fork
fi
# the same end as under gridsubmit: no MPI_Finalize, which can hang over tcp (doc/runtime.md)
set -- "$@" -disable-auto-cleanup -genv GRT_FINALIZE skip \
	-f "$J/hostfile" -n 4 -wdir "$T/bare" -genv GRT_SCHEME gss \
	-genv GRT_EVENTS "$T/bare/events.jsonl" -genv GRT_RANKMAP "$J/rankmap" \
	"$MANDEL" --size 512 --out m.pgm
rm -f "$T/bare/events.jsonl"
"$@" > /dev/null 2>&1

: > "$T/trials"
# bare CMD...: measure the bare mpiexec CMD into bf and be
bare() {
	rm -f "$T/bare/events.jsonl"
	r=$(measure "$T/bare/events.jsonl" "$@")
	bf=${r% *} be=${r#* }
}
for i in 1 2 3 4 5; do
	[ $((i % 2)) -eq 1 ] && bare "$@"
	next=$(cat "$GRIDSUBMIT_HOME/jobs/next-id")
	# shellcheck disable=SC2086
	r=$(measure "$GRIDSUBMIT_HOME/jobs/$next/events.jsonl" "$GS" run "$T/job.yaml" $SITES_ARG)
	gf=${r% *} ge=${r#* }
	[ $((i % 2)) -eq 0 ] && bare "$@"
	echo "# trial $i: gridsubmit first chunk $gf s, end $ge s; bare mpiexec $bf s, $be s"
	echo "$gf $ge $bf $be" >> "$T/trials"
done
if [ -n "$TESTBED" ]; then
	t0=$(bench_now)
	ssh -F "$J/ssh_config" -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=60 \
		-o "ControlPath=$GRIDSUBMIT_HOME/ssh/%C" bnf1 true
	t1=$(bench_now)
	echo "# one warm ssh command (shared connection) here: $(awk -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.3f", b - a }') s; run checks the nodes inside mpiexec's own sessions"
fi
col() { awk -v c="$1" '{ print $c }' "$T/trials" | bench_median; }
ratio() { awk -v a="$1" -v b="$2" '{ print $a / $b }' "$T/trials" | bench_median; }
row() {
	printf '| launch | run -> %s, mandelbrot 512, 4 ranks (%s) | %.3f s | %.3f s (bare mpiexec) | %.2f | < 1.2 |\n' \
		"$1" "$where" "$(col "$2")" "$(col "$3")" "$(ratio "$2" "$3")"
}
row "first chunk" 1 3
row end 2 4
