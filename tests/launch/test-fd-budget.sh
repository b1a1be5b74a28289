#!/bin/sh
# test-fd-budget.sh — descriptors budgeted for the ranks (launch/fd-budget.h), through the
# command line with real mpiexec on this host: 20 ranks (about 144 descriptors) under a
# hard limit of 120 are refused before a job id is taken (exit 5, the reason naming the
# need, the limit and what to do, nothing in the job store, nothing started); under a
# soft limit of 120 with room in the hard one they run to done, each with the soft limit
# raised to the need (ranks inherit it), not to the hard limit.
. tests/lib.sh

# gs_limited SOFT HARD ARGS: gridsubmit under those limits of open files, as run_gs
gs_limited() {
	soft=$1 hard=$2
	shift 2
	sh -c 'ulimit -Sn "$1" && ulimit -Hn "$2" && shift 2 && exec "$@"' sh "$soft" "$hard" \
	    "$GS" "$@" > "$T/.out" 2> "$T/.err"
	rc=$?
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}

gs_limited 120 120 run -n 20 --oversubscribe -- /bin/true
check_eq "fd budget: refused under a hard limit of 120" "$rc" 5
check_eq "fd budget: the reason" "$err" "gridsubmit: 20 ranks need about 144 file \
descriptors; the hard limit is 120: raise it (ulimit -Hn as root, or LimitNOFILE= of the \
service) or run fewer ranks"
check_eq "fd budget: no job id taken" "$(ls "$GRIDSUBMIT_HOME/jobs" 2>/dev/null | wc -l)" 0
check_eq "fd budget: nothing started" "$(live_here "/bin/true" | wc -l)" 0

gs_limited 120 4096 run -n 20 --oversubscribe -- /bin/sh -c 'ulimit -Sn'
check_eq "fd budget: a soft limit of 120 raised, the job done" "$rc" 0
check_eq "fd budget: every rank has the raised limit, no more" \
    "$(printf '%s\n' "$out" | grep -c '^144$')" 20
run_gs status 1
check_match "fd budget: status says done" "$out" "done"
