#!/bin/sh
# bench-slurm.sh — the time from `gridsubmit run` to the job's first chunk on a Slurm site
# (issue 19, "Tests and measures"), against the same nodes reached over ssh, on the testbed
# of sites/hpc.yaml (root; a real Slurm on the site hpc). The job: mandelbrot on the two
# hpc nodes (`sites: [hpc]`, 3 ranks, rank 0 here). The Slurm run goes through sbatch
# (pending until the allocation runs), then one srun step per node from the login host; the
# ssh run uses the derived site file without its `scheduler:` line, so that the same
# nodes are reached by their own sshd. Trials alternate the two (BENCH_SLURM_TRIALS, 5
# each); medians. Every run must exit 0 with its check passed.
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
# shellcheck source=tests/sh/lib-kill.sh
. "$SRC/tests/sh/lib-kill.sh"
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

# trial HOW SITES: one run; appends "HOW SECONDS" (run -> first chunk) to $T/trials
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
printf '| slurm | run -> first chunk, 2 nodes of a Slurm site (sbatch + srun), median of %s | %s s | %s s (same nodes over ssh) | %s | - |\n' \
    "$TRIALS" "$s" "$b" "$(awk -v s="$s" -v b="$b" 'BEGIN { printf "%.2f", s / b }')"
