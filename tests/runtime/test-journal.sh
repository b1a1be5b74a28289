#!/bin/sh
# test-journal.sh — the master's journal (runtime/grt-journal*.c, grt-resume.c): its unit
# test (tests/runtime/mpi/journal-unit.c: CRC-32C, replay rules, torn tails); the torture under
# mpiexec -n 3 (tests/runtime/mpi/journal-torture.c: a real journal truncated at every offset and
# with every byte flipped, each resumed); then grt-check (tests/runtime/mpi/grt-check.c) on 3 ranks
# with GRT_JOURNAL whose master is killed mid-run and which is run again: the right
# checksum, a resume event, only the missing units computed, no rank left; with 1 and 4
# rounds, the master computing or not, prefetching, 3 times each. A journal of another run,
# a damaged one, and one with a zeroed tail, under MPI too.
# serial: grt-check (test-grt.sh and test-journal.sh run, and reap, the same grt-check)
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
# absolute paths: the processes of this build, and through GRT_JOURNAL under $T, this test's
CHECK=$B/tests/runtime/mpi/grt-check
UNIT=$B/tests/runtime/mpi/journal-unit
TORTURE=$B/tests/runtime/mpi/journal-torture
for f in "$CHECK" "$UNIT" "$TORTURE"; do
	if [ ! -x "$f" ]; then
		fail "journal: $f is built (run make tests)"
		exit 0
	fi
done
if ! command -v jq > /dev/null 2>&1; then
	skip "journal" "jq is not installed (scripts/install-deps)"
	exit 0
fi
unset GRT_SCHEME GRT_K GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_PREFETCH GRT_ROUNDS GRT_JOURNAL GRT_T0

# ours PATTERN: the pids of this build's MPI test programs whose environment holds PATTERN
# (a whole line of it, a grep -x regex)
ours() {
	for p in $(pgrep -f "$B/tests/runtime/mpi/"); do
		tr '\0' '\n' 2> /dev/null < "/proc/$p/environ" | grep -qx -- "$1" && echo "$p"
	done
}
at_exit "kill -KILL \$(ours 'GRT_JOURNAL=$T/.*') 2> /dev/null"

# tap_through NAME STATUS FILE: the ok / not ok lines of a C test program, named after it;
# a program that failed without a "not ok" line fails once more
tap_through() {
	sed -n -e "s/^ok - /ok - $1: /p" -e "s/^not ok - /not ok - $1: /p" -e '/^#/p' "$3"
	if [ "$2" -ne 0 ] && ! grep -q '^not ok - ' "$3"; then
		fail "$1: exited with status $2"
		tail -n 20 "$3" | sed -e 's/^/#   /'
	fi
}

# --- the unit test and the torture
"$UNIT" "$T" > "$T/unit.out" 2>&1
tap_through "journal-unit" $? "$T/unit.out"

t0=$(date +%s)
timeout -k 5 120 "$MPIEXEC" -n 3 "$TORTURE" > "$T/torture.out" 2>&1
rc=$?
tap_through "journal-torture" $rc "$T/torture.out"
check "journal-torture: within 60 s ($(($(date +%s) - t0)) s)" [ $(($(date +%s) - t0)) -lt 60 ]

# --- grt-check resumed after its master was killed
UNITS=2000
WORK_US=2000		# per unit, divided by the rounds

# ref UNITS ROUNDS: the checksum of a one-rank run without a journal
ref() {
	if [ ! -s "$T/ref.$1.$2" ]; then
		timeout -k 5 30 "$MPIEXEC" -n 1 "$CHECK" --scheme static --units "$1" \
			--rounds "$2" | sed -n 's/.*checksum \([0-9a-f]*\),.*/\1/p' > "$T/ref.$1.$2"
	fi
	cat "$T/ref.$1.$2"
}

# gc JOURNAL EVENTS ROUNDS: grt-check on 3 ranks with the journal and the events; css with
# chunks of 50 units, so that the journal grows steadily; 2 s of work on the 2 workers
# whatever the rounds, so that a loaded machine still kills the master mid-run
gc() {
	GRT_K=50 GRT_JOURNAL=$1 GRT_EVENTS=$2 timeout -k 5 60 "$MPIEXEC" -n 3 "$CHECK" \
		--scheme css --units "$UNITS" --rounds "$3" --work-us $((WORK_US / $3))
}

# wait_size FILE BYTES PID: until FILE has BYTES or PID ended (20 s at most)
wait_size() {
	i=0
	while [ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -lt "$2" ] &&
	    kill -0 "$3" 2> /dev/null && [ $i -lt 1000 ]; do
		sleep 0.02
		i=$((i + 1))
	done
}

# ranks_gone JOURNAL: true when no rank of the run on JOURNAL is left (within 10 s)
ranks_gone() {
	i=0
	while [ -n "$(ours "GRT_JOURNAL=$1")" ] && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	[ -z "$(ours "GRT_JOURNAL=$1")" ]
}

# jqs FILE EXPR: jq over the records of FILE from the last start on
jqs() {
	jq -c -s "(map(.ev == \"start\") | rindex(true)) as \$s | .[\$s:] | $2" "$1" 2>&1
}

# kill_resume ROUNDS PERCENT TAG: grt-check killed once its journal holds about PERCENT %
# of the run, then run again; prints nothing when all went right, else why
kill_resume() {
	j=$T/j.$3 ev=$T/ev.$3 all=$((UNITS * $1))
	rm -f "$j" "$ev"
	gc "$j" "$ev" "$1" > "$T/first.out" 2>&1 &
	bg=$!
	wait_size "$j" $((all * 8 * $2 / 100)) $bg
	rank0=$(ours "GRT_JOURNAL=$j" | while read -r p; do
		tr '\0' '\n' 2> /dev/null < "/proc/$p/environ" | grep -qx 'PMI_RANK=0' &&
			echo "$p"
	done)
	[ -n "$rank0" ] && kill -KILL "$rank0"
	wait $bg
	if [ -z "$rank0" ] || grep -q '^grt-check: ok' "$T/first.out"; then
		echo "the first run ended before its master was killed (rank 0 '$rank0'," \
			"journal $(stat -c %s "$j") bytes): $(tail -n 2 "$T/first.out" | tr '\n' '|')"
		return
	fi
	if ! ranks_gone "$j"; then
		echo "ranks left after the master was killed: $(ours "GRT_JOURNAL=$j")"
		return
	fi
	out=$(gc "$j" "$ev" "$1" 2>&1)
	rc=$?
	ranks_gone "$j" || { echo "ranks left after the second run"; return; }
	want="^grt-check: ok: scheme css, ranks 3, N $UNITS, rounds $1, merged $all,"
	want="$want checksum $(ref "$UNITS" "$1"),"
	if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -Eq -- "$want"; then
		echo "second run: status $rc: $(printf '%s' "$out" | tail -n 3 | tr '\n' '|')"
		return
	fi
	# the units the journal held, the ones computed again: they make the run, no more
	got=$(jqs "$ev" '[(map(select(.ev == "resume"))[0].units), (.[-1].resumed),
	    (map(select(.ev == "chunk") | .count) | add // 0)]')
	resumed=$(printf '%s' "$got" | jq '.[0] // 0')
	printf '%s' "$got" | jq -e --argjson all $all \
	    '.[0] > 0 and .[0] < $all and .[1] == .[0] and .[0] + .[2] == $all' > /dev/null ||
		echo "events: [resume units, end resumed, units in chunks] = $got, N x rounds $all"
	echo "$resumed" >> "$T/resumed"
}

# kill_case NAME ROUNDS VAR=VALUE...: kill_resume 3 times, the master killed at 15, 40, 65 %
# of the run, with the variables in the environment
kill_case() {
	name=$1 rounds=$2
	shift 2
	rm -f "$T/resumed"
	why=""
	for pc in 15 40 65; do
		r=$(for kv; do export "${kv?}"; done; kill_resume "$rounds" "$pc" "$pc" 2>&1)
		[ -n "$r" ] && why="$why
at $pc %: $r"
	done
	if [ -z "$why" ]; then
		pass "kill the master: $name: 3 of 3 resumed right (units from the journal:" \
			"$(tr '\n' ' ' < "$T/resumed" | sed 's/ $//'))"
	else
		fail "kill the master: $name"
		printf '%s\n' "$why" | sed -n 's/^./#   &/p'
	fi
}

kill_case "1 round" 1
kill_case "4 rounds" 4
kill_case "1 round, GRT_MASTER_COMPUTES=1" 1 GRT_MASTER_COMPUTES=1
kill_case "4 rounds, GRT_MASTER_COMPUTES=1" 4 GRT_MASTER_COMPUTES=1
kill_case "1 round, GRT_PREFETCH=1" 1 GRT_PREFETCH=1
kill_case "4 rounds, GRT_PREFETCH=1" 4 GRT_PREFETCH=1
check "kill the master: no rank of any run left" ranks_gone "$T/.*"

# --- journals that must not be resumed, and one that may (MPI, 3 ranks)
# grt JOURNAL ARGS...: grt-check with the journal, launched as gridsubmit does
# (-disable-auto-cleanup: a plain mpiexec kills the workers when the master exits 1 first,
# and then exits 9 in about one run of 8); output in $out, status in $rc
grt() {
	jn=$1
	shift
	out=$(GRT_JOURNAL=$jn timeout -k 5 30 "$MPIEXEC" -disable-auto-cleanup -n 3 "$CHECK" \
		--scheme gss "$@" 2>&1)
	rc=$?
}

jm=$T/other.journal
grt "$jm" --units 100 --rounds 2
check_eq "another run's journal: made by --units 100" "$rc" 0
cp "$jm" "$T/other.before"
grt "$jm" --units 200 --rounds 2
check_eq "another run's journal: --units 200 exits with status 1" "$rc" 1
check_match "another run's journal: the error names it" "$out" "^grt-check: FAILED: $jm: \
record at byte 0: a journal of 100 units x 2 rounds, this run has 200 x 2\$"
check "another run's journal: left as it was" cmp "$jm" "$T/other.before"
check "another run's journal: no rank left" ranks_gone "$jm"

# a byte of the second record's body damaged: the record has more after it
jd=$T/damaged.journal
cp "$T/other.before" "$jd"
len1=$(od -An -tu4 -j 24 -N 4 "$jd" | tr -d ' ')
at=$((24 + 12 + len1 + 12 + 12))
byte=$(od -An -tu1 -j $at -N 1 "$jd" | tr -d ' ')
printf '%b' "\\0$(printf '%03o' $((byte ^ 255)))" | dd of="$jd" bs=1 seek=$at conv=notrunc 2> /dev/null
grt "$jd" --units 100 --rounds 2
check_eq "a damaged journal: exits with status 1" "$rc" 1
check_match "a damaged journal: the error names the file and the record's byte" "$out" \
	"^grt-check: FAILED: $jd: record at byte $((24 + 12 + len1)): the checksum does not match\$"

# a whole journal with a zeroed tail (a crash while the file grew): cut, and resumed
jz=$T/zeroed.journal
cp "$T/other.before" "$jz"
head -c 100 /dev/zero >> "$jz"
GRT_EVENTS=$T/zeroed.jsonl grt "$jz" --units 100 --rounds 2
check_match "a zeroed tail: resumed with the right checksum" "$out" \
	"^grt-check: ok: scheme gss, ranks 3, N 100, rounds 2, merged 200, checksum $(ref 100 2),"
check_eq "a zeroed tail: the resume event says 100 bytes cut, 200 units, 2 rounds" \
	"$(jq -c 'select(.ev == "resume") | [.cut, .units, .rounds_done]' "$T/zeroed.jsonl")" \
	'[100,200,2]'
check_eq "a zeroed tail: cut on disk" "$(stat -c %s "$jz")" "$(stat -c %s "$T/other.before")"
