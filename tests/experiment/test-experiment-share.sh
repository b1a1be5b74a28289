#!/bin/sh
# test-experiment-share.sh — experiments that share a testbed (submit/exp-testbed-share.c;
# doc/experiments.md, "Testbeds"), as root on a real testbed of two nodes:
# - a first experiment brings the testbed up and runs a job on it; a second, on the same
#   site file, starts an 8 s run on it meanwhile; the first ends: it leaves the testbed up
#   and says why, the second's run ends done, and the second, the last user, takes the
#   testbed down (before, the first took it down under the second's run);
# - a testbed brought up by hand stays up after an experiment that ran on it;
# - an experiment SIGKILLed after bringing the testbed up leaves its mark; once the testbed
#   went down and up again by hand, that stale mark does not make the next experiment take
#   it down.
# serial: testbed-b (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

need_testbed "experiments sharing a testbed" sshd ssh-keygen tc \
	prometheus-node-exporter || exit 0
for tool in jq sqlite3; do
	command -v "$tool" >/dev/null 2>&1 || { skip "experiments sharing a testbed" "$tool is not installed"; exit 0; }
done
export LC_ALL=C

at_exit sweep

cat > "$T/tb.yaml" <<'EOF'
sites:
  - name: shx
    link: {bandwidth_mbps: 1000, latency_ms: 0}
    nodes:
      - {host: "shn[1-2]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
at_exit "$GS testbed down $T/tb.yaml"

# job NAME SECONDS: a job file sleeping SECONDS on one rank
job() {
	printf '%s\n' "name: $1" "program: /bin/sh" "args: [\"-c\", \"sleep $2\"]" "ranks: 1" \
	    > "$T/$1.yaml"
}

# exp NAME JOB: an experiment of one testbed run of JOB on the shared site file
exp() {
	printf '%s\n' "name: $1" "job: $T/$2.yaml" "testbed: $T/tb.yaml" "matrix:" \
	    "  mode: [testbed]" > "$T/$1.yaml"
}

# up: the testbed is up
up() {
	"$GS" testbed status "$T/tb.yaml" >/dev/null 2>&1
}

# down: the testbed is not up
down() {
	! up
}

# start NAME CHECK: experiment NAME started in the background (its pid in $pid), and the
# check CHECK that its run comes to run, with its stderr when it does not
start() {
	"$GS" experiment -q "$T/$1.yaml" > "$T/$1.out" 2> "$T/$1.err" &
	pid=$!
	if poll 90 running "$1"; then
		pass "$2"
	else
		fail "$2"
		sed -e 's/^/#   /' "$T/$1.err"
	fi
}

# running NAME: experiment NAME's run is in progress, its job running
running() {
	rj=$(exp_q "$1" "select job_id from run where state = 'running' and job_id is not null")
	[ -n "$rj" ] && [ "$(jq -r .state "$GRIDSUBMIT_HOME/jobs/$rj/state.json" 2>/dev/null)" = running ]
}

# the first experiment's job waits for $T/go (the nodes share this host's files), so that
# the second joins while it runs, whatever the host's speed
printf '%s\n' "name: waiter" "program: /bin/sh" \
    "args: [\"-c\", \"while [ ! -e $T/go ]; do sleep 0.1; done\"]" "ranks: 1" > "$T/waiter.yaml"
job long 8
job short 0.1
exp first waiter
exp second long
exp beta short

# --- two experiments at once: the first to end leaves the testbed up, the last takes it down
start first "shared: the first brought the testbed up and runs on it"
fpid=$pid
start second "shared: the second runs on it too"
spid=$pid
: > "$T/go"
wait "$fpid"
check_eq "shared: the first ends first, exit 0" "$?" 0
check_match "shared: the first says the testbed stays up, and why" "$(cat "$T/first.err")" \
	"the testbed of $T/tb.yaml stays up: another experiment uses it, and the last to end takes it down"
check "shared: the testbed is still up under the second's run" up
check "shared: the second's run still running" running second
wait "$spid"
check_eq "shared: the second exits 0" "$?" 0
check_eq "shared: the second's run done" "$(exp_q second "select state from run")" done
check "shared: the second, the last, took the testbed down" down

# --- brought up by hand: left up
run_gs testbed up "$T/tb.yaml"
check_eq "by hand: up" "$rc" 0
run_gs experiment --new "$T/beta.yaml"
check_eq "by hand: the experiment ran, exit 0" "$rc" 0
check "by hand: the testbed is left up" up

# --- a killed experiment's mark does not outlive its testbed
run_gs testbed down "$T/tb.yaml"
job killed 60
exp gamma killed
start gamma "stale mark: the killed experiment had brought the testbed up"
gpid=$pid
check "stale mark: its mark is there" test -s "$GRIDSUBMIT_HOME/testbed/tb.by-experiment"
kill -KILL "$gpid"
wait "$gpid" 2>/dev/null
# its job lives on (the experiment was its parent only): cancelled, as a user would
run_gs cancel "$(exp_q gamma "select job_id from run")"
check_eq "stale mark: the orphaned job cancelled" "$rc" 0
run_gs testbed down "$T/tb.yaml"
check_eq "stale mark: down by hand" "$rc" 0
run_gs testbed up "$T/tb.yaml"
check_eq "stale mark: up by hand again" "$rc" 0
run_gs experiment --new "$T/beta.yaml"
check_eq "stale mark: the next experiment ran, exit 0" "$rc" 0
check "stale mark: the testbed brought up by hand is left up" up
run_gs testbed down "$T/tb.yaml"
check_eq "stale mark: down by hand at the end" "$rc" 0
