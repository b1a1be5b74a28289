#!/bin/sh
# bench-simulate-testbed.sh — how well a simulation predicts the testbed (doc/simulate.md,
# "Validation"): the comparison of tests/bench/simulate-testbed.sh (mandelbrot on the
# tiger and lanwlan testbeds, two schemes each, the testbed's median of three runs against
# one simulation on its derived site file), as rows: the simulated makespan, the testbed's
# as the baseline, their ratio, goal within 15%. Needs root, like the test.
set -u
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
export BUILD GS
out=$(sh tests/bench/simulate-testbed.sh 2>&1)
printf '%s\n' "$out" | grep -E '^(skip|not ok)' | sed -e 's/^/# /'
printf '%s\n' "$out" | sed -n 's/^# \([a-z]*\) \([a-z]*\): testbed .*(median \([0-9.]*\) s), simulated \([0-9.]*\) s$/\1 \2 \3 \4/p' |
while read -r sites scheme tb sim; do
	awk -v s="$sites" -v c="$scheme" -v t="$tb" -v m="$sim" 'BEGIN {
		printf "| simulate | %s, mandelbrot %s: simulated makespan (s) | %.3f | %.3f (testbed, median of 3) | %.2f | 0.85-1.15 |\n",
		    s, c, m, t, m / t }'
done
