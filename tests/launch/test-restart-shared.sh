#!/bin/sh
# test-restart-shared.sh — a failure every node shares leaves no node out (doc/restarts.md,
# "Evidence every node shares"; root). Two sites of 4 nodes; a job of 5 ranks (rank 0 here,
# a worker on each of the 4 nodes of the first site, the other site spare) whose every
# worker stops answering on its first chunk, the same way on every node (grt-check
# --die-rank all --die-how hang: the program, not the nodes). The master's deadline fails
# every worker and the master fails; each node has evidence against it (the master's fail
# event). A hang, not a death: at a rank's death hydra stops the others, and how many
# nodes' ranks died first is a race (4, 2 or 1 of 4 seen), while every hung worker is
# failed by the master. Before, the 4 nodes were left out and the job moved to the spare
# site, where it failed the same way, then had no placement. Now: one relaunch on the same
# nodes, nothing left out, said with the shared reason; the second failure is final (exit
# 1) with that reason; the spare site never ran a rank.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "restart-shared" sshd jq || exit 0
CHECK=$SRC/$BUILD/tests/runtime/mpi/grt-check
[ -x "$CHECK" ] || { fail "restart-shared: $CHECK is not built (make tests)"; exit 1; }
J=$GRIDSUBMIT_HOME/jobs

SITES=$T/rsh.yaml
cat > "$SITES" <<'EOF'
# the first site ranks first (faster clocks): its 4 nodes take the workers
sites:
  - name: near
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "rsa[1-4]", cpu_mhz: 3000, cores: 1, mem_mb: 256}
  - name: spare
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "rsb[1-4]", cpu_mhz: 1000, cores: 1, mem_mb: 256}
EOF
testbed_up "$SITES" "testbed up with two sites of 4 nodes" || exit 0

cat > "$T/job.yaml" <<EOF
name: rsh
program: $CHECK
args: ["--units", "2000", "--scheme", "gss", "--die-rank", "all", "--die-how", "hang"]
ranks: 5
restarts: 3
runtime: {deadline: 3}
EOF
run_gs run "$T/job.yaml" --sites "$TB/sites.yaml"
check_eq "every worker killed the same way: the job fails (exit 1)" "$rc" 1
st=$J/1/state.json
check_eq "one relaunch, not three" "$(jq -r .restarts "$st")" 1
check_eq "the relaunch left no node out" \
	"$(jq -c '[.restart_log[].excluded[]?] | length' "$st")" 0
# which rule a launch meets is a race: how many nodes' workers died before mpiexec stopped
# the others (all 4, or 2 or 3 of them: weak evidence on more than a quarter)
SHARED="(the same failure on 4 of 4 nodes \\(.*rank [1-4].*\\).*none left out|something of the job died on [2-4] of 4 nodes \\(.*\\): most likely not the nodes)"
check_match "the relaunch says why: a failure the nodes share" \
	"$(jq -r '.restart_log[0].reason' "$st")" "$SHARED"
check_match "the end says it again after the relaunch" "$(jq -r .reason "$st")" \
	"cannot relaunch: $SHARED.*again after a relaunch that kept those nodes"
check_match "said on stderr" "$err" "$SHARED"
check_eq "both launches on the same 4 nodes (the spare site never used)" \
	"$(awk 'NR > 1 { print $2 }' "$J/1/rankmap" | grep -c '^rsb')" 0
check_eq "no rank ever ran on the spare site" \
	"$(jq -r '[.rank_ends[]?.host] | map(select(startswith("rsb"))) | length' "$st")" 0
