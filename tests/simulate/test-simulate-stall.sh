#!/bin/sh
# test-simulate-stall.sh — a simulation that stalls (doc/simulate.md, "A stalled
# simulation"; launch/launchers/smpi-stall.c): two ranks of a program built here with
# smpicc each wait for the other's message first, so SimGrid finds every rank waiting and
# says "Oops! Deadlock detected". The job fails (exit 1) naming the stall, its simulated
# time and where SimGrid's list of the waiting ranks is; state.json and `status` say
# failed with that reason, never done; no smpirun is left. The same program sending first
# ends done, so the stall, not the program, is what failed.
# Skipped when SimGrid's smpicc is not installed.
. tests/lib.sh

command -v smpicc >/dev/null 2>&1 || { skip "simulate stall" "smpicc is not installed (SimGrid)"; exit 0; }
command -v jq >/dev/null 2>&1 || { skip "simulate stall" "jq is not installed"; exit 0; }
J=$GRIDSUBMIT_HOME/jobs
at_exit sweep

# prog NAME FIRST: a program of two ranks whose rank 0 first receives (recv) or sends (send)
prog() {
	mkdir -p "$T/$1/smpi"
	cat > "$T/$1.c" <<EOF2
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	int rank, x = 1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0 && "$2"[0] == 's')
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (rank == 1)
		MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	if (rank == 0 && "$2"[0] != 's')
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("exchanged\n");
	MPI_Finalize();
	return 0;
}
EOF2
	smpicc -o "$T/$1/smpi/$1" "$T/$1.c" > "$T/$1.cc" 2>&1 ||
		{ fail "simulate stall: smpicc $1.c"; sed -e 's/^/#   /' "$T/$1.cc"; exit 1; }
	cp "$T/$1/smpi/$1" "$T/$1/$1"
	printf '%s\n' "name: $1" "program: $T/$1/$1" "ranks: 2" > "$T/$1.yaml"
}

cat > "$T/sites.yaml" <<'YAML'
sites:
  - name: pair
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    nodes:
      - {host: "p[1-2]", cpu_mhz: 2000, cores: 1}
YAML

prog stall recv
id=$(next_id)
run_gs simulate "$T/stall.yaml" --sites "$T/sites.yaml"
check_eq "stalled: exit 1" "$rc" 1
check_match "stalled: the reason, its simulated time and where the waiting ranks are listed" "$err" \
	"failed in [0-9.]+ s .*: the simulation stalled: every rank was waiting for a message that never came \\(SimGrid's deadlock, at [0-9.e-]+ s of simulated time; its list of the waiting ranks is in $J/$id/stderr\\)"
check_eq "stalled: state.json says failed" "$(jq -r .state "$J/$id/state.json")" failed
run_gs status "$id"
check_match "stalled: status says failed with the reason" "$out" \
	"state: +failed \\(the simulation stalled: every rank was waiting"
check "stalled: SimGrid's list is in the job's stderr" grep -q "Deadlock detected" "$J/$id/stderr"
check "stalled: no smpirun left" gone "smpirun.*$T/stall"

prog fine send
id=$(next_id)
run_gs simulate "$T/fine.yaml" --sites "$T/sites.yaml"
check_eq "sending first: exit 0" "$rc" 0
check_eq "sending first: done" "$(jq -r .state "$J/$id/state.json")" done
check_eq "sending first: its output" "$(cat "$J/$id/stdout")" exchanged
