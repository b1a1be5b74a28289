#!/bin/sh
# bench-scheme.sh — the schemes' decision time per chunk for P = 4096 (gss, fss, tss, pwd,
# one hetcomm round), no MPI. Prints | area | what | value | baseline | ratio | goal | rows
# for tests/bench/run-bench.sh.
BUILD=${BUILD:-build}
b="$BUILD/tests/bench/bench-scheme"
if [ ! -x "$b" ]; then
	echo "bench-scheme: $b is not built (run make bench)" >&2
	exit 1
fi
exec "$b"
