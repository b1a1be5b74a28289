#!/bin/sh
# make check: every unit test binary, its sanitizer twin, and every shell test (tests/README.md
# maps them to the parts they test). Each test prints "ok - name", "not ok - name" or "skip -
# name: reason" lines; a test program that dies without saying "not ok" counts as one
# failure. Last line: "N passed, N failed, N skipped".
#
# Tests run JOBS at a time (default 4: most of them wait on processes, pipes and timers, not
# on a CPU; each has its own temporary directory and job store, and each testbed its own
# network). Tests whose header says "# serial: GROUP" run one after another in a chain of
# their own (the same GROUP: they share something a test cannot make its own, or, for the
# testbed tests, the host's CPUs: two chains, testbed-a and testbed-b, so that at most two
# testbeds are up at once); "# serial: alone" runs a test after all the others, with nothing
# beside it (it measures this host's CPU time). The longest work starts first: the chains,
# then the shell tests by size, then the unit tests. Each test's lines are printed together
# when it ends, with how long it took. TESTS=word runs only the tests whose path contains
# word; VERBOSE=1 prints every line of every test, not only its failures and skips.
BUILD=${BUILD:-build}
export BUILD
export MPIEXEC="${MPIEXEC:-mpiexec}"
export GS="$BUILD/gridsubmit"
TIMEOUT=${TEST_TIMEOUT:-600}
JOBS=${JOBS:-4}

W=$(mktemp -d "${TMPDIR:-/tmp}/gs-check.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
# interrupted: every test running stops (timeout passes TERM on: a testbed test takes its
# testbed down), then the lanes; the tests run in process groups of their own, which the
# terminal's Ctrl-C does not reach
stop_all() {
	for f in "$W"/*.pid; do
		[ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
	done
	# shellcheck disable=SC2086 # a list of pids
	[ -z "${lanes:-}" ] || kill -TERM $lanes 2>/dev/null
	wait
	exit 130
}
trap stop_all INT TERM

# run_one NAME COMMAND...: run one test, print its block (under a lock: blocks never mix),
# and record "passed failed skipped NAME" in $W/results
run_one() {
	name=$1
	shift
	out=$W/out.$$.$(echo "$name" | tr '/' '_')
	t0=$(date +%s)
	# stdin from /dev/null: a test that reads it (an ssh) would eat the rest of a chain's list
	timeout -k 10 "$TIMEOUT" "$@" < /dev/null > "$out" 2>&1 &
	echo $! > "$out.pid"
	wait $!
	rc=$?
	rm -f "$out.pid"
	t=$(($(date +%s) - t0))
	p=$(grep -c '^ok - ' "$out")
	f=$(grep -c '^not ok - ' "$out")
	s=$(grep -c '^skip - ' "$out")
	{
		printf '%s\n' "--- $name"
		if [ "${VERBOSE:-0}" = 1 ]; then
			# everything the test said (make soak sums up its lines)
			sed -e 's/^/    /' "$out"
		else
			# each failure with the "#" diagnostics that follow it, then every skip
			awk '/^not ok - /{d=1; print; next} d && /^#/{print; next} {d=0}' "$out"
			grep -E '^skip - ' "$out"
		fi
		if [ "${VERBOSE:-0}" != 1 ] && { [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; }; then
			# the diagnostics of a failing test
			sed -e 's/^/    /' "$out" | tail -n 60
		fi
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			if [ "$rc" -eq 124 ]; then
				echo "not ok - $name: timed out after ${TIMEOUT}s"
			else
				echo "not ok - $name: exited with status $rc"
			fi
			f=1
		elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
			echo "not ok - $name: ran no test"
			f=1
		fi
		printf '    %d passed, %d failed, %d skipped (%d s)\n' "$p" "$f" "$s" "$t"
	} > "$out.block"
	flock "$W/print" cat "$out.block"
	# shellcheck disable=SC2016 # sh -c's own arguments
	flock "$W/results" sh -c 'printf "%s\n" "$1" >> "$2"' sh "$p $f $s $name" "$W/results"
	rm -f "$out" "$out.block"
}

# run_test FILE: a shell test, a unit test or its sanitizer twin
run_test() {
	case $1 in
	*.sh) run_one "$1" sh "$1" ;;
	*/tests/san/*)
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 run_one "$1" "$1" ;;
	*) run_one "$1" "$1" ;;
	esac
}

# group FILE: the chain a shell test belongs to, or nothing
group() {
	sed -n 's/^# serial: *\([A-Za-z0-9_-]*\).*/\1/p' "$1" | head -n 1
}

chosen() {
	case $1 in *"${TESTS:-}"*) return 0 ;; esac
	return 1
}

# the work: one line each, "chain GROUP" or "test FILE", longest first
for t in tests/*/test-*.sh; do
	chosen "$t" || continue
	g=$(group "$t")
	if [ "$g" = alone ]; then
		echo "$t" >> "$W/alone"
	elif [ -n "$g" ]; then
		echo "$t" >> "$W/chain.$g"
	else
		echo "$(wc -c < "$t") $t" >> "$W/shell"
	fi
done
{
	for c in "$W"/chain.*; do
		[ -f "$c" ] && echo "chain ${c#"$W"/chain.}"
	done
	[ -f "$W/shell" ] && sort -rn "$W/shell" | sed -e 's/^[0-9]* /test /'
	for t in "$BUILD"/tests/*/test-* "$BUILD"/tests/san/*/test-*; do
		[ -x "$t" ] && chosen "$t" && echo "test $t"
	done
} > "$W/queue"
: > "$W/results"
# every test that must run, to find one that did not (a lane that died, a chain cut short)
{ cat "$W"/chain.* "$W/alone" 2>/dev/null; sed -n 's/^test //p' "$W/queue"; } > "$W/all"

# lane: take the next line of the queue until there is none
lane() {
	while :; do
		# a lock file of its own: sed -i puts a new file in the queue's place, and a lock
		# on the queue itself would be on the old one (two lanes, one line)
		# shellcheck disable=SC2016 # sh -c's own arguments
		item=$(flock "$W/queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' sh "$W/queue")
		case $item in
		"chain "*)
			while IFS= read -r t; do
				run_test "$t"
			done < "$W/chain.${item#chain }"
			;;
		"test "*) run_test "${item#test }" ;;
		*) return ;;
		esac
	done
}

k=0
lanes=""
while [ "$k" -lt "$JOBS" ]; do
	lane &
	lanes="$lanes $!"
	k=$((k + 1))
done
wait
if [ -f "$W/alone" ]; then
	while IFS= read -r t; do
		run_test "$t"
	done < "$W/alone"
fi

awk '{ print $4 }' "$W/results" | sort > "$W/ran"
sort "$W/all" | comm -23 - "$W/ran" | while IFS= read -r t; do
	echo "not ok - $t: did not run"
	echo "0 1 0 $t" >> "$W/results"
done
awk '{ p += $1; f += $2; s += $3; if ($2 > 0) failed = failed " " $4 }
	END { if (failed != "") print "failed:" failed
	printf "%d passed, %d failed, %d skipped\n", p, f, s; exit f > 0 }' "$W/results"
