# A program that never starts libgrt (a plain MPI program, or any program) is judged as
# mpiexec judges it (jobrun_verdict, submit/jobrun.c): done when every rank exits 0,
# failed with the reason otherwise (issue 31, in part).
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "plain programs" "jq is not installed"; exit 0; }
# plain NAME RANKS ARGS...: a job file $T/NAME.yaml running /bin/sh with ARGS, no restart
plain() {
	pn=$1
	pr=$2
	shift 2
	{
		echo "name: $pn"
		echo "program: /bin/sh"
		yaml_args "$@"
		echo "ranks: $pr"
		# a worker's status among several, whatever this host's cores
		echo "oversubscribe: true"
		echo "restarts: 0"
	} > "$T/$pn.yaml"
}
J=$GRIDSUBMIT_HOME/jobs

plain hello 2 -c 'echo hello from $PMI_RANK'
run_gs run "$T/hello.yaml" --no-metrics
check_eq "every rank exits 0: run exits 0" "$rc" 0
check_eq "each rank's output" "$(printf '%s\n' "$out" | sort | tr '\n' ' ')" \
	"hello from 0 hello from 1 "
check_eq "the job is done" "$(jq -r .state "$J/1/state.json")" done

plain worker 3 -c 'exit $(( PMI_RANK == 2 ? 4 : 0 ))'
run_gs run "$T/worker.yaml" --no-metrics
check_eq "a worker rank exits 4: run exits 1" "$rc" 1
check_eq "the job failed" "$(jq -r .state "$J/2/state.json")" failed
check_match "with mpiexec's status as the reason" "$(jq -r .reason "$J/2/state.json")" \
	"^a rank failed: mpiexec exited with status 4"

plain master 2 -c 'exit $(( PMI_RANK == 0 ? 3 : 0 ))'
run_gs run "$T/master.yaml" --no-metrics
check_eq "rank 0 exits 3: run exits 1" "$rc" 1
check_match "the reason names rank 0's status" "$(jq -r .reason "$J/3/state.json")" \
	"^rank 0 exited with status 3 \\(libgrt never started\\)"
check_match "and that no restart repeats it" "$err" "no restart"

plain killed 2 -c '[ $PMI_RANK = 1 ] && kill -9 $$; exit 0'
run_gs run "$T/killed.yaml" --no-metrics
check_eq "a rank killed by SIGKILL: run exits 1" "$rc" 1
check_match "mpiexec's status carries 128+9" "$(jq -r .reason "$J/4/state.json")" \
	"status 137"
