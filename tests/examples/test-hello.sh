#!/bin/sh
# test-hello.sh — the libgrt hello a newcomer copies (examples/hello/hello.c) and the
# "Typical program" of runtime/include/grt/grt.h: both under 50 lines, the header's the same
# code as the example's (its comments aside); the header's copy, cut out of the header,
# compiled against the headers as they are installed (<grt/grt.h>) and libgrt, runs through
# `gridsubmit run -n 2`: the right sum, done, the master and one worker, every chunk
# computed by rank 1; alone (-n 1) the master computes everything; the example's own job
# file runs as the README says.
. tests/lib.sh

MPICC=$(sed -n 's/^MPICC *= *//p' Makefile)
[ -x "$BUILD/examples/hello" ] || { fail "hello: $BUILD/examples/hello is not built (run make)"; exit 0; }
command -v jq >/dev/null 2>&1 || { skip "hello" "jq is not installed"; exit 0; }

# the header's example: the lines after "Typical program" that are code (" *<tab>" or " *")
awk '/^ \* Typical program/ { t = 1; next }
	t && /^ \*\// { exit }
	t && /^ \*\t/ { c = 1 }
	c { sub(/^ \*\t?/, ""); print }' runtime/include/grt/grt.h > "$T/typical.c"
# the example without its comments (blocks that start at column 0)
awk '/^\/\*/ { c = 1 } !c { print } c && /\*\/$/ { c = 0 }' examples/hello/hello.c > "$T/hello-code.c"

n=$(wc -l < examples/hello/hello.c)
check "examples/hello/hello.c is under 50 lines, its comments included ($n)" test "$n" -lt 50
n=$(wc -l < "$T/typical.c")
check "grt.h's Typical program is under 50 lines ($n)" test "$n" -lt 50
check "grt.h's Typical program is a whole program (main and grt_end)" \
	grep -q 'return grt_end(rc);' "$T/typical.c"
check "grt.h's Typical program is examples/hello/hello.c, comments aside" \
	diff "$T/hello-code.c" "$T/typical.c"

# as installed: include/grt/ holds the public headers, nothing else of the tree
mkdir -p "$T/include/grt"
cp runtime/include/grt/*.h "$T/include/grt/"
check "the header's example compiles with -Wall -Werror against <grt/grt.h> and libgrt" \
	"$MPICC" -Wall -Werror -o "$T/hello" "$T/typical.c" -I"$T/include" "$BUILD/libgrt.a" \
	-lm -lpthread

# 1000 units: the sum of i*i for i < 1000
sum=332833500
run_gs run -n 2 --no-metrics -- "$T/hello"
check_eq "gridsubmit run -n 2 -- ./hello: exit 0" "$rc" 0
check_eq "its output: the sum, the master and one worker" "$out" \
	"hello: sum $sum, the master and 1 worker(s)"
check_eq "the job is done" "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/1/state.json")" done
check_eq "every chunk was computed by rank 1, the one worker" \
	"$(jq -r 'select(.ev == "chunk") | .rank' "$GRIDSUBMIT_HOME/jobs/1/events.jsonl" | sort -u)" 1

run_gs run -n 1 --no-metrics -- "$T/hello"
check_eq "gridsubmit run -n 1: the master alone computes the same sum" "$rc:$out" \
	"0:hello: sum $sum, the master and 0 worker(s)"

run_gs run --no-metrics examples/hello/job.yaml
check_eq "gridsubmit run examples/hello/job.yaml: exit 0, the master and one worker" \
	"$rc:$out" "0:hello: sum $sum, the master and 1 worker(s)"
