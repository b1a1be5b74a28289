#!/bin/sh
# bench-top-scale.sh — the console at 10,000 ranks (issue 34): the CPU time of `gridsubmit
# top --replay` at 10 refreshes a second (--interval 0.1) on a 200x60 terminal (tmux), as
# a share of one core over a fixed wall time, on a recording of 10,000 ranks in 20 sites
# and 200,000 chunk records (2,000 a second of recorded time; made here, as the runtime
# writes them), once with the ranks in 20 groups of 500 under their sub-masters (each
# folded: 20 group rows) and once without groups (flat):
# - stream: replayed at --speed 5, i.e. 10,000 records read a second while it redraws,
#   measured over the first BENCH_TOP_SECONDS (default 10) s;
# - refresh: replayed at once (--speed 1000000), measured over BENCH_TOP_SECONDS once every
#   record is in: what 10 redraws a second of 10,000 ranks cost alone.
# BENCH_TOP_TRIALS (default 3) trials of each, grouped and flat alternating; the rows give
# the medians. Goal: < 10 % of one core. Prints "| area | what | value | baseline | ratio
# | goal |" rows (tests/bench/run-bench.sh): the value is the grouped recording's, the
# baseline the flat one's.
BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
TRIALS=${BENCH_TOP_TRIALS:-3}
SECS=${BENCH_TOP_SECONDS:-10}
case "$GS" in /*) ;; *) GS=$(pwd)/$GS ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench-top.XXXXXX") || exit 1
SOCK="$T/tmux.sock"
cleanup() {
	tmux -S "$SOCK" kill-server 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

command -v tmux >/dev/null 2>&1 || { echo "bench-top-scale: tmux is not installed" >&2; exit 1; }
[ -x "$GS" ] || { echo "bench-top-scale: no $GS (make)" >&2; exit 1; }

# recording GSIZE: 10,000 ranks (rank 0 the master) in 20 sites of 500; GSIZE > 0: groups
# of GSIZE, the first rank of each its sub-master; chunks on random workers, 8 units each
recording() {
	awk -v ranks=10000 -v gsize="$1" -v chunks=200000 -v rate=2000 'BEGIN {
		srand(1)
		printf "{\"v\":1,\"t\":0.0,\"ev\":\"start\",\"job\":\"1\",\"scheme\":\"gss\","
		printf "\"N\":%d,\"rounds\":1,\"ranks\":[", chunks * 8
		for (i = 0; i < ranks; i++) {
			site = i == 0 ? 0 : int((i - 1) / (ranks / 20))
			role = i == 0 ? "master" : "worker"
			g = ""
			if (gsize > 0 && i > 0) {
				first = 1 + int((i - 1) / gsize) * gsize
				if (i == first)
					role = "sub-master"
				g = sprintf(",\"group\":%d", first)
			}
			printf "%s{\"rank\":%d,\"node\":\"s%dn%05d\",\"site\":\"site%02d\",", \
			    i ? "," : "", i, site, i, site
			printf "\"pf\":%.3f,\"pr\":%.6f,\"role\":\"%s\"%s}", 0.5 + (i % 7) / 10, \
			    1 / ranks, role, g
		}
		print "]}"
		for (c = 0; c < chunks; c++) {
			do
				r = 1 + int(rand() * (ranks - 1))
			while (gsize > 0 && (r - 1) % gsize == 0)
			calc = 0.01 + (r % 13) * 0.003
			comm = 0.001 + (r % 5) * 0.0007
			printf "{\"v\":1,\"t\":%.4f,\"ev\":\"chunk\",\"rank\":%d,\"round\":1,", \
			    c / rate, r
			printf "\"start\":%d,\"count\":8,\"t_calc\":%.4f,\"t_comm\":%.4f,", 8 * c, \
			    calc, comm
			printf "\"t_exe\":%.4f}\n", calc + comm
		}
	}'
}

# cpu FILE SPEED WARM: prints top's CPU share of one core, %, over SECS after WARM seconds
cpu() {
	tmux -S "$SOCK" new-session -d -s top -x 200 -y 60 \
	    "TERM=xterm-256color exec '$GS' top --replay '$1' --speed $2 --interval 0.1"
	pid=$(tmux -S "$SOCK" list-panes -t top -F '#{pane_pid}')
	sleep "$3"
	a=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep "$SECS"
	b=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	tmux -S "$SOCK" kill-session -t top
	awk -v a="$a" -v b="$b" -v hz="$(getconf CLK_TCK)" -v s="$SECS" \
	    'BEGIN { printf "%.2f\n", (b - a) / hz / s * 100 }'
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

recording 500 > "$T/groups.jsonl"
recording 0 > "$T/flat.jsonl"
# a session that outlives every measured one: the server stays, no start between runs
tmux -S "$SOCK" new-session -d -s keep "sleep 100000" ||
    { echo "bench-top-scale: cannot start tmux" >&2; exit 1; }
for mode in stream refresh; do
	: > "$T/$mode.groups"
	: > "$T/$mode.flat"
done
i=0
while [ "$i" -lt "$TRIALS" ]; do
	for kind in groups flat; do
		cpu "$T/$kind.jsonl" 5 0.5 >> "$T/stream.$kind"
		cpu "$T/$kind.jsonl" 1000000 8 >> "$T/refresh.$kind"
	done
	i=$((i + 1))
done
echo "# load average before the last trial's end: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in stream refresh; do
	g=$(median < "$T/$mode.groups")
	f=$(median < "$T/$mode.flat")
	echo "# $mode, groups: $(tr '\n' ' ' < "$T/$mode.groups")flat: $(tr '\n' ' ' < "$T/$mode.flat")"
	case $mode in
	stream) what="10,000 ranks at 10 Hz (200x60) reading 10,000 chunk records/s: CPU of one core, % (20 groups of 500; flat)" ;;
	refresh) what="10,000 ranks at 10 Hz (200x60), every record read: CPU of one core, % (20 groups of 500; flat)" ;;
	esac
	awk -v w="$what" -v g="$g" -v f="$f" -v n="$TRIALS" 'BEGIN {
		printf "| top | %s, median of %d | %.1f | %.1f | %.2f | value < 10 %% |\n", w, n,
		    g, f, (f > 0 ? g / f : 0)
	}'
done
