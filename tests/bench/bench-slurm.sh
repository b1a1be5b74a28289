#!/bin/sh
# bench-slurm.sh — the time from `gridsubmit run` to the job's first chunk on a Slurm site
# (issue 19, "Tests and measures"), against the same nodes reached over ssh, on the testbed
# of sites/hpc.yaml (root; a real Slurm on the site hpc). The job: mandelbrot on the two
# hpc nodes (`sites: [hpc]`, 3 ranks, rank 0 here). The Slurm run goes through sbatch
# (pending until the allocation runs), then one srun step per node from the login host; the
# ssh run uses the derived site file without its `scheduler:` line, so that the same
# nodes are reached by their own sshd. Trials alternate the two (BENCH_SLURM_TRIALS, 5
# each); medians. Every run must exit 0 with its check passed. Slurm's own part, the wait
# from sbatch to the allocation (slurmctld's log), is given apart, and the rest against ssh.
# Prints "| area | what | value | baseline | ratio | goal |" rows (tests/bench/run-bench.sh).
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
SRC=$(pwd)
MANDEL=$SRC/$BUILD/examples/mandelbrot
TRIALS=${BENCH_SLURM_TRIALS:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-sl.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export NO_COLOR=1
J=$GRIDSUBMIT_HOME/jobs
TESTBED=""
cleanup() {
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# shellcheck source=tests/launch/lib-kill.sh
. "$SRC/tests/launch/lib-kill.sh"
# shellcheck source=tests/bench/lib-bench.sh
. "$SRC/tests/bench/lib-bench.sh"

[ -x "$MANDEL" ] || { echo "bench-slurm: $MANDEL not built (make)" >&2; exit 1; }
bench_testbed_skip bench-slurm && exit 0
for tool in jq slurmctld slurmd munged; do
	PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1 || {
		echo "| slurm | run -> first chunk | SKIP: $tool is not installed | - | - | - |"
		exit 0
	}
done
cp "$SRC/sites/hpc.yaml" "$T/hpc.yaml"
TESTBED=$T/hpc.yaml
if ! "$GS" testbed up "$TESTBED" > "$T/up.out" 2>&1; then
	echo "bench-slurm: testbed up failed:" >&2
	cat "$T/up.out" >&2
	exit 1
fi
SLURM_SITES=$GRIDSUBMIT_HOME/testbed/hpc/sites.yaml
SSH_SITES=$T/hpc-ssh.yaml
grep -v 'scheduler:' "$SLURM_SITES" > "$SSH_SITES"

cat > "$T/job.yaml" <<EOF
name: bench-slurm
program: $MANDEL
args: ["--size", "128", "--iter", "100", "--check"]
ranks: 3
sites: [hpc]
runtime: {scheme: gss}
EOF

CTLD_LOG=$GRIDSUBMIT_HOME/testbed/hpc/slurm/hpc-login/slurmctld.log
# ctld_time WHAT SLURMID: when slurmctld logged WHAT (a submit, an allocation) for the job
ctld_time() {
	stamp=$(grep -E "$1.*JobId=$2[^0-9]" "$CTLD_LOG" | head -n 1 | sed -e 's/^\[\([^]]*\)\].*/\1/')
	[ -n "$stamp" ] && date -d "$stamp" +%s.%N
}

# trial HOW SITES: one run; appends "HOW SECONDS" (run -> first chunk) to $T/trials, and
# for Slurm "queue SECONDS" (slurmctld's submit -> allocate) too
trial() {
	id=$(kl_next_id)
	ts=$(kl_now)
	if ! "$GS" run --no-metrics --sites "$2" "$T/job.yaml" > "$T/run.out" 2> "$T/run.err" ||
	    ! grep -q 'image matches' "$T/run.out"; then
		echo "bench-slurm: the $1 run (job $id) failed:" >&2
		cat "$T/run.out" "$T/run.err" >&2
		return 1
	fi
	t0=$(kl_t0 "$id")
	tc=$(grep -m 1 '"ev":"chunk"' "$J/$id/events.jsonl" | jq .t)
	awk -v h="$1" -v s="$ts" -v t0="$t0" -v c="$tc" \
	    'BEGIN { printf "%s %.4f\n", h, t0 + c - s }' >> "$T/trials"
	[ "$1" = slurm ] || return 0
	sid=$(jq -r '.allocations[0].id' "$J/$id/state.json")
	qs=$(ctld_time _slurm_rpc_submit_batch_job "$sid")
	qa=$(ctld_time "Allocate" "$sid" || echo "$qs")
	awk -v s="$qs" -v a="$qa" 'BEGIN { printf "queue %.4f\n", a - s }' >> "$T/trials"
}

: > "$T/trials"
i=1
while [ "$i" -le "$TRIALS" ]; do
	trial slurm "$SLURM_SITES" || exit 1
	trial ssh "$SSH_SITES" || exit 1
	i=$((i + 1))
done
sed -e 's/^/# trial: /' "$T/trials"

# med HOW: the median of HOW's trials
med() {
	awk -v h="$1" '$1 == h { print $2 }' "$T/trials" | sort -g |
	    awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}
s=$(med slurm)
b=$(med ssh)
q=$(med queue)
printf '| slurm | run -> first chunk, 2 nodes of a Slurm site (sbatch + srun), median of %s | %s s | %s s (same nodes over ssh) | %s | - |\n' \
    "$TRIALS" "$s" "$b" "$(awk -v s="$s" -v b="$b" 'BEGIN { printf "%.2f", s / b }')"
# what of it is Slurm's own scheduling (slurmctld starts batch jobs on its
# batch_sched_delay cycle), and what is left for gridsubmit's sbatch, polls and srun steps
printf '| slurm | of which Slurm scheduling the allocation (slurmctld: submit -> allocate), median | %s s | - | - | - |\n' "$q"
awk '$1 == "slurm" { s[++n] = $2 } $1 == "queue" { q[++m] = $2 }
    END { for (i = 1; i <= n; i++) print s[i] - q[i] }' "$T/trials" | sort -g |
    awk -v b="$b" '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]
	printf "| slurm | run -> first chunk less Slurm scheduling, median | %.3f s | %s s (same nodes over ssh) | %.2f | - |\n", m, b, m / b }'
