#!/bin/sh
# test-sites-slurm.sh — sites behind Slurm in the site file (gridsubmit-sites(5),
# SCHEDULER): every mistake in scheduler:, nodes: auto and a job's time_limit is named at
# file:line:col by `sites check` and `rank` (exit 3); a login host that cannot be read
# leaves its site's nodes out, said once; then, as root with Slurm installed, on the
# testbed's Slurm site (sites/hpc.yaml): a drained node and a busy node as `rank
# --explain` shows them, and `nodes: auto` reading the nodes from Slurm.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

BAD=tests/data/bad
MB=$SRC/$BUILD/examples/mandelbrot
printf 'program: %s\nranks: 1\n' "$MB" > "$T/job.yaml"

# --- 1. the located errors, through sites check and rank
for f in "$BAD"/site-sched-*.yaml; do
	want=$(cat "${f%.yaml}.expect")
	run_gs sites check "$f"
	check_eq "sites check $(basename "$f"): exit 3" "$rc" 3
	check_eq "sites check $(basename "$f"): every error, located" "$err" "$want"
	run_gs rank "$T/job.yaml" --sites "$f" --no-metrics
	check_eq "rank --sites $(basename "$f"): exit 3" "$rc" 3
	check_eq "rank --sites $(basename "$f"): the same errors" "$err" "$want"
done
run_gs sites check "$BAD/site-sched-keys.yaml"
check_match "a misspelt scheduler key gets a suggestion" "$err" \
	"site-sched-keys\.yaml:9:7: unknown key 'partiton' \(did you mean 'partition'\?\)"

# a good file: a listed Slurm site and a nodes: auto one, with every key
cat > "$T/good.yaml" <<'EOF'
defaults: {cpu_mhz: 2000, cores: 1}
sites:
  - name: lab
    link: {bandwidth_mbps: 1000}
    nodes: [{host: localhost, cores: 2}]
  - name: hpc
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    scheduler: {type: slurm, login: login.invalid, partition: batch, account: A, qos: Q, time: "00:30:00"}
    nodes: [{host: "hpc[1-2]"}]
  - name: auto
    link: {bandwidth_mbps: 100}
    scheduler: {type: slurm, login: login.invalid}
    nodes: auto
EOF
run_gs sites check "$T/good.yaml"
check_eq "scheduler with every key, and nodes: auto: valid" "$rc" 0

# the job file's time_limit: Slurm's formats only
printf 'program: %s\nranks: 1\ntime_limit: "1:75"\n' "$MB" > "$T/job-time.yaml"
run_gs rank "$T/job-time.yaml" --sites "$T/good.yaml" --no-metrics
check_eq "time_limit 1:75: exit 3" "$rc" 3
check_eq "time_limit 1:75: located, saying the formats" "$err" \
	"$T/job-time.yaml:3:13: 'time_limit' must be a time limit as Slurm takes it (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, more than 0), not '1:75'"
printf 'program: %s\nranks: 1\ntime_limit: 2-12:00\n' "$MB" > "$T/job-time.yaml"
run_gs rank "$T/job-time.yaml" --sites "$T/good.yaml" --no-metrics
check_eq "time_limit 2-12:00: taken" "$rc" 0

# --- 2. a login host that cannot be read: its nodes are left out, with why, said once
run_gs rank "$T/job.yaml" --sites "$T/good.yaml" --no-metrics --explain
check_eq "unreadable login host: the job is placed on the others" "$rc" 0
check_match "its nodes are filtered with why" "$out" \
	"hpc1 \(hpc\): Slurm: Slurm on login\.invalid could not be read: .+"
check_eq "said once per site on stderr" \
	"$(printf '%s\n' "$err" | grep -c 'Slurm on login\.invalid could not be read')" 2
check_match "explain shows the Slurm state of every node of the site" "$out" \
	"hpc2 \(hpc\): unavailable, Slurm on login\.invalid could not be read"
run_gs rank "$T/job.yaml" --sites "$T/good.yaml" --no-metrics --json
check_eq "--json: a Slurm node's state" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "hpc1") | .slurm.state')" \
	unavailable
check_eq "--json: a node reached over ssh has no slurm object" \
	"$(printf '%s' "$out" | jq -c '.nodes[] | select(.host == "localhost") | has("slurm")')" false
printf 'program: %s\nranks: 2\nsites: [hpc]\n' "$MB" > "$T/job-hpc.yaml"
run_gs rank "$T/job-hpc.yaml" --sites "$T/good.yaml" --no-metrics
check_eq "only unreadable Slurm nodes: no placement (exit 4)" "$rc" 4

# --- 3. on the testbed's Slurm site
if [ ! -f sites/hpc.yaml ]; then
	skip "sites-slurm testbed" "sites/hpc.yaml is not in this tree"
	exit 0
fi
need_testbed "sites-slurm testbed" sshd slurmctld slurmd munged jq || exit 0
# another user's batch job runs from its node's spool, under the testbed's directory:
# every directory above it must let that user through (doc/testbed.md, "A Slurm site")
mkdir -p "$GRIDSUBMIT_HOME/testbed"
chmod 0711 "$T" "$GRIDSUBMIT_HOME" "$GRIDSUBMIT_HOME/testbed"
cp sites/hpc.yaml "$T/hpc.yaml"
testbed_up "$T/hpc.yaml" "testbed up with a Slurm site" || exit 0
SSHC=$TB/ssh_config
login() {
	ssh -F "$SSHC" -o BatchMode=yes hpc-login "$@"
}
at_exit "ssh -F $SSHC -o BatchMode=yes hpc-login scontrol update nodename=hpc1 state=resume"
at_exit "ssh -F $SSHC -o BatchMode=yes hpc-login scancel --name=other-user"

# a drained node
check "drain hpc1 through the login host" \
	login scontrol update nodename=hpc1 state=drain 'reason="disk full"'
run_gs rank "$T/job-hpc.yaml" --sites "$TB/sites.yaml" --no-metrics --explain
check_match "rank --explain: the drained node, with Slurm's reason" "$out" \
	"hpc1 \(hpc\): Slurm: drained: disk full"

# a busy node: another user's job on hpc2; the job then waits for it in Slurm's queue
check "another user's job holds hpc2" login sbatch --uid=nobody --chdir=/ \
	--job-name=other-user -w hpc2 -o /dev/null --wrap "'sleep 300'"
poll 20 sh -c "ssh -F '$SSHC' -o BatchMode=yes hpc-login squeue -h -n other-user -t R | grep -q ."
run_gs rank "$T/job-hpc.yaml" --sites "$TB/sites.yaml" --no-metrics --explain
check_eq "busy and drained: placed on the busy node" "$rc" 0
check_match "rank --explain: the busy node would wait in Slurm's queue" "$out" \
	"hpc2 \(hpc\): busy \(the job would wait in Slurm's queue\)"
run_gs rank "$T/job-hpc.yaml" --sites "$TB/sites.yaml" --no-metrics --json
check_eq "--json: hpc2 waits" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "hpc2") | .slurm.state')" waits

# nodes: auto: the testbed's login host (its ssh_config), the nodes read from Slurm
cat > "$T/auto.yaml" <<EOF
defaults: {cpu_mhz: 2000, cores: 1}
sites:
  - name: hpc
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    ssh: {config: $SSHC}
    scheduler: {type: slurm, login: hpc-login, partition: batch}
    nodes: auto
EOF
run_gs rank "$T/job-hpc.yaml" --sites "$T/auto.yaml" --no-metrics --json
check_eq "nodes: auto: the partition's nodes, read from Slurm" \
	"$(printf '%s' "$out" | jq -r '[.nodes[].host] | sort | join(",")')" "hpc1,hpc2"
check_eq "nodes: auto: the drained one is left out" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "hpc1") | .filtered')" \
	"Slurm: drained: disk full"
