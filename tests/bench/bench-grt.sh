#!/bin/sh
# bench-grt.sh — libgrt's chunk rate (pss, 1-unit chunks, empty compute) with events off and
# on, against the raw MPI request/response rate, in one mpiexec -n 2 run of
# tests/bench/bench-grt.c, with and without prefetching. Goals (issues 3, 13): libgrt/raw >= 0.8
# as shipped, events on/off >= 0.9.
BUILD=${BUILD:-build}
MPIEXEC=${MPIEXEC:-mpiexec}
b="$BUILD/tests/bench/bench-grt"
if [ ! -x "$b" ]; then
	echo "bench-grt: $b is not built (run make bench)" >&2
	exit 1
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-grt.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
timeout -k 5 300 "$MPIEXEC" -n 2 "$b" "$dir" "${BENCH_GRT_SECONDS:-0.4}"
