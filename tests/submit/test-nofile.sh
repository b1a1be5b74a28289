# run and submit without a job file, as srun users expect (issue 31, in part):
# `run [-n N] [--name NAME] [--stage-in F]... -- PROGRAM [ARGS...]` on the embedded site
# with real mpiexec: the program found as mpiexec finds it, staging, the name in list, the
# job directory's job.yaml running the same job again, submit then wait, resume, a libgrt
# program; every mistake of the command line with its exact text, exit 2 and no job id
# taken; and --name and --stage-in over a job file.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "runs without a job file" "jq is not installed"; exit 0; }
J=$GRIDSUBMIT_HOME/jobs
# the runs below start from other directories
case $GS in /*) ;; *) GS=$SRC/$GS ;; esac
MANDEL="$SRC/$BUILD/examples/mandelbrot"

# --- the program and its args after --, ranks with -n
run_gs run -n 2 --no-metrics -- /bin/echo hi
check_eq "run -n 2 -- /bin/echo hi exits 0" "$rc" 0
check_eq "and prints hi once per rank" "$out" "hi
hi"
check_match "the job is named after the program" "$err" "^gridsubmit: job 1 \\(echo\\): 2 ranks"
check_eq "the job is done" "$(jq -r .state "$J/1/state.json")" "done"
check_eq "its hostfile: 2 ranks here" "$(cat "$J/1/hostfile")" "localhost:2"
check_eq "state.json names no job file" "$(jq -r .job_file "$J/1/state.json")" null

run_gs run --no-metrics -- /bin/echo one
check_eq "without -n, one rank (as srun and mpiexec start)" "$rc:$out" "0:one"

# a word without '/' is looked up in PATH; one with '/' is from the current directory
mkdir -p "$T/bin" "$T/work"
printf '#!/bin/sh\necho "greet: $*"\n' > "$T/bin/greet"
chmod +x "$T/bin/greet"
id=$(next_id)
out=$(PATH="$T/bin:$PATH" "$GS" run -q --no-metrics -- greet a 'b c' 2>"$T/err")
check_eq "-- greet: found in PATH, its args passed as words" "$?:$out" "0:greet: a b c"
check_match "job.yaml records the program found, absolute" "$(cat "$J/$id/job.yaml")" \
	"^program: \"$T/bin/greet\"$"
id=$(next_id)
out=$(cd "$T" && "$GS" run -q --no-metrics -- bin/greet x 2>"$T/err")
check_eq "-- bin/greet: from the current directory" "$?:$out" "0:greet: x"
check_eq "named greet" "$(jq -r .name "$J/$id/state.json")" greet

# --- staging: --stage-in data.txt -- /bin/cat data.txt
echo "the staged data" > "$T/work/data.txt"
id=$(next_id)
out=$(cd "$T/work" && "$GS" run -q --no-metrics --name catter --stage-in data.txt -- \
	/bin/cat data.txt 2>"$T/err")
check_eq "--stage-in data.txt -- /bin/cat data.txt prints the file" "$?:$out" \
	"0:the staged data"
check "the copy is in the job directory" cmp "$J/$id/data.txt" "$T/work/data.txt"
check_match "--name is shown by list" "$("$GS" list --format id,name,state)" \
	"^$id +catter +done$"
check_match "and by status" "$("$GS" status "$id")" "catter"

# --- the job directory's job.yaml runs the same job again, from anywhere
D=$J/$id
check_match "job.yaml says it came from the command line" "$(head -n 5 "$D/job.yaml")" \
	"made from: the command line"
rid=$(next_id)
out=$(cd / && "$GS" run -q "$D/job.yaml" --sites "$D/sites.yaml" 2>"$T/err")
check_eq "run DIR/job.yaml --sites DIR/sites.yaml: the same output" "$?:$out" \
	"0:the staged data"
check_eq "the same name" "$(jq -r .name "$J/$rid/state.json")" catter
check_eq "the same ranks" "$(jq -r .ranks "$J/$rid/state.json")" 1
check "the same file staged (from the first job's copy)" cmp "$J/$rid/data.txt" \
	"$T/work/data.txt"

# --- submit -- PROGRAM, then wait
run_gs submit -n 3 --oversubscribe --no-metrics --name sub -- /bin/sh -c 'echo "rank $PMI_RANK"'
check_match "submit -- PROGRAM prints the id alone" "$rc:$out" "^0:[0-9]+$"
sid=$out
run_gs wait "$sid" --timeout 60
check_eq "wait: the job is done" "$rc" 0
check_eq "its output, one line per rank" "$("$GS" logs "$sid" | sort | tr '\n' ' ')" \
	"rank 0 rank 1 rank 2 "
check_eq "submit's --name" "$(jq -r .name "$J/$sid/state.json")" sub

# --- resume loads the recorded job.yaml: a program that fails once (it leaves a mark in
# its job directory), then resumed there
id=$(next_id)
run_gs run --no-metrics --restarts 0 -- /bin/sh -c 'test -e mark || { : > mark; exit 3; }'
check_eq "a run without a job file that fails: exit 1" "$rc:$(jq -r .state "$J/$id/state.json")" \
	"1:failed"
run_gs resume "$id"
check_eq "resume runs it again from its job.yaml, in its directory: done" \
	"$rc:$(jq -r .state "$J/$id/state.json")" "0:done"

# --- a libgrt program with its args and -n 3
id=$(next_id)
out=$(cd "$T/work" && "$GS" run -q -n 3 --oversubscribe --no-metrics -- "$MANDEL" --size 128 --check \
	--out m.pgm 2>"$T/err")
check_eq "mandelbrot -n 3 without a job file exits 0" "$?" 0
check_match "with its result checked" "$out" \
	"^mandelbrot: 128x128, scheme gss, 3 ranks, .*image matches the sequential computation"
check_eq "done, with the runtime's end record" \
	"$(jq -r .state "$J/$id/state.json"):$(tail -n 1 "$J/$id/events.jsonl" | jq -r .status)" \
	"done:ok"
check_eq "the image in its job directory" "$(wc -c < "$J/$id/m.pgm")" $((15 + 128 * 128))
out=$("$GS" run -q --no-metrics -- "$MANDEL" --size 64 --check 2>"$T/err")
check_eq "without -n, a libgrt program runs on its master alone: exit 0" "$?" 0
check_match "every unit computed there, the result checked" "$out" \
	"^mandelbrot: 64x64, scheme gss, 1 ranks, .*image matches the sequential computation"

# --- mistakes: the exact text, exit 2, no job id taken, nothing started
# refused WANT-ERR ARGS...: run ARGS is refused with exit 2, its first line of stderr
# exactly WANT-ERR, no job id taken
refused() {
	rf_want=$1
	shift
	rf_id=$(next_id)
	run_gs run --no-metrics "$@"
	check_eq "run $*: exit 2" "$rc" 2
	check_eq "run $*: the message" "$(printf '%s\n' "$err" | head -n 1)" "$rf_want"
	check_eq "run $*: no job id taken" "$(next_id)" "$rf_id"
}
mkfifo "$T/pipe"
mkdir -p "$T/other"
echo other > "$T/other/data.txt"
cd "$T/work" || exit 1
refused "gridsubmit run: --stage-in: nodata.txt: No such file or directory" \
	--stage-in nodata.txt -- /bin/cat nodata.txt
refused "gridsubmit run: --stage-in: $T/pipe: not a regular file or directory" \
	--stage-in "$T/pipe" -- /bin/true
refused "gridsubmit run: --stage-in: ../other/data.txt: would be staged as 'data.txt', as stage_in item '$T/work/data.txt' is; rename one" \
	--stage-in data.txt --stage-in ../other/data.txt -- /bin/true
refused "gridsubmit run: --stage-in: $T/bin/: would replace gridsubmit's own 'bin' in the job directory; rename it" \
	--stage-in "$T/bin/" -- /bin/true
refused "gridsubmit run: nosuchprog-31: not found in PATH" -- nosuchprog-31
refused "gridsubmit run: ./missing: No such file or directory (was it built? run make)" -- ./missing
refused "gridsubmit run: $T: is a directory, not a program" -- "$T"
refused "gridsubmit run: data.txt: not found in PATH (give a path to run the file of this directory: ./data.txt)" \
	-- data.txt
refused "gridsubmit run: ./data.txt: cannot run it: Permission denied" -- ./data.txt
# executable, but neither ELF nor "#!": what a job file's program: is refused for too
printf 'echo hi\n' > "$T/work/noshebang.c" && chmod +x "$T/work/noshebang.c"
refused "gridsubmit run: ./noshebang.c: not a program (neither an ELF executable nor a script that starts with '#!')" \
	-- ./noshebang.c
cp "$T/bin/greet" "$T/work/greet"
id=$(next_id)
out=$(PATH=".:$PATH" "$GS" run --no-metrics -- greet 2>&1)
check_eq "PATH's relative entries are not searched: exit 2" "$?" 2
check_eq "the file here is named, not run" "$out:$(next_id)" \
	"gridsubmit run: greet: not found in PATH (give a path to run the file of this directory: ./greet):$id"
refused "gridsubmit run: --ranks: '0' is not a whole number from 1 to 100000" \
	-n 0 -- /bin/true
refused "gridsubmit run: --ranks: 'x' is not a whole number from 1 to 100000" \
	-n x -- /bin/true
refused "gridsubmit run: --name: 'a/b' is not a job name (at most 128 bytes, no '/' or control characters)" \
	--name a/b -- /bin/true
refused "gridsubmit run: missing PROGRAM after --" --
refused "gridsubmit run: /bin/echo is a program, not a job file: put -- before it (gridsubmit run -- /bin/echo ...)" \
	/bin/echo hi
refused "gridsubmit run: greet is a program, not a job file: put -- before it (gridsubmit run -- ./greet)" \
	greet
refused "gridsubmit run: missing JOB.yaml or -- PROGRAM"
cd "$SRC" || exit 1
id=$(next_id)
run_gs submit --stage-in "$T/nodata.txt" -- /bin/true
check_eq "submit: a missing --stage-in exits 2" "$rc" 2
check_eq "submit: the message names submit and the option" "$err" \
	"gridsubmit submit: --stage-in: $T/nodata.txt: No such file or directory"
check_eq "submit: no id printed, none taken" "$out:$(next_id)" ":$id"
check_eq "nothing of a refused run was started" "$(live_here nosuchprog-31)" ""

# --- --name and --stage-in over a job file
cat > "$T/job.yaml" <<YAML
name: fromfile
program: /bin/cat
args: [in.txt, data.txt]
ranks: 1
stage_in: [in.txt]
YAML
echo "the file's own" > "$T/in.txt"
id=$(next_id)
out=$(cd "$T/work" && "$GS" run -q "$T/job.yaml" --name renamed --stage-in data.txt \
	--no-metrics 2>"$T/err")
check_eq "run JOB.yaml --name X --stage-in F: both files read" "$?:$out" \
	"0:the file's own
the staged data"
check_eq "--name overrides the file's name" "$(jq -r .name "$J/$id/state.json")" renamed
check_match "list shows it" "$("$GS" list --format id,name)" "^$id +renamed$"
check_match "job.yaml records the name" "$(cat "$J/$id/job.yaml")" '^name: "renamed"$'
check_eq "and both stage_in copies" \
	"$(awk '/^stage_in:/ { s = 1; next } s && /^- / { printf "%s ", $2 } s && !/^- / { s = 0 }' \
	"$J/$id/job.yaml")" '"in.txt" "data.txt" '
run_gs run "$T/job.yaml" --name 'a/b'
check_eq "a bad --name with a job file: exit 2" "$rc:$err" \
	"2:gridsubmit run: --name: 'a/b' is not a job name (at most 128 bytes, no '/' or control characters)"
run_gs run "$T/job.yaml" --stage-in "$T/other/../in.txt"
check_eq "a --stage-in of the job file's own name: exit 2" "$rc:$err" \
	"2:gridsubmit run: --stage-in: $T/other/../in.txt: would be staged as 'in.txt', as stage_in item 'in.txt' is; rename one"
