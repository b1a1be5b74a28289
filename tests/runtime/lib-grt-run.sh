# lib-grt-run.sh — the processes of one run of grt-check among others (test-silent.sh,
# bench-deadline.sh), told apart by their GRT_EVENTS; sourced, not run. They use the
# caller's CHECK (grt-check's absolute path) and ev (the run's events file).
# shellcheck shell=sh

# own_pids: this run's ranks and wrappers (their GRT_EVENTS), whatever else runs grt-check
own_pids() {
	for p in $(pgrep -f "$CHECK"); do
		tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qxF "GRT_EVENTS=$ev" &&
		    echo "$p"
	done
}

# kill_own: SIGKILL to them all
kill_own() {
	for p in $(own_pids); do
		kill -KILL "$p" 2> /dev/null
	done
}

# rank_pid R: the pid of grt-check's rank R of this run (hydra gives every rank PMI_RANK),
# not of its wrapper
rank_pid() {
	for p in $(pgrep -f "$CHECK"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = grt-check ] || continue
		e=$(tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null)
		if printf '%s\n' "$e" | grep -qx "PMI_RANK=$1" &&
		    printf '%s\n' "$e" | grep -qxF "GRT_EVENTS=$ev"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}
