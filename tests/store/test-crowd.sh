#!/bin/sh
# test-crowd.sh — a crowd at the queue (README.md, "The queue"): five shells submit jobs
# of the hello example as fast as they can, all at once, onto one node of 8 slots. Every
# job ends done with its sum; the ledger, sampled read-only while the storm runs, never
# has more than 8 slots held and never lets a later job hold while an earlier one it saw
# waiting still waits (jobs start in id order where they compete); at the end it is empty.
# Then the same storm behind a job that holds the 8 slots, with supervisors of waiting jobs
# SIGKILLed in it: their jobs are failed (supervisor died), the others done, the ledger
# never over 8 and empty at the end, and `resume` of each killed job finishes it.
# CROWD_JOBS jobs a storm (default 20; make soak: 50), CROWD_KILLS supervisors killed in
# the second (default 3; make soak: 5). The measures (wall time, jobs/s, longest wait) are
# printed as diagnostics, never asserted.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "crowd" "jq is not installed (scripts/install-deps)"; exit 0; }
command -v sqlite3 >/dev/null 2>&1 ||
	{ skip "crowd" "sqlite3 is not installed (scripts/install-deps)"; exit 0; }
HELLO="$SRC/$BUILD/examples/hello"
[ -x "$HELLO" ] || { fail "crowd: $HELLO is not built"; exit 1; }
JOBS_N=${CROWD_JOBS:-20}
KILLS=${CROWD_KILLS:-3}
SHELLS=5
SLOTS=8
J="$GRIDSUBMIT_HOME/jobs"
DB="$GRIDSUBMIT_HOME/slots.db"
at_exit sweep

cat > "$T/sites.yaml" <<EOF
sites:
  - name: THU
    link: {bandwidth_mbps: 1000}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, slots: $SLOTS}
EOF
# hello's jobs of 1, 2 and 3 ranks (the master and its workers), so that the storm's jobs
# need different numbers of slots and a small one would fit where a big one waits
for r in 1 2 3; do
	cat > "$T/r$r.yaml" <<EOF
name: crowd$r
program: "$HELLO"
ranks: $r
EOF
done
# hello's sum of i*i over its 1000 units, and its last line for RANKS ranks
SUM=332833500
hello_line() {
	echo "hello: sum $SUM, the master and $(($1 - 1)) worker(s)"
}

# field ID KEY: a field of the job's state.json
field() {
	jq -r ".$2" "$J/$1/state.json"
}

# sampler FILE: the ledger read-only, one line a sample until $T/stop exists: the slots
# held, then each job as ID:HOLDING (1 holds, 0 waits) in id order, one read transaction
sampler() {
	while [ ! -e "$T/stop" ]; do
		[ -s "$DB" ] && sqlite3 -readonly -cmd '.timeout 5000' "$DB" "SELECT (SELECT \
		    COALESCE(SUM(c.want), 0) FROM claim c JOIN queue q ON q.job = c.job WHERE \
		    q.holding = 1) || ' ' || COALESCE((SELECT group_concat(j, ' ') FROM (SELECT \
		    job || ':' || holding AS j FROM queue ORDER BY job)), '')" 2>/dev/null
		# about 30 samples a second, and the CPU left to the jobs
		sleep 0.02
	done > "$1"
}

# storm TAG: SHELLS shells submit JOBS_N jobs in all, at once; ids in $T/TAG.ids
storm() {
	s=1
	shells=""
	while [ "$s" -le "$SHELLS" ]; do
		(
			k=0
			while [ "$k" -lt $((JOBS_N / SHELLS)) ]; do
				"$GS" submit "$T/r$(((s + k) % 3 + 1)).yaml" --sites "$T/sites.yaml" \
				    >> "$T/$1.ids.$s" 2>> "$T/$1.err"
				k=$((k + 1))
			done
		) &
		shells="$shells $!"
		s=$((s + 1))
	done
	# shellcheck disable=SC2086 # the pids are words (the sampler runs on)
	wait $shells
	cat "$T/$1".ids.* | sort -n > "$T/$1.ids"
}

# over FILE: the samples that hold more than SLOTS slots
over() {
	awk -v max="$SLOTS" '$1 > max' "$1"
}

# passed FILE [SKIP...]: the pairs "A B" (A < B) of which B held in a sample while A,
# which a sample before it had seen waiting beside B, still waited; SKIP: jobs whose
# supervisor was killed (they leave and enter the queue again)
passed() {
	awk -v skip=" ${2:-} " '
	{
		delete w; delete h; nw = 0
		for (i = 2; i <= NF; i++) {
			split($i, p, ":")
			if (index(skip, " " p[1] " ")) continue
			if (p[2] == 0) { w[p[1]] = 1; ws[++nw] = p[1] } else h[p[1]] = 1
		}
		for (a in w) for (b in h) if (a + 0 < b + 0 && (a, b) in seen) print a, b
		for (i = 1; i <= nw; i++) for (k = 1; k <= nw; k++)
			if (ws[i] + 0 < ws[k] + 0) seen[ws[i], ws[k]] = 1
	}' "$1" | sort -u
}

# outputs IDS...: the jobs whose stdout is not hello's line for their ranks
outputs() {
	for id in "$@"; do
		[ "$(cat "$J/$id/stdout" 2>/dev/null)" = "$(hello_line "$(field "$id" ranks)")" ] ||
			echo "$id: $(head -c 200 "$J/$id/stdout" 2>/dev/null)"
	done
}

# state_is ID STATE
state_is() {
	[ "$(field "$1" state)" = "$2" ]
}

# states STATE IDS...: the jobs not in STATE
states() {
	want=$1
	shift
	for id in "$@"; do
		[ "$(field "$id" state)" = "$want" ] || echo "$id: $(field "$id" state)"
	done
}

# ledger_rows: the ledger's rows left, both tables
ledger_rows() {
	sqlite3 -readonly "$DB" "SELECT (SELECT COUNT(*) FROM queue) + (SELECT COUNT(*) FROM claim)"
}

# measure TAG IDS...: the storm's wall time and jobs/s (all of IDS), the longest wait from
# submit to start (IDS but the killed), as diagnostics
measure() {
	tag=$1
	shift
	first=$(for id in "$@"; do date -d "$(field "$id" submitted)" +%s; done | sort -n | head -n 1)
	last=$(for id in "$@"; do date -d "$(field "$id" ended)" +%s; done | sort -n | tail -n 1)
	longest=$(for id in "$@"; do
		case " $killed " in *" $id "*) continue ;; esac
		echo $(($(date -d "$(field "$id" started)" +%s) - \
		    $(date -d "$(field "$id" submitted)" +%s)))
	done | sort -n | tail -n 1)
	wall=$((last - first))
	echo "# $tag: $# jobs, $SHELLS shells, $SLOTS slots: $wall s from the first submit" \
	    "to the last end, $(awk -v n="$#" -v w="$wall" 'BEGIN { printf "%.1f", (w > 0 ? n / w : n) }')" \
	    "jobs/s, the longest wait $longest s, $(wc -l < "$T/$tag.samples") ledger samples"
}

# --- the storm: every job done with its output, never more than 8 slots held, id order
killed=""
sampler "$T/storm.samples" &
spid=$!
storm storm
# shellcheck disable=SC2046 # the ids are words
set -- $(cat "$T/storm.ids")
check_eq "$JOBS_N jobs submitted from $SHELLS shells, each given an id" "$#" "$JOBS_N"
check_eq "no submit said anything on stderr" "$(cat "$T/storm.err")" ""
run_gs wait "$@" --timeout 600
touch "$T/stop"
wait "$spid"
rm -f "$T/stop"
check_eq "every job ends well" "$rc" 0
check_eq "every job is done" "$(states "done" "$@")" ""
check_eq "every job printed hello's sum for its ranks" "$(outputs "$@")" ""
check "the ledger was sampled while jobs waited" grep -q ':0' "$T/storm.samples"
check_eq "no sample holds more than $SLOTS slots" "$(over "$T/storm.samples")" ""
check_eq "no job held while an earlier one it waited beside still waited" \
	"$(passed "$T/storm.samples")" ""
check_eq "the ledger is empty at the end" "$(ledger_rows)" 0
measure storm "$@"

# --- the storm with supervisors SIGKILLed in it: a holder of the 8 slots (8 sleeps) keeps
# the storm's jobs waiting while KILLS of their supervisors, picked at random, are killed;
# then the holder is cancelled and the rest runs
run_gs submit --sites "$T/sites.yaml" -n "$SLOTS" --name holder -- /bin/sleep 600
holder=$out
check "a job holds the $SLOTS slots" poll 30 state_is "$holder" running
sampler "$T/kill.samples" &
spid=$!
storm kill
# shellcheck disable=SC2046 # the ids are words
set -- $(cat "$T/kill.ids")
# pending: the job's supervisor waits in the ledger
pending() {
	[ "$(field "$1" state)" = pending ]
}
killed=""
for id in $(printf '%s\n' "$@" | shuf -n "$KILLS"); do
	poll 30 pending "$id" && kill -KILL "$(field "$id" supervisor_pid)" && killed="$killed $id"
done
run_gs cancel "$holder"
# shellcheck disable=SC2046 # the ids are words
set -- $(cat "$T/kill.ids")
check_eq "$KILLS supervisors killed while they waited in the storm" "$(echo $killed | wc -w)" "$KILLS"
others=""
for id in "$@"; do
	case " $killed " in *" $id "*) ;; *) others="$others $id" ;; esac
done
# shellcheck disable=SC2086 # the ids are words
run_gs wait $others --timeout 600
check_eq "the jobs whose supervisor lived end well" "$rc" 0
# shellcheck disable=SC2086
check_eq "they are done, with their output" "$(states "done" $others)$(outputs $others)" ""
# a killed job is failed once anyone looks (status sees its supervisor dead)
dead=$killed
for id in $dead; do
	"$GS" status "$id" > /dev/null 2>&1
done
# shellcheck disable=SC2086
check_eq "the killed jobs are failed: their supervisor died" "$(states failed $dead)" ""
for id in $dead; do
	check_match "job $id's reason says so" "$(field "$id" reason)" "supervisor"
done
# resume (refused, exit 7, only while processes of the job still run)
resumed() {
	"$GS" resume "$1" > "$T/resume.$1" 2>&1
	r=$?
	[ "$r" -eq 7 ] && return 1
	echo "$r" > "$T/resume.$1.rc"
}
for id in $dead; do
	poll 60 resumed "$id"
	check_eq "resume of killed job $id ends well" "$(cat "$T/resume.$id.rc" 2>/dev/null)" 0
done
touch "$T/stop"
wait "$spid"
# shellcheck disable=SC2086
check_eq "every job is done at last, with its output" "$(states "done" "$@")$(outputs "$@")" ""
check_eq "no sample holds more than $SLOTS slots, kills and resumes included" \
	"$(over "$T/kill.samples")" ""
# shellcheck disable=SC2086
check_eq "jobs whose supervisor lived held in id order" \
	"$(passed "$T/kill.samples" "$killed")" ""
check_eq "the ledger is empty at the end, the dead holders dropped" "$(ledger_rows)" 0
measure kill "$@"
