# tests/lib.sh — sourced by the shell tests. Prints the lines tests/run-tests.sh counts:
# "ok - name", "not ok - name" (with "#" diagnostics), "skip - name: reason".
# Every test gets a private temporary directory $T (removed on exit) and a private job
# store (GRIDSUBMIT_HOME=$T/home), so tests never touch the user's jobs; and no
# configuration file (GRIDSUBMIT_CONFIG empty), so the user's defaults change no result.

BUILD=${BUILD:-build}
GS=${GS:-$BUILD/gridsubmit}
MPIEXEC=${MPIEXEC:-mpiexec}
SRC=$(pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/gs-test.XXXXXX") || exit 1
export GRIDSUBMIT_HOME="$T/home"
export GRIDSUBMIT_CONFIG=
export NO_COLOR=1
# a test's own mpiexec runs every rank here: loopback alone, as gridsubmit gives such jobs,
# since the testbeds of tests running meanwhile add and remove interfaces (doc/reliability.md,
# "UCX's network devices"); the ranks here of a testbed job get the interface toward its
# nodes whatever this says
export UCX_NET_DEVICES=lo
t_cleanups=""
t_cleanup() {
	printf '%s\n' "$t_cleanups" | while IFS= read -r c; do
		# stdin from /dev/null: a command that reads it (ssh) would eat the rest of the list
		[ -n "$c" ] && eval "$c" >/dev/null 2>&1 </dev/null
	done
	rm -rf "$T"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

# at_exit 'command args': run at cleanup (before $T goes), the latest first
at_exit() {
	t_cleanups="$1
$t_cleanups"
}

pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "skip - $1: $2"; }

# check NAME COMMAND...: pass when COMMAND exits 0
check() {
	name=$1
	shift
	if "$@" > "$T/.check.out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		echo "#   command: $*"
		sed -e 's/^/#   /' "$T/.check.out" | tail -n 30
	fi
}

# check_eq NAME GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1"
		printf '#   got:  %s\n#   want: %s\n' "$2" "$3"
	fi
}

# check_match NAME TEXT EXTENDED-REGEX
check_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		pass "$1"
	else
		fail "$1"
		printf '#   text: %s\n#   does not match: %s\n' "$2" "$3" | head -n 40
	fi
}

# yaml_args WORD...: a job file's line `args: ["WORD", ...]` (words without '"' or '\')
yaml_args() {
	printf 'args: ['
	ya_sep=""
	for ya_w; do printf '%s"%s"' "$ya_sep" "$ya_w"; ya_sep=", "; done
	echo "]"
}

# run_gs ARGS...: run gridsubmit, leaving stdout in $out, stderr in $err, status in $rc
run_gs() {
	"$GS" "$@" > "$T/.out" 2> "$T/.err"
	rc=$?
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
}

need_root() {
	[ "$(id -u)" -eq 0 ] || { skip "$1" "needs root (network namespaces)"; return 1; }
}

# need_testbed NAME TOOL...: root, ip netns and the tools; otherwise a skip line naming the
# reason, and false. Testbeds take a free /16 each: other testbeds may be up meanwhile.
need_testbed() {
	name=$1
	shift
	[ "$(id -u)" -eq 0 ] || { skip "$name" "needs root (network namespaces, sshd)"; return 1; }
	ip netns list >/dev/null 2>&1 || { skip "$name" "ip netns is unavailable here"; return 1; }
	for tool in "$@"; do
		PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null 2>&1 ||
			{ skip "$name" "$tool is not installed (scripts/install-deps)"; return 1; }
	done
}

# tb_tag FILE: the tag of the testbed of site file FILE in this test's store, as `testbed up`
# makes it (testbed/testbed-util.c, tb_names: FNV-1a of its state directory): what its
# namespaces (gs-TAG-HOST), links (gsTAG...) and cgroups are named after
tb_tag() {
	tt_h=2166136261
	for tt_c in $(printf '%s' "$GRIDSUBMIT_HOME/testbed/$(basename "$1" .yaml)" |
	    od -An -v -tu1); do
		tt_h=$(( ((tt_h ^ tt_c) * 16777619) & 0xffffffff ))
	done
	printf '%04x\n' $(( (tt_h ^ (tt_h >> 16)) & 0xffff ))
}

# crash_up FILE [WORD]: start `gridsubmit testbed up FILE` and kill -9 it once its manifest
# ($TB/manifest) records a process whose name is WORD, or any process without WORD (or
# after 10 s)
crash_up() {
	cu_pat="^pid "
	[ -z "${2:-}" ] || cu_pat="^pid .* $2 "
	"$GS" testbed up "$1" >/dev/null 2>&1 &
	cu_pid=$!
	cu_i=0
	while ! grep -q "$cu_pat" "$TB/manifest" 2>/dev/null; do
		sleep 0.01
		cu_i=$((cu_i + 1))
		[ $cu_i -lt 1000 ] || break
	done
	kill -9 $cu_pid 2>/dev/null
	wait $cu_pid 2>/dev/null
}

# testbed_up FILE NAME: `gridsubmit testbed up FILE`, taken down again at exit; passes NAME
# and sets TB (the testbed's directory) and, as testbed_names does, TAG and NET; when up
# fails, fails NAME with the error, and returns false
testbed_up() {
	at_exit "$GS testbed down $1"
	run_gs testbed up "$1"
	if [ "$rc" -ne 0 ]; then
		fail "$2"
		printf '%s\n' "$err" | sed -e 's/^/#   /'
		return 1
	fi
	pass "$2"
	TB=$GRIDSUBMIT_HOME/testbed/$(basename "$1" .yaml)
	testbed_names
}

# testbed_names: from what `testbed up` said ($out), TAG (its tag), NET (its /16: "10.N")
# and NETRE (NET as a regular expression); another up of the same file keeps its tag but may
# get another network
testbed_names() {
	TAG=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs\([0-9a-f]*\)br.*/\1/p')
	NET=$(printf '%s\n' "$out" | sed -n 's/.*on bridge gs[0-9a-f]*br (\([0-9.]*\)\.0\.1\/16).*/\1/p')
	NETRE=$(printf '%s\n' "$NET" | sed -e 's/\./\\./g')
}

# need_smpi NAME PROGRAM: the SMPI build of an example ($BUILD/examples/smpi/PROGRAM, made
# when SimGrid is installed); otherwise a skip line naming the reason, and false
need_smpi() {
	[ -x "$BUILD/examples/smpi/$2" ] || {
		skip "$1" "$BUILD/examples/smpi/$2 is not built (SimGrid's smpicc is not installed: scripts/install-deps)"
		return 1
	}
}

# kernel_has_netem: true when tc can add a netem qdisc (tried in a network namespace of its
# own, gone with it): then the testbed never needs its delay line
kernel_has_netem() {
	PATH="$PATH:/usr/sbin:/sbin" unshare -n tc qdisc add dev lo root netem delay 1ms \
		>/dev/null 2>&1
}

# no_process PATTERN: true when no process's command line matches (pgrep -f) — call it
# through check, never inside sh -c, whose own command line would match
no_process() {
	! pgrep -f "$1" > /dev/null
}

# alive PID: the process exists and is not a zombie
alive() {
	alive_s=$(sed -e 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$alive_s" ] && [ "$alive_s" != Z ]
}

# live PATTERN: pids of live processes whose command line matches (pgrep -f)
live() {
	for live_p in $(pgrep -f -- "$1"); do
		alive "$live_p" && echo "$live_p"
	done
}

# live_here PATTERN: the pids of this test's own processes matching PATTERN: their working
# directory is under $T (a job's ranks run in its job directory). make check runs tests side
# by side: a pattern of a program's name alone also matches the others' runs.
live_here() {
	for live_p in $(live "$1"); do
		case $(readlink "/proc/$live_p/cwd" 2>/dev/null) in
		"$T"/*) echo "$live_p" ;;
		esac
	done
}

# own PATTERN: the pids of this test's own processes matching PATTERN, by their environment
# (GRIDSUBMIT_HOME is this test's alone, and mpiexec passes it on to the ranks it starts
# here): the same program run by a test beside this one is not ours to reap
own() {
	for own_p in $(live "$1"); do
		tr '\0' '\n' < "/proc/$own_p/environ" 2>/dev/null |
			grep -qxF "GRIDSUBMIT_HOME=$GRIDSUBMIT_HOME" && echo "$own_p"
	done
}

# gone PATTERN: no live process matches (a function: sh -c would match its own line)
gone() {
	[ -z "$(live "$1")" ]
}

# poll SECONDS COMMAND...: run COMMAND every 0.05 s until it succeeds; 1 on time out
poll() {
	poll_n=$(($1 * 20))
	shift
	while [ "$poll_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
		poll_n=$((poll_n - 1))
	done
	return 1
}

# ns_job NODE PROGRAM: live processes of a job in testbed node NODE's namespace (of the
# testbed $TAG): its proxy, rank wrappers and ranks of PROGRAM (a command name)
ns_job() {
	for ns_job_p in $(ip netns pids "gs-$TAG-$1"); do
		alive "$ns_job_p" || continue
		case $(cat "/proc/$ns_job_p/comm" 2>/dev/null) in
		hydra_pmi_proxy|gridsubmit-rank|"$2") echo "$ns_job_p" ;;
		esac
	done
}

# next_id: the id the next job of this test's store gets
next_id() {
	cat "$GRIDSUBMIT_HOME/jobs/next-id" 2>/dev/null || echo 1
}

# exp_q NAME SQL: a query of experiment NAME's store; nothing while it does not exist
exp_q() {
	[ -s "$GRIDSUBMIT_HOME/experiments/$1/results.db" ] &&
		sqlite3 -cmd '.timeout 5000' "$GRIDSUBMIT_HOME/experiments/$1/results.db" "$2" \
		    2>/dev/null
}

# exp_table SUMMARY: an experiment's summary.md's table as "row col value"
exp_table() {
	awk -F'|' '
		/^## Table/ { t = 1; next }
		t && /^\|---/ { next }
		t && /^\|/ && !h { h = 1; for (i = 3; i < NF; i++) { c = $i; gsub(/ /, "", c); col[i] = c }; next }
		t && /^\|/ {
			r = $2; gsub(/ /, "", r)
			for (i = 3; i < NF; i++) { v = $i; gsub(/ /, "", v); print r, col[i], v }
		}' "$1"
}

# sweep: cancel every job of this test's store (at exit: nothing of a failed case runs on)
sweep() {
	for sweep_d in "$GRIDSUBMIT_HOME"/jobs/*/; do
		[ -d "$sweep_d" ] && "$GS" cancel "$(basename "$sweep_d")"
	done
}

# mandel_job NAME FILE SIZE [EXTRA ARGS...]: a job file of the mandelbrot example ($MANDEL)
# named NAME-SIZE, of 3 ranks and scheme gss, checking its result and keeping m.pgm; the
# master and two workers whatever this host's cores (oversubscribe: the embedded site's
# slots are this host's cores, 2 on CI)
mandel_job() {
	mj_name=$1 mj_file=$2 mj_size=$3
	shift 3
	mj_extra=""
	for mj_a in "$@"; do
		mj_extra="$mj_extra, \"$mj_a\""
	done
	cat > "$mj_file" <<EOF
name: $mj_name-$mj_size
program: "$MANDEL"
args: ["--size", "$mj_size"$mj_extra, "--check", "--out", "m.pgm"]
ranks: 3
oversubscribe: true
runtime: {scheme: gss}
stage_out: [m.pgm]
EOF
}
