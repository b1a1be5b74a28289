#!/bin/sh
# test-gate.sh — rank 0's start gate (gridsubmit-rank --gate FIFO, launch/gate.h), what lets
# `gridsubmit run` start mpiexec while its preflight still runs: rank 0's program does not
# start before the supervisor writes 'g'; 's', or the supervisor's end (the FIFO closed
# without a byte), ends the wrapper with status 125, without running the program and
# without a status file; other ranks ignore the gate. No MPI needed: the wrapper only reads
# PMI_RANK.
. tests/lib.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
RANKEXEC=$B/gridsubmit-rank
if [ ! -x "$RANKEXEC" ]; then
	fail "gate: $RANKEXEC is built (run make)"
	exit 0
fi

# gated NAME RANK: gridsubmit-rank as rank RANK behind the gate $T/NAME.fifo, in the
# background (pid in $wpid); its program writes $T/NAME.ran. The test holds the FIFO open
# for writing on fd 3, as the supervisor does (and, like it, not in the wrapper).
gated() {
	rm -f "$T/$1.fifo" "$T/$1.ran" "$T/$1.status"
	mkfifo "$T/$1.fifo"
	exec 3<>"$T/$1.fifo"
	PMI_RANK=$2 "$RANKEXEC" --status "$T/$1.status" --gate "$T/$1.fifo" -- \
		sh -c 'echo ran > "$0"' "$T/$1.ran" 2> "$T/$1.err" 3>&- &
	wpid=$!
}

# waited PID: its exit status in $ws, within 5 s (124 when it still runs then). In this
# shell, not in $(...): only the parent can reap it, and a zombie answers kill -0.
waited() {
	i=0
	while [ -n "$(ps -o stat= -p "$1" 2>/dev/null | grep -v Z)" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ $i -ge 50 ]; then
		kill -KILL "$1"
		wait "$1" 2>/dev/null
		ws=124
		return
	fi
	wait "$1"
	ws=$?
}

# --- 'g': the program starts only then
gated go 0
sleep 0.5
check "go: rank 0's program waits at the gate" test ! -e "$T/go.ran"
check "go: the wrapper is still there" kill -0 "$wpid"
printf g >&3
waited "$wpid"
check_eq "go: the wrapper ends with the program's status" "$ws" 0
exec 3>&-
check "go: the program ran" test -s "$T/go.ran"
check_eq "go: rank 0's status file" "$(cat "$T/go.status" 2>/dev/null)" "exit 0"

# --- 's': called off
gated stop 0
sleep 0.2
printf s >&3
waited "$wpid"
check_eq "stop: the wrapper ends with 125" "$ws" 125
exec 3>&-
check "stop: the program never ran" test ! -e "$T/stop.ran"
check "stop: no status file" test ! -e "$T/stop.status"

# --- the supervisor dies: the FIFO closes without a byte
gated gone 0
sleep 0.2
exec 3>&-
waited "$wpid"
check_eq "supervisor gone: the wrapper ends with 125" "$ws" 125
check "supervisor gone: the program never ran" test ! -e "$T/gone.ran"

# --- a signal while waiting (hydra's proxy stopping the job)
gated term 0
sleep 0.2
kill -TERM "$wpid"
waited "$wpid"
check_eq "SIGTERM at the gate: the wrapper ends with 125" "$ws" 125
exec 3>&-
check "SIGTERM at the gate: the program never ran" test ! -e "$T/term.ran"

# --- other ranks do not wait
gated other 1
waited "$wpid"
check_eq "rank 1: no gate, the program runs" "$ws" 0
exec 3>&-
check "rank 1: the program ran" test -s "$T/other.ran"
check "rank 1: no status file (rank 0 only)" test ! -e "$T/other.status"
