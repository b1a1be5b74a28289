#!/bin/sh
# make bench: run every tests/bench/bench-*.sh and gather their rows into one table,
# printed and written to $BUILD/bench/results.md. Each bench script prints rows
#   | area | what | value | baseline | ratio | goal |
# measured in the same run (ratios are value/baseline or as the row says), and may print
# "#" comment lines, which are passed through to the terminal only.
BUILD=${BUILD:-build}
export BUILD
export MPIEXEC=${MPIEXEC:-mpiexec}
export GS="$BUILD/gridsubmit"
mkdir -p "$BUILD/bench"
res="$BUILD/bench/results.md"
{
	echo "# gridsubmit benchmarks — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -r)"
	echo
	echo "| area | what | value | baseline | ratio | goal |"
	echo "|---|---|---|---|---|---|"
} > "$res.tmp"
status=0
for b in tests/bench/bench-*.sh; do
	[ -f "$b" ] || continue
	case "$b" in *"${BENCH:-}"*) ;; *) continue ;; esac
	echo "--- $b" >&2
	if ! sh "$b" > "$BUILD/bench/out" 2>&2; then
		echo "bench: $b failed" >&2
		status=1
	fi
	grep '^|' "$BUILD/bench/out" >> "$res.tmp"
	grep '^#' "$BUILD/bench/out" >&2
done
mv "$res.tmp" "$res"
cat "$res"
echo "(written to $res)"
exit $status
