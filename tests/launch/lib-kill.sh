# lib-kill.sh — helpers of the kill matrix (tests/launch/killmatrix.sh) and of the relaunch
# benchmark (tests/bench/bench-relaunch.sh): a job's events and processes on a testbed
# (doc/testbed.md), whose nodes share this kernel's PIDs, each in a network namespace
# gs-TAG-HOST. Sourced, not run; they use the caller's J (the job store's jobs directory)
# and TAG (the testbed's tag, from `gridsubmit testbed up`).
# shellcheck shell=sh

# kl_now: seconds since the epoch, with decimals; kl_since T: seconds from T to now
kl_now() {
	date +%s.%N
}
kl_since() {
	awk -v a="$1" -v b="$(kl_now)" 'BEGIN { printf "%.1f", b - a }'
}

# kl_next_id: the id the next job of the store J will get (for the benches, which do not
# source tests/lib.sh and its next_id)
kl_next_id() {
	cat "$J/next-id" 2>/dev/null || echo 1
}

# kl_alive PID: the process exists and is not a zombie
kl_alive() {
	kl_s=$(sed -e 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$kl_s" ] && [ "$kl_s" != Z ]
}

# kl_poll SECONDS COMMAND...: run COMMAND every 0.05 s until it succeeds; 1 on time out
kl_poll() {
	kl_n=$(($1 * 20))
	shift
	while [ "$kl_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
		kl_n=$((kl_n - 1))
	done
	return 1
}

# kl_since_start ID KIND N: the job's last launch (after its last start event) wrote at
# least N events of KIND
kl_since_start() {
	[ "$(awk -v k="\"ev\":\"$2\"" '/"ev":"(start|restart)"/ { c = 0 } index($0, k) { c++ }
	    END { print c + 0 }' "$J/$1/events.jsonl" 2>/dev/null)" -ge "$3" ]
}

# kl_node ID RANK: the node RANK runs on in the job's last launch (its last start event)
kl_node() {
	grep '"ev":"start"' "$J/$1/events.jsonl" | tail -n 1 |
	    jq -r --argjson r "$2" '.ranks[] | select(.rank == $r) | .node'
}

# kl_ns NODE: the node's network namespace
kl_ns() {
	echo "gs-$TAG-$1"
}

# kl_procs NODE [COMM...]: live pids in the node's namespace, of those names (all without)
kl_procs() {
	kl_node_=$1
	shift
	for kl_p in $(ip netns pids "gs-$TAG-$kl_node_"); do
		kl_alive "$kl_p" || continue
		[ $# -eq 0 ] && { echo "$kl_p"; continue; }
		kl_c=$(cat "/proc/$kl_p/comm" 2>/dev/null) || continue
		for kl_w; do
			[ "$kl_c" = "$kl_w" ] && echo "$kl_p"
		done
	done
}

# kl_job_procs NODE: the node's processes of a job's kind: hydra's proxy, the wrapper, the
# examples the kill matrix runs
kl_job_procs() {
	kl_procs "$1" hydra_pmi_proxy gridsubmit-rank synthetic matmul
}

# kl_stopped NODE: the node's processes that are stopped (SIGSTOP)
kl_stopped() {
	for kl_p in $(kl_procs "$1"); do
		case $(sed -e 's/.*) //' "/proc/$kl_p/stat" 2>/dev/null | cut -d' ' -f1) in
		T | t) echo "$kl_p" ;;
		esac
	done
}

# kl_local PATTERN: live processes whose command line matches (pgrep -f), in any namespace
# (the testbed's nodes share this kernel's PIDs)
kl_local() {
	for kl_p in $(pgrep -f -- "$1"); do
		kl_alive "$kl_p" && echo "$kl_p"
	done
}

# kl_ours PATTERN: those of kl_local's processes that are this test's jobs': their event
# log (GRT_EVENTS, which every rank gets) is under $T. The other half of the kill matrix
# runs beside this one, its programs' command lines alike.
kl_ours() {
	for kl_p in $(kl_local "$1"); do
		tr '\0' '\n' < "/proc/$kl_p/environ" 2>/dev/null | grep -qF "GRT_EVENTS=$T/" &&
			echo "$kl_p"
	done
}

# kl_master PATTERN: rank 0's program (PMI_RANK=0) among this test's processes matching
# PATTERN (kl_ours) in this host's own network namespace
kl_master() {
	kl_here=$(readlink /proc/self/ns/net)
	for kl_p in $(kl_ours "$1"); do
		[ "$(readlink "/proc/$kl_p/ns/net" 2>/dev/null)" = "$kl_here" ] || continue
		tr '\0' '\n' < "/proc/$kl_p/environ" 2>/dev/null | grep -qx PMI_RANK=0 && echo "$kl_p"
	done
}

# kl_mpiexec ID: the pid of the job's mpiexec (its launcher is the job's ssh-launcher)
kl_mpiexec() {
	for kl_p in $(kl_local "-launcher-exec $J/$1/ssh-launcher"); do
		case $(cat "/proc/$kl_p/comm" 2>/dev/null) in
		mpiexec*) echo "$kl_p" ;;
		esac
	done
}

# kl_t0 ID: state.json's t0 (the job's first launch, GRT_T0: what the events' t count from)
# in seconds since the epoch
kl_t0() {
	date -d "$(jq -r .t0 "$J/$1/state.json")" +%s.%N
}
