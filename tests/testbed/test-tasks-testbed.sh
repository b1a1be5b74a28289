#!/bin/sh
# test-tasks-testbed.sh — task migration on the testbed (issue 14, doc/tasks.md; root):
# examples/ep as a gridsubmit job on three equal nodes, two tasks and a spare, policy
# load-diff. Mid-run the node holding task 0 gets heavy load, in the two ways a real node
# shows it: three busy loops in its namespace and CPU cgroup, so they take the CPU quota
# the rank had to itself (what makes a move pay), and its node_load1 raised to 3 in the
# exporter's textfile (load.prom), which gridsubmit reads into the job's node-loads file
# (GRT_LOADS). load-diff judges a busy worker by the CPU share its steps get (doc/tasks.md,
# "Load signals") and an idle spare by its node_load1 (0 here). Asserted: one migrate event takes task 0 from
# its rank to the spare, its reason names the policy, the node and its load; the task's
# steps after it are faster than on the loaded node; the job ends done with ep's --check
# passing; nothing of the job, nor of the load, is left.
# serial: alone (what it checks depends on this host's CPUs being its own)
. tests/lib.sh

need_testbed "task migration on a testbed" sshd jq prometheus-node-exporter || exit 0
EP=$SRC/$BUILD/examples/ep
[ -x "$EP" ] || { fail "tasks testbed: $EP is not built"; exit 0; }
J=$GRIDSUBMIT_HOME/jobs

SITES=$T/mtb.yaml
cat > "$SITES" <<'EOF'
# one site of 3 equal nodes (half a CPU each on 2 CPUs): two tasks and a spare
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: "mtb[1-3]", cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
testbed_up "$SITES" "testbed up with 3 nodes" || exit 0
at_exit sweep

cat > "$T/job.yaml" <<EOF
name: ep-mtb
program: $EP
args: ["--steps", "160", "--pairs", "1000000", "--check"]
ranks: 4
runtime: {migration: load-diff, spare: 1, move_gap: 2}
EOF

ev() {
	cat "$J/$id/events.jsonl" 2>/dev/null
}

# steps N: the run has done at least N steps of task 0
steps() {
	[ "$(ev | grep '"ev":"chunk"' | grep -c '"task":0,')" -ge "$1" ]
}

# nothing_left: no process of the job on any node nor here, and no busy loop
nothing_left() {
	[ -z "$(ns_job mtb1 ep)$(ns_job mtb2 ep)$(ns_job mtb3 ep)" ] && gone "^$EP " || return 1
	for p in $loaders; do
		alive "$p" && return 1
	done
	return 0
}

# load NODE N LOAD1: N busy loops in NODE's namespace and CPU cgroup, and its node_load1
# set to LOAD1 (written aside, then renamed: the exporter never reads half a file)
load() {
	l_cg=$(sed -n "s|^cgroup \(.*/$1\)\$|\1|p" "$TB/manifest")
	l_i=0
	while [ "$l_i" -lt "$2" ]; do
		# the cgroup first: ip netns exec mounts the namespace's own /sys
		# shellcheck disable=SC2016 # $$ is the loop's shell
		sh -c 'echo $$ > "$1/cgroup.procs" &&
		    exec ip netns exec "$2" sh -c "while :; do :; done"' sh "$l_cg" "gs-$TAG-$1" &
		loaders="$loaders $!"
		at_exit "kill -9 $!"
		l_i=$((l_i + 1))
	done
	printf '# busy loops of test-tasks-testbed.sh\nnode_load1 %s\n' "$3" \
	    > "$TB/nodes/$1/textfile/.load.tmp"
	mv "$TB/nodes/$1/textfile/.load.tmp" "$TB/nodes/$1/textfile/load.prom"
}

loaders=""
id=$(next_id)
"$GS" run --sites "$TB/sites.yaml" "$T/job.yaml" > "$T/run.out" 2> "$T/run.err" &
pid=$!
at_exit "kill -9 $pid"
poll 60 steps 20 || echo "# job $id: not 20 steps of task 0 in time"
rank=$(ev | grep '"ev":"tasks"' | head -n 1 | jq '.at[0]')
node=$(awk -v r="$rank" '$1 == r { print $2 }' "$J/$id/rankmap")
spare=$(ev | grep '"ev":"tasks"' | head -n 1 | jq '.spare[0]')
check_match "task 0 runs on a node of the testbed (rank $rank)" "$node" '^mtb[1-3]$'
case $node in
mtb[1-3]) ;;
*) exit 0 ;;
esac
load "$node" 3 3
t_load=$(ev | tail -n 1 | jq .t)
echo "# load on $node (rank $rank) at t = $t_load s"
wait $pid
rc=$?
check_eq "the job exits 0" "$rc" 0
[ "$rc" -ne 0 ] && sed -e 's/^/#   /' "$T/run.err"
check_eq "the job is done" "$("$GS" status "$id" --json | jq -r .state)" "done"
check_match "ep's check passed, after a migration" "$(cat "$T/run.out")" \
	'[1-9][0-9]* migrations?, 0 restarted, 0 failed;.*result matches the sequential computation$'
mig=$(ev | grep '"ev":"migrate"')
printf '%s\n' "$mig" | sed -e 's/^/# /'
check_eq "one migrate event, task 0 from rank $rank to the spare $spare" \
	"$(printf '%s\n' "$mig" | jq -c '[.task, .from, .to]' | sort -u)" "[0,$rank,$spare]"
check_match "the move came after the load" \
	"$(printf '%s\n' "$mig" | head -n 1 | jq --argjson t "$t_load" '.t > $t')" '^true$'
check_match "its reason names the policy, the node and its load" \
	"$(printf '%s\n' "$mig" | head -n 1 | jq -r .reason)" \
	"^load-diff: $node \\(rank $rank\\) load [0-9.]+ rose [0-9.]+; mtb[1-3] \\(rank $spare\\) load 0\\.00, idle"
check_match "its bytes and seconds are measured" \
	"$(printf '%s\n' "$mig" | head -n 1 | jq -c '[.bytes > 100, .seconds > 0]')" '^\[true,true\]$'
check_eq "the end counts the migration" \
	"$(ev | grep '"ev":"end"' | jq -c '[.status, .migrations]')" '["ok",1]'
# task 0's seconds per step on the loaded node (after the load) and on the spare
t_mig=$(printf '%s\n' "$mig" | head -n 1 | jq .t)
speeds=$(ev | grep '"ev":"chunk"' | jq -r --argjson a "$t_load" --argjson b "$t_mig" \
    'select(.task == 0 and .t > $a) | "\(.rank) \(.t > $b) \(.t_calc)"' |
    awk -v r="$rank" -v s="$spare" '
	$1 == r && $2 == "false" { n1++; c1 += $3 }
	$1 == s && $2 == "true" { n2++; c2 += $3 }
	END { if (n1 && n2) printf "%.4f %.4f\n", c1 / n1, c2 / n2 }')
echo "# task 0 seconds per step: loaded $node, then the spare: $speeds"
check "task 0's steps on the spare are faster than on the loaded node" \
	awk -v s="$speeds" 'BEGIN { split(s, a, " "); exit !(a[2] > 0 && a[2] < 0.7 * a[1]) }'
for p in $loaders; do
	kill -9 "$p" 2>/dev/null
done
check "nothing of the job nor of the load left" poll 30 nothing_left
