#!/bin/sh
# test-pi.sh — the plain MPI example (examples/pi, no libgrt): its value of pi against
# M_PI on 1 to 4 ranks with a real mpiexec, its usage errors, and the example as the README
# runs it, `gridsubmit run examples/pi/job.yaml`: done, every rank's end recorded.
. tests/lib.sh

PI=$BUILD/examples/pi
[ -x "$PI" ] || { fail "pi: $PI is not built (run make)"; exit 0; }
command -v jq >/dev/null 2>&1 || { skip "pi" "jq is not installed"; exit 0; }

for n in 1 2 3 4; do
	out=$(timeout -k 5 60 $MPIEXEC -n $n "$PI" --n 1000000 2>&1)
	check_eq "pi on $n ranks exits 0" "$?" 0
	check_match "pi on $n ranks matches M_PI" "$out" \
	    "^pi 3\\.14159265358[0-9]* error [0-9.e-]+ \\(1000000 intervals, $n ranks, 1 times\\): matches M_PI$"
done
for bad in "--n 0" "--repeat x" "--fail 1" "--fail 1:0" "--bogus"; do
	# shellcheck disable=SC2086
	timeout -k 5 30 $MPIEXEC -n 2 "$PI" $bad > "$T/out" 2> "$T/err"
	check_eq "pi $bad: exit status 2" "$?" 2
	check_match "pi $bad: says its usage" "$(cat "$T/err")" "^usage: pi "
done

# as README's quick start runs it: the job file of the example, the embedded site file
run_gs run examples/pi/job.yaml --no-metrics
check_eq "gridsubmit run examples/pi/job.yaml exits 0" "$rc" 0
# ranks: {min: 2, max: 4}: as many as this host's cores give slots
np=$(nproc)
[ "$np" -gt 4 ] && np=4
[ "$np" -lt 2 ] && np=2
check_match "its output is the program's, on $np ranks" "$out" \
    "^pi 3\\.1415926535[0-9]* error .* \\(100000000 intervals, $np ranks, 1 times\\): matches M_PI$"
check_eq "the job is done" "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/1/state.json")" done
check_eq "each of its $np ranks exited 0" \
    "$(jq -r '[.rank_ends[] | select(.exit == 0)] | length' "$GRIDSUBMIT_HOME/jobs/1/state.json")" "$np"
