#!/bin/sh
# test-json.sh — every command's --json through the one writer (gridsubmit-json(5)): each
# document parses, has "schema_version" 3 as its first key, job ids are integers and "ended"
# is a time string or null wherever they appear; submit, wait, cancel and sites check
# --json with their fields; cancel and wait of several ids (an unknown one among them:
# exit 2 after the others); list --state and --format, and their usage errors; the error
# document of a failure, exactly (an unknown id, a bad job file with no id taken, a bad
# option, cancel's per job and whole). The walk over every command is test-json-walk.sh.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "json" "jq is not installed (scripts/install-deps)"; exit 0; }
command -v python3 >/dev/null 2>&1 || { skip "json" "python3 is not installed"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "json: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
at_exit sweep

# doc_ok NAME TEXT: TEXT is one JSON object, schema_version 3 first, every "id" and
# "job_id" an integer (or null: an argument that is no job id), every "ended" a string or
# null
doc_ok() {
	check "$1: one document, schema_version 3 first, ids integers, ended a time or null" \
	    python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert isinstance(d, dict), "not an object"
assert list(d)[0] == "schema_version" and d["schema_version"] == 3, "schema_version"
def walk(o, path):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("id", "job_id"):
                assert v is None or (isinstance(v, int) and not isinstance(v, bool)), \
                    "%s.%s is %r" % (path, k, v)
            if k == "ended":
                assert v is None or isinstance(v, str), "%s.ended is %r" % (path, v)
            walk(v, path + "." + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            walk(v, "%s[%d]" % (path, i))
walk(d, "")' "$2"
}

mandel_job json "$T/quick.yaml" 256
mandel_job json "$T/long.yaml" 3000 --iter 5000

# --- sites check --json: each file ok with its totals, or its errors located
cat > "$T/bad.yaml" <<EOF
master: x
sites:
  - name: A
    linkk: 3
    nodes: [{host: a, cores: 1, cpu_mhz: 1000}]
EOF
run_gs sites check --json "$T/bad.yaml" sites/tiger.yaml "$T/none.yaml"
check_eq "sites check --json: exit 3 (a file is bad)" "$rc" 3
doc_ok "sites check" "$out"
check_eq "sites check --json: ok per file" \
	"$(printf '%s' "$out" | jq -c '[.files[] | .ok]')" '[false,true,false]'
check_eq "sites check --json: the good file's totals" \
	"$(printf '%s' "$out" | jq -c '.files[1].totals')" '{"sites":4,"nodes":16,"cores":16,"slots":16}'
check_eq "sites check --json: an error with file, line, col, message" \
	"$(printf '%s' "$out" | jq -c '.files[0].errors[1]')" \
	"{\"file\":\"$T/bad.yaml\",\"line\":4,\"col\":5,\"message\":\"unknown key 'linkk' (did you mean 'link'?)\"}"
check_eq "sites check --json: every error of the bad file" \
	"$(printf '%s' "$out" | jq '.files[0].errors | length')" 2
check_match "sites check --json: a missing file's error" \
	"$(printf '%s' "$out" | jq -r '.files[2].errors[0].message')" '^cannot open'
check_eq "sites check --json: nothing on stderr" "$err" ""
run_gs sites check --json sites/tiger.yaml
check_eq "sites check --json: exit 0 when every file is ok" "$rc" 0

# --- the documents that need no job
run_gs schedule --scheme gss -N 100 -P 4 --json
doc_ok "schedule" "$out"
run_gs sites show sites/tiger.yaml --json
doc_ok "sites show" "$out"
run_gs rank "$T/quick.yaml" --no-metrics --json
doc_ok "rank" "$out"
run_gs experiment list --json
doc_ok "experiment list" "$out"

# --- submit --json, wait --json, status, list, top of a job that is done
run_gs submit --no-metrics --json "$T/quick.yaml"
check_eq "submit --json: exit 0" "$rc" 0
doc_ok "submit" "$out"
q=$(printf '%s' "$out" | jq .id)
check_eq "submit --json: id, dir, ranks, scheme, name" \
	"$(printf '%s' "$out" | jq -c '[.id, .dir, .ranks, .scheme, .name]')" \
	"[$q,\"$J/$q\",3,\"gss\",\"json-256\"]"
check_match "submit --json: its state" "$(printf '%s' "$out" | jq -r .state)" \
	'^(brokering|pending|staging|launching|running|done)$'
run_gs wait --json "$q" --timeout 60
check_eq "wait --json: exit 0" "$rc" 0
doc_ok "wait" "$out"
check_eq "wait --json: the job's end" \
	"$(printf '%s' "$out" | jq -c '[.jobs[0] | .id, .state, .reason, (.ended | type), .exit_code] + [.exit_code]')" \
	"[$q,\"done\",null,\"string\",0,0]"
run_gs status --json "$q"
doc_ok "status" "$out"
check_eq "status --json: exit_code as wait's, mpiexec_exit, makespan" \
	"$(printf '%s' "$out" | jq -c '[.exit_code, .mpiexec_exit, (.makespan > 0)]')" '[0,0,true]'
run_gs top --json "$q"
doc_ok "top" "$out"
check_eq "top --json: the job id, finished (a boolean), ranks counted" \
	"$(printf '%s' "$out" | jq -c '[.id, .finished, .ranks, (.per_rank | length)]')" "[$q,true,3,3]"

# --- several ids: two long jobs, an unknown one among them
# (--now: on a host of 2 cores the second would wait in the queue for the first's slots)
a=$("$GS" submit --no-metrics "$T/long.yaml")
b=$("$GS" submit --no-metrics --now "$T/long.yaml")
run_gs wait "$a" "$b" --timeout 0.5
check_eq "wait A B --timeout: 124 when they run on" "$rc" 124
check_match "wait A B --timeout: both named" "$err" "job $a: still running.*"
check_match "wait A B --timeout: both named (B)" "$err" "job $b: still running"
run_gs list --state running --format id
check_eq "list --state running: the two long jobs" "$(printf '%s\n' "$out" | tr '\n' ' ')" \
	"ID $a $b "
run_gs cancel --json "$a" 999 "$b"
check_eq "cancel A 999 B: exit 2 (an unknown id), after the others" "$rc" 2
doc_ok "cancel" "$out"
check_eq "cancel --json: per job what was done" \
	"$(printf '%s' "$out" | jq -c '[.jobs[] | [.id, .action // .error.message, .state, .exit_code]] + [.exit_code]')" \
	"[[$a,\"cancelled\",\"cancelled\",0],[999,\"no such job\",null,2],[$b,\"cancelled\",\"cancelled\",0],2]"
check_eq "cancel --json: nothing left here" \
	"$(printf '%s' "$out" | jq -c '[.jobs[0] | .processes_left, .remote_nodes]')" '[[],[]]'
check_eq "cancel: both recorded" "$(jq -r .state "$J/$a/state.json") $(jq -r .state "$J/$b/state.json")" \
	"cancelled cancelled"
check_eq "cancel: no mandelbrot process left" "$(live_here "$MANDEL")" ""
run_gs wait "$a" "$b"
check_eq "wait A B (cancelled): exit 6" "$rc" 6
check_match "wait A B: a line per job, naming the cancel" "$(printf '%s' "$out" | tr '\n' ';')" \
	"^job $a cancelled \\(cancelled by gridsubmit cancel \\(pid [0-9]+, user [^)]+\\)\\);job $b cancelled \\(cancelled by gridsubmit cancel \\(pid [0-9]+, user [^)]+\\)\\)$"
run_gs wait "$q" "$a"
check_eq "wait Q A: the first non-zero (6)" "$rc" 6
run_gs wait nosuch "$q"
check_eq "wait X Q: exit 2, Q still waited for" "$rc:$out" "2:job $q done"
check_match "wait X Q: X named" "$err" "nosuch"
run_gs wait --json 999 "$q"
check_eq "wait --json 999 Q: the unknown id and Q" \
	"$(printf '%s' "$out" | jq -c '[.jobs[] | [.id, .error.message // .state, .exit_code]] + [.exit_code]')" \
	"[[999,\"no such job\",2],[$q,\"done\",0],2]"
run_gs cancel "$a" "$b"
check_eq "cancel A B again: exit 0, both said" "$rc:$out" \
	"0:job $a had already ended (cancelled); nothing to cancel
job $b had already ended (cancelled); nothing to cancel"
run_gs cancel
check_eq "cancel without an id: usage (2)" "$rc" 2
run_gs wait
check_eq "wait without an id: usage (2)" "$rc" 2

# --- list --json, --state, --format
run_gs list --json
doc_ok "list" "$out"
check_eq "list --json: ids are the jobs' numbers" \
	"$(printf '%s' "$out" | jq -c '[.jobs[].id]')" "[$q,$a,$b]"
check_eq "list --json: every field by default" \
	"$(printf '%s' "$out" | jq -c '.jobs[0] | keys_unsorted')" \
	'["id","name","state","reason","ranks","nodes","scheme","submitted","started","ended","elapsed","makespan","exit","dir","restarts"]'
run_gs list --state done
check_eq "list --state done: the header and the quick job" \
	"$(printf '%s' "$out" | awk '{ print $1 }' | tr '\n' ' ')" "ID $q "
run_gs list --state cancelled,done --format state,id
check_eq "list --state S,S --format: in the order given" "$out" "STATE     ID
done      $q
cancelled $a
cancelled $b"
run_gs list --format id,reason,ended --state cancelled
check_match "list --format reason, ended: the values" "$out" \
	"^$a +cancelled by gridsubmit cancel \\(pid [0-9]+, .*(\\)|…) +[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}[+-][0-9]{2}:[0-9]{2}$"
run_gs list --json --format id,state --state cancelled
check_eq "list --json --format: only those keys" "$(printf '%s' "$out" | jq -c '.jobs')" \
	"[{\"id\":$a,\"state\":\"cancelled\"},{\"id\":$b,\"state\":\"cancelled\"}]"
run_gs list --state pending
check_eq "list --state pending: the header alone" "$rc:$out" \
	"0:ID NAME STATE ELAPSED NODES EXIT REASON"
run_gs list --state runing
check_eq "list --state runing: usage (2)" "$rc:$out" "2:"
check_match "list --state runing: did you mean" "$err" "unknown state 'runing' \\(did you mean 'running'\\?\\)"
run_gs list --format id,nmae
check_eq "list --format nmae: usage (2)" "$rc" 2
check_match "list --format nmae: did you mean" "$err" "unknown field 'nmae' \\(did you mean 'name'\\?\\)"
run_gs list --format ,
check_eq "list --format with no field: usage (2)" "$rc" 2

# --- the error document: on stdout for a failure, the exit status unchanged, the message
# what stderr says without the program's name, every line of it under messages
run_gs status 9999 --json
check_eq "status 9999 --json: exit 2 and the error document" \
	"$rc:$(printf '%s' "$out" | jq -c .)" \
	'2:{"schema_version":3,"error":{"code":2,"message":"job 9999: no such job (see gridsubmit list)","messages":["job 9999: no such job (see gridsubmit list)"]}}'
check_eq "status 9999 --json: stderr as without --json" "$err" \
	"gridsubmit: job 9999: no such job (see gridsubmit list)"
printf 'name: bad\nprogram: "%s"\nranks: 3\nrankz: 2\nsheme: x\n' "$MANDEL" > "$T/bad.yaml"
n=$(next_id)
run_gs submit --json "$T/bad.yaml"
check_eq "submit --json of a bad file: exit 3, every error located" \
	"$rc:$(printf '%s' "$out" | jq -c '[.error.code, .error.message, (.error.messages | length)]')" \
	"3:[3,\"$T/bad.yaml:4:1: unknown key 'rankz' (did you mean 'ranks'?)\",2]"
check_eq "submit --json of a bad file: no id taken" "$(next_id)" "$n"
run_gs rank "$T/bad.yaml" --json
check_eq "rank --json of a bad file: the same error document" \
	"$rc:$(printf '%s' "$out" | jq -c '[.error.code, .error.message]')" \
	"3:[3,\"$T/bad.yaml:4:1: unknown key 'rankz' (did you mean 'ranks'?)\"]"
run_gs list --json --bogus
check_eq "list --json --bogus: a usage error's document" \
	"$rc:$(printf '%s' "$out" | jq -c '.error | [.code, .message]')" \
	"2:[2,\"unknown option '--bogus'\"]"
run_gs cancel --json 999
check_eq "cancel --json 999: the job's error and the document's" \
	"$rc:$(printf '%s' "$out" | jq -c '[.jobs[0].error, .error.code, .error.message]')" \
	'2:[{"code":2,"message":"no such job"},2,"job 999: no such job (see gridsubmit list)"]'
run_gs status --json "$q"
check_eq "status --json of a job: no error object" "$rc:$(printf '%s' "$out" | jq -c .error)" "0:null"
