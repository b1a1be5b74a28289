# gridsubmit run on the embedded default site file: the mandelbrot job end to end, the job
# directory, the event log, bad input that loses nothing, cancel (issue 2).
. tests/lib.sh

MANDEL="$SRC/$BUILD/examples/mandelbrot"
cat > "$T/job.yaml" <<YAML
name: mandel-test
program: $MANDEL
args: ["--size", "256", "--iter", "400", "--check", "--out", "m.pgm"]
ranks: 4
# the master and three workers, whatever this host's cores (2 on CI)
oversubscribe: true
runtime: {scheme: gss}
stage_out: [m.pgm]
YAML

run_gs run "$T/job.yaml" --no-metrics
check_eq "run exits 0 for a job that succeeds" "$rc" 0
check_match "run says the job is done (on stderr)" "$err" "^gridsubmit: job 1 done in"
check_match "the program checked its image" "$out" "image matches the sequential computation"
check_match "run says where the result is" "$err" "result: +$GRIDSUBMIT_HOME/jobs/1/m.pgm$"
check_match "run says where the event log is" "$err" "events: +$GRIDSUBMIT_HOME/jobs/1/events.jsonl"

D="$GRIDSUBMIT_HOME/jobs/1"
for f in job.yaml hostfile rankmap stdout stderr events.jsonl state.json master.status m.pgm; do
	check "the job directory has $f" test -f "$D/$f"
done
check_eq "hostfile: 4 ranks on this host" "$(cat "$D/hostfile")" "localhost:4"
check_eq "rankmap: one line per rank" "$(grep -vc '^#' "$D/rankmap")" 4
check_eq "state: done" "$(jq -r .state "$D/state.json")" "done"
check_eq "state: exit code 0" "$(jq -r .exit_code "$D/state.json")" 0
check_eq "state: the program started libgrt" "$(jq -r .libgrt "$D/state.json")" true
check_eq "state: 4 ranks" "$(jq -r .ranks "$D/state.json")" 4
check_eq "state: schema_version 2, the id a number" \
	"$(jq -c '[.schema_version, .id]' "$D/state.json")" "[2,1]"
check_match "state: ISO 8601 times" "$(jq -r .ended "$D/state.json")" "^20[0-9][0-9]-[01][0-9]-[0-3][0-9]T"

# the image equals one computed by a single process, outside libgrt's distribution
(cd "$T" && timeout 60 "$MPIEXEC" -n 1 "$MANDEL" --size 256 --iter 400 --out ref.pgm > /dev/null)
check "the result equals a one-process computation" cmp "$D/m.pgm" "$T/ref.pgm"
check_eq "the PGM has its header and 256x256 pixels" "$(wc -c < "$D/m.pgm")" $((15 + 65536))

# the event log (doc/runtime.md, "Events")
E="$D/events.jsonl"
check "every event line is JSON" jq -e . "$E"
check_eq "every record has v=1" "$(jq -s 'map(select(.v != 1)) | length' "$E")" 0
check_eq "the first record is start" "$(head -n 1 "$E" | jq -r .ev)" start
check_eq "start: the job id" "$(head -n 1 "$E" | jq -r .job)" 1
check_eq "start: N" "$(head -n 1 "$E" | jq -r .N)" 256
check_eq "start: the scheme" "$(head -n 1 "$E" | jq -r .scheme)" gss
check_eq "start: 4 ranks, rank 0 the master" \
	"$(head -n 1 "$E" | jq -r '[.ranks | length, .[0].role, .[1].node] | join(" ")')" \
	"4 master localhost"
check_eq "chunks cover the 256 units" "$(jq -s 'map(select(.ev == "chunk") | .count) | add' "$E")" 256
check_eq "chunk times: t_comm = t_exe - t_calc" \
	"$(jq -s 'map(select(.ev == "chunk") | (.t_exe - .t_calc - .t_comm) | fabs | select(. > 1e-6)) | length' "$E")" 0
check_eq "one round record" "$(jq -s 'map(select(.ev == "round")) | length' "$E")" 1
check_eq "the round's units per rank sum to N" "$(jq -s 'map(select(.ev == "round"))[0].units | add' "$E")" 256
check_eq "the last record is end, ok" "$(tail -n 1 "$E" | jq -r '.ev + " " + .status')" "end ok"
check_eq "end: per-rank units sum to N" "$(tail -n 1 "$E" | jq '[.ranks[].units] | add')" 256
check_eq "times never go back" \
	"$(jq -s '[.[].t] as $t | [range(1; $t | length) | select($t[.] < $t[. - 1])] | length' "$E")" 0

# the XDG default when GRIDSUBMIT_HOME is not set
(unset GRIDSUBMIT_HOME; XDG_STATE_HOME="$T/xdg" "$GS" run "$T/job.yaml" --no-metrics > /dev/null 2>&1)
check "without GRIDSUBMIT_HOME, jobs go to \$XDG_STATE_HOME/gridsubmit" \
	test -f "$T/xdg/gridsubmit/jobs/1/state.json"

# overrides from the command line
run_gs run "$T/job.yaml" --scheme fss --ranks 3 --no-metrics
check_eq "--scheme and --ranks: the job succeeds" "$rc" 0
check_eq "--ranks 3 places 3 ranks" "$(cat "$GRIDSUBMIT_HOME/jobs/2/hostfile")" "localhost:3"
check_eq "--scheme fss reaches the runtime" "$(head -n 1 "$GRIDSUBMIT_HOME/jobs/2/events.jsonl" | jq -r .scheme)" fss

# bad input: a located error, and no job is created
printf 'name: x\nprogram: %s\nranks: 2\nrunetime: {scheme: gss}\n' "$MANDEL" > "$T/bad.yaml"
run_gs run "$T/bad.yaml"
check_eq "an unknown key in the job file exits 3" "$rc" 3
check_match "with file:line:col and a suggestion" "$err" "bad.yaml:4:1: unknown key 'runetime' \(did you mean 'runtime'\?\)"
printf 'program: %s/nope\nranks: 2\n' "$T" > "$T/noprog.yaml"
run_gs run "$T/noprog.yaml"
check_eq "a program that does not exist exits 3" "$rc" 3
check_match "and says which file and program" "$err" "noprog\.yaml:1:10: 'program' cannot be started: $T/nope: No such file"
run_gs run "$T/missing.yaml"
check_eq "a job file that does not exist exits 3" "$rc" 3
printf 'program: %s\nranks: 2\nstage_in: [data/none.dat]\n' "$MANDEL" > "$T/nostage.yaml"
run_gs run "$T/nostage.yaml"
check_eq "a stage_in that does not exist exits 3" "$rc" 3
check_match "and names it" "$err" \
	"nostage\.yaml:3:12: 'stage_in' item 'data/none\.dat' cannot be staged: $T/data/none\.dat: No such file or directory"
mkfifo "$T/pipe"
printf 'program: %s\nranks: 2\nstage_in: [pipe]\n' "$MANDEL" > "$T/fifo.yaml"
run_gs run "$T/fifo.yaml"
check_eq "a stage_in that is a FIFO exits 3" "$rc" 3
check_match "and says what it is not" "$err" "fifo\.yaml:3:12: 'stage_in' item 'pipe' cannot be staged: $T/pipe: not a regular file or directory"
check_eq "bad input created no job" "$(ls "$GRIDSUBMIT_HOME/jobs" | grep -c '^[0-9]')" 2

# more ranks than slots: refused before it takes an id, with the reason (a job that does
# not oversubscribe; tests/broker/test-hosts.sh checks the whole text)
printf 'program: %s\nranks: 2\n' "$MANDEL" > "$T/two.yaml"
run_gs run "$T/two.yaml" --ranks 500 --no-metrics
check_eq "no placement exits 4" "$rc" 4
check_match "with the reason" "$err" "^gridsubmit: no placement: the job asks for 500 ranks"
run_gs submit "$T/two.yaml" --ranks 500 --no-metrics
check_eq "submit: no placement exits 4" "$rc" 4
check_eq "submit: no id printed" "$out" ""
check_eq "no placement created no job" "$(ls "$GRIDSUBMIT_HOME/jobs" | grep -c '^[0-9]')" 2

# a program that fails: exit 1, state failed
printf 'program: /bin/false\nranks: 2\n' > "$T/false.yaml"
run_gs run "$T/false.yaml" --no-metrics
check_eq "a failing program makes run exit 1" "$rc" 1
check_eq "and the job failed" "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/3/state.json")" failed

# cancel: SIGINT to run stops every rank
cat > "$T/long.yaml" <<YAML
program: $MANDEL
args: ["--size", "4000", "--iter", "20000"]
ranks: 3
oversubscribe: true
YAML
"$GS" run "$T/long.yaml" --no-metrics > "$T/long.out" 2>&1 &
pid=$!
at_exit "kill -9 $pid"
i=0
while [ $i -lt 100 ] && [ -z "$(live_here "$MANDEL --size 4000")" ]; do sleep 0.1; i=$((i + 1)); done
check "the long job's ranks are running" test -n "$(live_here "$MANDEL --size 4000")"
kill -INT $pid
wait $pid
check_eq "run exits 130 when interrupted (SIGINT)" "$?" 130
check_eq "the job is cancelled" "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/4/state.json")" cancelled
sleep 0.5
check_eq "no rank is left behind" "$(live_here "$MANDEL --size 4000")" ""
check "no mpiexec is left behind" no_process "mpiexec.*$GRIDSUBMIT_HOME/jobs/4"

# a stage_in directory is copied whole into the job directory, links followed; one that
# cannot be copied (a link loop) fails the job with the path, and leaves no partial copy
mkdir -p "$T/tree/sub/empty"
echo one > "$T/tree/a.txt"
echo two > "$T/tree/sub/b c.txt"
ln -s ../a.txt "$T/tree/sub/link.txt"
printf 'program: %s\nargs: ["--size", "32"]\nranks: 2\nstage_in: [tree/]\n' "$MANDEL" > "$T/tree.yaml"
run_gs run "$T/tree.yaml" --no-metrics
check_eq "a job staging a directory exits 0" "$rc" 0
D="$GRIDSUBMIT_HOME/jobs/5"
check_eq "the directory arrived whole" \
	"$(cd "$D/tree" && find . | sort | tr '\n' ' ')" \
	". ./a.txt ./sub ./sub/b c.txt ./sub/empty ./sub/link.txt "
check_eq "with the link's content as a file" "$(cat "$D/tree/sub/link.txt")" one
check "and not as a link" test ! -L "$D/tree/sub/link.txt"
ln -s .. "$T/tree/sub/loop"
run_gs run "$T/tree.yaml" --no-metrics
check_eq "a directory with a link loop: exit 5" "$rc" 5
check_match "the message names the path and the reason" "$err" \
	"stage_in: $T/tree/sub/loop: a symbolic link loop \\(it leads back to a directory above it\\)"
check_eq "the job failed" "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/6/state.json")" failed
check_eq "no partial copy is left in its directory" \
	"$(ls -A "$GRIDSUBMIT_HOME/jobs/6" | grep -c tree)" 0

# --- run JOB.yaml -- ARGS: ARGS after the job file's args (the program's last --size wins),
# recorded in the job directory's job.yaml; two job files are still refused
# job_args_of FILE: the args of a job.yaml that gridsubmit wrote (a block list), one line
job_args_of() {
	awk '/^args:/ { a = 1; next } a && /^- / { sub(/^- /, ""); gsub(/"/, "");
		printf "%s%s", s, $0; s = " "; next } a { exit }' "$1"
}
run_gs run "$T/job.yaml" --no-metrics -- --size 64
check_eq "run JOB.yaml -- ARGS exits 0" "$rc" 0
check_match "the program got ARGS after the job file's" "$out" "^mandelbrot: 64x64"
D=$(ls -d "$GRIDSUBMIT_HOME"/jobs/[0-9]* | sort -t/ -k1 -V | tail -n 1)
check_eq "job.yaml records the args, the job file's then ARGS" \
	"$(job_args_of "$D/job.yaml")" "--size 256 --iter 400 --check --out m.pgm --size 64"
check_match "and says they came from the command line" "$(head -n 5 "$D/job.yaml")" \
	"command line: .*-- 2 more args"
run_gs run "$T/job.yaml" "$T/job.yaml"
check_match "two job files: a usage error" "$rc:$err" "^2:.*one job file at a time"
run_gs run "$T/job.yaml" --ranks 2 --no-metrics -- --ranks 3
check_eq "an option after -- is the program's, not run's" "$rc" 1
check_match "and the program says so" "$out$err" "bad argument '--ranks'"
