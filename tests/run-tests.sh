#!/bin/sh
# make check: run every unit test binary, its sanitizer twin, and every shell test.
# Each test prints "ok - name", "not ok - name" or "skip - name: reason" lines; a test
# program that dies without saying "not ok" counts as one failure. Set TESTS=word to run
# only the tests whose path contains word. Last line: "N passed, N failed, N skipped".
BUILD=${BUILD:-build}
export BUILD
export MPIEXEC=${MPIEXEC:-mpiexec}
export GS="$BUILD/gridsubmit"
TIMEOUT=${TEST_TIMEOUT:-600}

passed=0 failed=0 skipped=0
failures=""
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT INT TERM

run_one() {
	name=$1
	shift
	case "$name" in *"${TESTS:-}"*) ;; *) return ;; esac
	printf '%s\n' "--- $name"
	timeout -k 10 "$TIMEOUT" "$@" > "$out" 2>&1
	rc=$?
	p=$(grep -c '^ok - ' "$out")
	f=$(grep -c '^not ok - ' "$out")
	s=$(grep -c '^skip - ' "$out")
	# each failure with the "#" diagnostics that follow it, then every skip
	awk '/^not ok - /{d=1; print; next} d && /^#/{print; next} {d=0}' "$out"
	grep -E '^skip - ' "$out"
	if [ "$f" -gt 0 ] || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then
		# show the diagnostics of a failing test
		sed -e 's/^/    /' "$out" | tail -n 60
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		if [ "$rc" -eq 124 ]; then
			echo "not ok - $name: timed out after ${TIMEOUT}s"
		else
			echo "not ok - $name: exited with status $rc"
		fi
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		echo "not ok - $name: ran no test"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	[ "$f" -gt 0 ] && failures="$failures $name"
	printf '    %d passed, %d failed, %d skipped\n' "$p" "$f" "$s"
}

for t in "$BUILD"/tests/*/test-*; do
	[ -x "$t" ] && run_one "$t" "$t"
done
for t in "$BUILD"/tests/san/*/test-*; do
	[ -x "$t" ] && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_one "$t" "$t"
done
for t in tests/*/test-*.sh; do
	[ -f "$t" ] && run_one "$t" sh "$t"
done

[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
