#!/bin/sh
# bench-grt.sh — libgrt's chunk rate (pss, 1-unit chunks, empty compute) with events off and
# on and with the journal on, against the raw MPI request/response rate, in one mpiexec -n 2
# run of tests/bench/bench-grt.c, with and without prefetching. Goals (issues 3, 13, 15):
# libgrt/raw >= 0.8 as shipped, events on/off >= 0.95 (issue 34), journal on/off >= 0.9; the
# event stream's records/s and MB/s at the rate measured. The journal
# must be fdatasynced on a real disk: the scratch directory is made under TMPDIR or /tmp,
# or /var/tmp when that is a tmpfs.
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
b="$BUILD/tests/bench/bench-grt"
if [ ! -x "$b" ]; then
	echo "bench-grt: $b is not built (run make bench)" >&2
	exit 1
fi
# shellcheck disable=SC1091 # lib-bench.sh: checked on its own
. "$(dirname "$0")/lib-bench.sh"
dir=$(bench_disk_dir bench-grt) || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
echo "# bench-grt: events and journal in $dir, on $(bench_fs "$dir")"
timeout -k 5 300 "$MPIEXEC" -n 2 "$b" "$dir" "${BENCH_GRT_SECONDS:-0.4}"
