#!/bin/sh
# bench-relaunch.sh — the time from a node's loss to the relaunched job's first chunk
# (issue 15, "Measure"; doc/restarts.md) on a testbed of 3 one-core nodes (root): a
# synthetic job of 3 ranks (--check; rank 0 here, workers on rl1 and rl2, rl3 spare). Once
# the job has 4 chunk events, everything in rank 1's node's namespace is SIGKILLed at once
# (a crash: hydra's proxy, the rank, sshd), the time taken just before. Then: mpiexec's end
# (its pid polled every 10 ms), the `restart` event, and the first `chunk` event after it.
# The events' t count from the job's first launch (GRT_T0, state.json's t0), so the kill
# and mpiexec's end are converted to the same clock. 5 trials (BENCH_RELAUNCH_TRIALS), the
# testbed rebuilt between them (the crashed node's sshd is gone); medians of each part.
# Every trial must end done, its check passed, the crashed node left out.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
SYN=$SRC/$BUILD/examples/synthetic
TRIALS=${BENCH_RELAUNCH_TRIALS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-rl.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export NO_COLOR=1
J=$GRIDSUBMIT_HOME/jobs
TESTBED=""
RUN=""
cleanup() {
	[ -n "$RUN" ] && kill -9 "$RUN" 2>/dev/null
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# shellcheck source=tests/launch/lib-kill.sh
. "$SRC/tests/launch/lib-kill.sh"

[ -x "$SYN" ] || { echo "bench-relaunch: $SYN not built (make)" >&2; exit 1; }
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"
bench_testbed_skip bench-relaunch && exit 0
command -v jq >/dev/null 2>&1 || { echo "bench-relaunch: jq is not installed" >&2; exit 1; }
cat > "$T/relaunch.yaml" <<'EOF'
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0}
    nodes:
      - {host: rl1, cpu_mhz: 3000, cores: 1, mem_mb: 256}
      - {host: rl2, cpu_mhz: 2800, cores: 1, mem_mb: 256}
      - {host: rl3, cpu_mhz: 2600, cores: 1, mem_mb: 256}
EOF
TESTBED=$T/relaunch.yaml
SITES=$GRIDSUBMIT_HOME/testbed/relaunch/sites.yaml

# up: the testbed (again), TAG from its answer
up() {
	"$GS" testbed down "$TESTBED" > /dev/null 2>&1
	if ! "$GS" testbed up "$TESTBED" > "$T/up.out" 2>&1; then
		echo "bench-relaunch: testbed up failed:" >&2
		cat "$T/up.out" >&2
		exit 1
	fi
	TAG=$(sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p' "$T/up.out")
}

cat > "$T/job.yaml" <<EOF
name: bench-relaunch
program: $SYN
args: ["--units", "50000", "--mean-us", "60", "--seed", "9", "--check"]
ranks: 3
runtime: {scheme: css, k: 2000}
EOF

# trial I: one crash; appends "lost->mpiexec mpiexec->restart restart->chunk total" to
# $T/trials
trial() {
	up
	id=$(kl_next_id)
	"$GS" run --no-metrics --sites "$SITES" "$T/job.yaml" > "$T/run.out" 2> "$T/run.err" &
	RUN=$!
	kl_poll 60 kl_since_start "$id" chunk 4 || { echo "bench-relaunch: no chunks" >&2; return 1; }
	node=$(kl_node "$id" 1)
	mp=$(kl_mpiexec "$id")
	pids=$(kl_procs "$node")
	tk=$(kl_now)
	# shellcheck disable=SC2086 # a list of pids
	kill -KILL $pids
	while [ -n "$mp" ] && kl_alive "$mp"; do
		sleep 0.01
	done
	tm=$(kl_now)
	wait "$RUN"
	rc=$?
	RUN=""
	if [ "$rc" -ne 0 ] || ! grep -q 'result matches' "$T/run.out" ||
	    [ "$(jq -c '.restart_log[0].excluded' "$J/$id/state.json")" != "[\"$node\"]" ]; then
		echo "bench-relaunch: trial $1: job $id did not end done without $node:" >&2
		cat "$T/run.out" "$T/run.err" >&2
		jq -c '{state, reason, restarts, restart_log}' "$J/$id/state.json" >&2
		return 1
	fi
	t0=$(kl_t0 "$id")
	tr=$(grep '"ev":"restart"' "$J/$id/events.jsonl" | head -n 1 | jq .t)
	tc=$(awk '/"ev":"restart"/ { r = 1 } r && /"ev":"chunk"/ { print; exit }' \
	    "$J/$id/events.jsonl" | jq .t)
	[ -n "$mp" ] || tm=""
	awk -v t0="$t0" -v k="$tk" -v m="$tm" -v r="$tr" -v c="$tc" -v i="$1" -v n="$node" 'BEGIN {
		k -= t0
		if (m == "")
			m = k	# no mpiexec found: the whole wait counts as "-> restart"
		else
			m -= t0
		printf "# trial %d (%s lost): mpiexec ended %.3f s after, the restart event %.3f s after that, the first chunk %.3f s after that: %.3f s\n",
		    i, n, m - k, r - m, c - r, c - k > "/dev/stderr"
		printf "%.4f %.4f %.4f %.4f\n", m - k, r - m, c - r, c - k
	}' >> "$T/trials" 2> "$T/line"
	cat "$T/line"
}

: > "$T/trials"
i=1
while [ "$i" -le "$TRIALS" ]; do
	trial "$i" || exit 1
	i=$((i + 1))
done

# med COLUMN: the median of a column of the trials
med() {
	awk -v c="$1" '{ print $c }' "$T/trials" | sort -g |
	    awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}
echo "# relaunch, medians of $TRIALS: node lost -> mpiexec ended $(med 1) s; -> restart event +$(med 2) s; -> first chunk of the relaunch +$(med 3) s"
printf '| relaunch | node lost -> first chunk of the relaunch | %s s | - | - | - |\n' "$(med 4)"
