#!/bin/sh
# test-list.sh — list and status as a squeue/sacct user reads them, with real mpiexec jobs
# of the mandelbrot example: columns that hold with a long name (cut with "…"), the reason
# of a failed job shown by default and cut at a word to the terminal's width, --noheader,
# --format fields (any case, "did you mean"), times with their zone's offset, elapsed that
# grows while a job runs, nodes and exit; the same fields in --json and in status.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "list" "jq is not installed (scripts/install-deps)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { skip "list" "python3 is not installed"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "list: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
export LC_ALL=C.UTF-8
at_exit sweep

LONGNAME=a-job-name-far-longer-than-any-column-should-grow
mandel_job "$LONGNAME" "$T/quick.yaml" 256
mandel_job short "$T/long.yaml" 3000 --iter 5000
cat > "$T/bad.yaml" <<EOF
name: bad
program: "$MANDEL"
args: ["--no-such-option"]
ranks: 2
EOF

# columns.py FILE: exit 0 when, in every line, each column's cell sits under its header:
# starting where a left-aligned header starts, or ending where a right-aligned one ends
cat > "$T/columns.py" <<'EOF'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = lines[0]
starts = [i for i, c in enumerate(head) if c != " " and (i == 0 or head[i - 1] == " ")]
ends = [i for i, c in enumerate(head) if c != " " and (i + 1 == len(head) or head[i + 1] == " ")]
for line in lines[1:]:
    for k, (s, e) in enumerate(zip(starts, ends)):
        left = line[s:s + 1] not in ("", " ") and (s == 0 or line[s - 1] == " ")
        right = e < len(line) and line[e] != " " and (e + 1 >= len(line) or line[e + 1] == " ")
        if not (left or right):
            print("column %d (%s) out of line: %r" % (k, head[s:e + 1], line))
            sys.exit(1)
EOF

q=$("$GS" submit --no-metrics "$T/quick.yaml")
b=$("$GS" submit --no-metrics "$T/bad.yaml")
"$GS" wait "$q" "$b" --timeout 60 >/dev/null

# --- the default columns
run_gs list
check_eq "list: exit 0" "$rc" 0
check_eq "list: the default columns" "$(printf '%s\n' "$out" | head -n 1 | tr -s ' ')" \
	"ID NAME STATE ELAPSED NODES EXIT REASON"
printf '%s\n' "$out" > "$T/list.out"
check "list: a long name keeps every column in line" python3 "$T/columns.py" "$T/list.out"
check_match "list: the long name is cut with an ellipsis" "$out" \
	"^$q +a-job-name-far-longer… +done +[0-9]+:[0-9]{2} +1 +0 +-$"
check_match "list: a failed job's reason by default, and its exit status" "$out" \
	"^$b +bad +failed +[0-9]+:[0-9]{2} +1 +2 +rank [0-9]+ on node [^ ]+ exited with status 2; no restart: the program failed by itself$"

# --- cut to the terminal's width at a word boundary
COLUMNS=70 "$GS" list > "$T/narrow.out"
check_eq "COLUMNS=70: no line wider" \
	"$(python3 -c 'import sys; print(max(len(l) for l in open(sys.argv[1], encoding="utf-8").read().splitlines()) <= 70)' "$T/narrow.out")" True
line=$(grep "^$b " "$T/narrow.out")
cut=$(printf '%s' "$line" | sed -e 's/.* 2 \(rank .*\)…$/\1/')
check_match "COLUMNS=70: the reason ends with an ellipsis" "$line" "…$"
check_match "COLUMNS=70: cut after a whole word" "$(jq -r .reason "$J/$b/state.json")" "^$cut "
check "COLUMNS=70: still in line" python3 "$T/columns.py" "$T/narrow.out"
"$GS" list | cat > "$T/pipe.out"
check_match "a pipe without COLUMNS gets the whole reason" "$(cat "$T/pipe.out")" \
	"no restart: the program failed by itself$"

# --- --noheader and --format
run_gs list --noheader
check_eq "--noheader: one line per job, no header" \
	"$(printf '%s\n' "$out" | awk '{ print $1 }' | tr '\n' ' ')" "$q $b "
run_gs list -o ID,State,Exit --noheader
check_eq "-o in any case: those fields, numbers aligned right" "$out" "$q  done      0
$b  failed    2"
run_gs list --format id,elpased
check_eq "--format elpased: usage (2)" "$rc" 2
check_match "--format elpased: did you mean" "$err" \
	"unknown field 'elpased' \\(did you mean 'elapsed'\\?\\)"
run_gs list --format id,dir,nodes,ranks,scheme --noheader --state done
check_match "--format dir,nodes,ranks,scheme" "$out" "^$q +$J/$q +1 +3 +gss$"

# --- times with their zone
iso='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}'
run_gs list --format submitted,started,ended --noheader
check_match "times: ISO 8601 with the zone's offset" "$(printf '%s\n' "$out" | head -n 1)" \
	"^$iso[+-][0-9]{2}:[0-9]{2} $iso[+-][0-9]{2}:[0-9]{2} $iso[+-][0-9]{2}:[0-9]{2}$"
t_utc=$(TZ=UTC0 "$GS" list --format submitted --noheader --state done)
t_ind=$(TZ=IST-5:30 "$GS" list --format submitted --noheader --state done)
check_match "TZ=UTC0: +00:00" "$t_utc" "^$iso\\+00:00$"
check_match "TZ=IST-5:30: +05:30" "$t_ind" "^$iso\\+05:30$"
check_eq "the same instant in both zones" "$(date -u -d "$t_ind" +%s)" "$(date -u -d "$t_utc" +%s)"

# --- --json: the same fields, numbers as numbers
run_gs list --json
check_eq "--json: every field" "$(printf '%s' "$out" | jq -c '.jobs[0] | keys_unsorted')" \
	'["id","name","state","reason","ranks","nodes","scheme","submitted","started","ended","elapsed","makespan","exit","dir","restarts"]'
check_eq "--json: types and values" \
	"$(printf '%s' "$out" | jq -c '.jobs[0] | [(.id|type), .name, .nodes, .exit, (.elapsed|type), .dir]')" \
	"[\"number\",\"$LONGNAME-256\",1,0,\"number\",\"$J/$q\"]"
check_eq "--json: the failed job's exit and reason" \
	"$(printf '%s' "$out" | jq -c '.jobs[1] | [.exit, (.reason | test("exited with status 2"))]')" '[2,true]'
check_eq "--json: elapsed is ended - started" \
	"$(printf '%s' "$out" | jq -r '.jobs[0] | ((.ended[0:19] + "Z" | fromdate) - (.started[0:19] + "Z" | fromdate) - .elapsed | fabs < 1.001)')" true

# --- a running job: elapsed grows, makespan says running
l=$("$GS" submit --no-metrics "$T/long.yaml")
running() { [ "$(jq -r .state "$J/$l/state.json")" = running ]; }
elapsed() { "$GS" list --json --format id,elapsed | jq ".jobs[] | select(.id == $l) | .elapsed"; }
check "the long job runs" poll 30 running
e1=$(elapsed)
grows() { [ "$(echo "$(elapsed) > $e1" | bc)" = 1 ]; }
check "running: elapsed grows" poll 10 grows
run_gs list --format id,state,elapsed,makespan,exit --noheader --state running
check_match "running: elapsed so far, makespan 'running', no exit yet" "$out" \
	"^$l +running +[0-9]+:[0-9]{2} +running +-$"
run_gs status "$l"
check_match "status of a running job: elapsed so far" "$out" "  elapsed:    [0-9]+:[0-9]{2} so far"
"$GS" cancel "$l" >/dev/null
check_eq "cancelled: exit 143, its ranks' SIGTERM as a shell says it" \
	"$("$GS" list --format id,exit --noheader --state cancelled | tr -s ' ')" "$l 143"

# --- status: the same fields
run_gs status "$b"
check_match "status: exit, the failing rank's" "$out" "  exit:       2$"
check_match "status: ranks on nodes" "$out" "  ranks:      2 on 1 node"
check_match "status: times with zone" "$out" "  submitted:  $iso[+-][0-9]{2}:[0-9]{2}"
check_match "status: elapsed" "$out" "  elapsed:    [0-9]+:[0-9]{2}"
check_eq "status --json: elapsed, nodes and exit as list's" \
	"$("$GS" status --json "$b" | jq -c '[.nodes, .elapsed, .exit]')" \
	"$("$GS" list --json --state failed | jq -c '.jobs[0] | [.nodes, .elapsed, .exit]')"

# --- elapsed as squeue's TIME over an hour and a day (the start moved back in state.json)
back() {
	jq ".started = ((.ended[0:19] + \"Z\" | fromdate) - $2 | todate | sub(\"Z\$\"; \".000Z\"))" \
	    "$J/$1/state.json" > "$T/s.json" && cp "$T/s.json" "$J/$1/state.json"
}
back "$q" 93784
back "$b" 3723
run_gs list --format id,elapsed --noheader --state done,failed
check_eq "elapsed: D-HH:MM:SS over a day, H:MM:SS over an hour" "$out" "$q  1-02:03:04
$b     1:02:03"
