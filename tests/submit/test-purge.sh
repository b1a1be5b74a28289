#!/bin/sh
# test-purge.sh — gridsubmit purge with real mpiexec jobs of the mandelbrot example: by id,
# by state, by age; a live job refused by name before anything is removed, never chosen
# otherwise; --dry-run removes nothing; the bytes said are the files' that went; each job
# goes whole (a purge cut short by a crash leaves no job that other commands trip on); ids
# stay never reused; --json.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "purge" "jq is not installed (scripts/install-deps)"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "purge: $MANDEL is not built"; exit 1; }
J="$GRIDSUBMIT_HOME/jobs"
at_exit sweep

mandel_job purge "$T/quick.yaml" 512
mandel_job purge "$T/long.yaml" 3000 --iter 5000
cat > "$T/bad.yaml" <<EOF
name: bad
program: "$MANDEL"
args: ["--no-such-option"]
ranks: 2
EOF

# bytes DIR: the bytes of the regular files below DIR, as purge counts them
bytes() { find -L "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

a=$("$GS" submit --no-metrics "$T/quick.yaml")
b=$("$GS" submit --no-metrics "$T/quick.yaml")
f=$("$GS" submit --no-metrics "$T/bad.yaml")
"$GS" wait "$a" "$b" "$f" --timeout 60 >/dev/null
l=$("$GS" submit --no-metrics "$T/long.yaml")
running() { [ "$(jq -r .state "$J/$l/state.json")" = running ]; }
check "the long job runs" poll 30 running

# --- what must be said
run_gs purge
check_eq "purge alone: usage (2), nothing removed" "$rc:$(ls "$J" | grep -c '^[0-9]*$')" "2:4"
check_match "purge alone: says how to choose" "$err" "say which jobs: ID..., --older-than or --state"
run_gs purge --state running
check_eq "--state running: usage (2)" "$rc" 2
check_match "--state running: only ended jobs" "$err" "only ended jobs are purged"
run_gs purge --state doen
check_match "--state doen: did you mean" "$rc:$err" "^2:.*unknown state 'doen' \\(did you mean 'done'\\?\\)"
run_gs purge --older-than 3x
check_match "--older-than 3x: the unit named" "$rc:$err" "^2:.*unknown unit 'x'"

# --- a live job named: refused, naming it, and nothing else removed
run_gs purge "$a" "$l"
check_eq "a live job named: exit 7" "$rc" 7
check_match "a live job named: said" "$err" "job $l is running: only ended jobs are purged \\(cancel it first\\)"
check "a live job named: the ended one named with it stays" test -f "$J/$a/state.json"
check "a live job named: it stays" test -f "$J/$l/state.json"
run_gs purge "$a" 9999
check_eq "an unknown id named: exit 2, nothing removed" "$rc:$(test -d "$J/$a" && echo kept)" "2:kept"

# --- --dry-run: said, nothing removed
want=$(bytes "$J/$a")
run_gs purge --dry-run "$a"
check_eq "--dry-run: what would go, its bytes" "$rc:$out" "0:would purge job $a (purge-512, done): $want bytes
would purge 1 job, $want bytes would be freed"
check "--dry-run: the job stays" test -f "$J/$a/state.json"

# --- by id: the job's directory and state go, the bytes are its files'
check "the job keeps its image" test -s "$J/$a/m.pgm"
run_gs purge "$a"
check_eq "purge ID: exit 0, the job and the bytes freed" "$rc:$out" "0:purged job $a (purge-512, done): $want bytes
purged 1 job, $want bytes freed"
check "purge ID: its directory is gone" test ! -e "$J/$a"
run_gs status "$a"
check_eq "purge ID: status says no such job" "$rc" 2
check_eq "purge ID: list no longer shows it" "$("$GS" list --noheader --format id | tr '\n' ' ')" "$b $f $l "

# --- by state: only the failed job; the live one is never chosen
run_gs purge --state failed,cancelled
check_eq "--state failed: the failed job alone" "$rc:$(printf '%s\n' "$out" | head -n 1)" \
	"0:purged job $f (bad, failed): $(echo "$out" | sed -n 's/.*: \([0-9]*\) bytes$/\1/p' | head -n 1) bytes"
check "--state failed: gone" test ! -e "$J/$f"
check "--state failed: the done one stays" test -d "$J/$b"

# --- by age: none ended a day ago, then one made older
run_gs purge --older-than 1d
check_eq "--older-than 1d: nothing yet" "$rc:$out" "0:no job to purge"
jq '.ended = "2020-01-01T00:00:00.000Z"' "$J/$b/state.json" > "$T/s" && cp "$T/s" "$J/$b/state.json"
run_gs purge --older-than 1d --json
check_eq "--older-than 1d --json: the old job" \
	"$(printf '%s' "$out" | jq -c '[.schema_version, .dry_run, [.jobs[] | .id, .state], .purged, (.bytes > 0), .exit_code]')" \
	"[3,false,[$b,\"done\"],1,true,0]"
check "--older-than: the live job stays" test -f "$J/$l/state.json"

# --- ids stay never reused: the newest purged while next-id was lost
"$GS" cancel "$l" >/dev/null
rm -f "$J/next-id"
run_gs purge "$l"
check_eq "a cancelled job: purged" "$rc" 0
check_eq "purging the newest keeps next-id" "$(cat "$J/next-id")" "$((l + 1))"
n=$("$GS" submit --no-metrics "$T/quick.yaml")
check "after purging the newest, a new id" test "$n" -gt "$l"
"$GS" wait "$n" --timeout 60 >/dev/null

# --- a purge cut short (renamed out, not yet removed): no job, no complaint; then gone
mv "$J/$n" "$J/.purge-$n"
run_gs list --noheader
check_eq "a half-purged job: list is clean" "$rc:$out:$err" "0::"
run_gs status "$n"
check_eq "a half-purged job: no such job" "$rc" 2
m=$("$GS" submit --no-metrics "$T/quick.yaml")
"$GS" wait "$m" --timeout 60 >/dev/null
"$GS" purge "$m" >/dev/null
check "the next purge removes what was left" test ! -e "$J/.purge-$n"
