# lib-bench.sh — helpers of the benchmarks that run the examples with a master and two
# workers on this host (bench-examples.sh, bench-race.sh, bench-journal.sh), of those
# that write to disk (bench-grt.sh) and of those on the testbed (bench-prefetch.sh,
# bench-relaunch.sh, bench-migration.sh), and the scratch store, clock and median of
# bench-launch.sh, bench-plain.sh and bench-finalize.sh; sourced, not run. They use the
# caller's BUILD, MPIEXEC, SLOW (a --slow RANK:FACTOR,... list) and D (a scratch directory).
# shellcheck shell=sh

# bench_rankmap FIRST: the rank map of ranks 0..2 ("rank node site pf pr cpu_mhz") as
# gridsubmit's broker would write it for nodes whose CPU clocks differ as $SLOW says: rank
# r's speed is 1/factor (factor 1 if unlisted), and ranks FIRST..2 share PF and PR by speed.
# FIRST is 1 for a dedicated master (it gets PR 0) and 0 for a master that computes too:
# without a PR for every worker, pwd places its static part equally.
bench_rankmap() {
	echo "$SLOW" | awk -F, -v first="$1" '{
		for (i = 1; i <= NF; i++) { split($i, a, ":"); f[a[1]] = a[2] }
		for (r = first; r <= 2; r++) { s[r] = 1 / (r in f ? f[r] : 1); tot += s[r] }
		if (first > 0)
			print "0 localhost local 0 0 3000"
		for (r = first; r <= 2; r++)
			printf "%d localhost local %.4f %.4f %d\n", r, s[r] / tot, s[r] / tot,
			    3000 * s[r]
	}'
}

# bench_mpirun EVENTS RANKMAP PROG ARGS...: one run of $BUILD/examples/PROG over mpiexec -n 3,
# the ranks slowed as $SLOW says, its events written to EVENTS, its output to $D/out and
# $D/err. Succeeds when the run exits 0 and says its result matches the sequential
# computation. GRT_* variables the caller exports reach the ranks.
bench_mpirun() {
	ev=$1 map=$2 prog=$3
	shift 3
	rm -f "$ev"
	env GRT_EVENTS="$ev" GRT_SWR=auto GRT_RANKMAP="$map" \
	    timeout -k 5 300 "$MPIEXEC" -n 3 "$BUILD/examples/$prog" "$@" --slow "$SLOW" \
	    > "$D/out" 2> "$D/err" && grep -q 'matches' "$D/out"
}

# bench_makespans FILE...: the makespan of the "end" event of every run, one per line
bench_makespans() {
	cat "$@" 2>/dev/null |
	    sed -n 's/.*"ev":"end".*"makespan":\([0-9.eE+-]*\).*/\1/p'
}

# bench_fs DIR: the type of the filesystem DIR is on, and its device
bench_fs() {
	df -PT "$1" 2>/dev/null | awk 'NR == 2 { print $2, $1 }'
}

# bench_disk_dir NAME: a new scratch directory on a real disk (what fdatasync costs is
# measured): under TMPDIR or /tmp, or /var/tmp when that is a tmpfs
bench_disk_dir() {
	bdd_base=${TMPDIR:-/tmp}
	case $(bench_fs "$bdd_base") in
	tmpfs* | ramfs*) bdd_base=/var/tmp ;;
	esac
	mktemp -d "$bdd_base/$1.XXXXXX"
}

# bench_testbed_skip NAME: true (with NAME's SKIP line printed) when no testbed can be built
# here: not root, or no ip netns
bench_testbed_skip() {
	if [ "$(id -u)" -ne 0 ] || ! ip netns list >/dev/null 2>&1; then
		echo "# $1: SKIP: needs root and ip netns for the testbed"
		return 0
	fi
	return 1
}

# bench_scratch: the benchmark's scratch directory $T with its own job store
# (GRIDSUBMIT_HOME, made 0700) and no colours; at exit the runs' shared ssh connections
# are closed, the testbed named by $TESTBED (if any) is taken down, vm.max_map_count
# restored if bench_sim_maps raised it, and $T removed. Uses the caller's GS.
bench_scratch() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/gs-bench.XXXXXX") || exit 1
	export GRIDSUBMIT_HOME="$T/home"
	export NO_COLOR=1
	mkdir -p -m 700 "$GRIDSUBMIT_HOME"
	TESTBED=""
	trap bench_cleanup EXIT
	trap 'exit 130' INT TERM
}

bench_cleanup() {
	# the runs' shared ssh connections, which would outlive the testbed's namespaces
	for bc_c in "$GRIDSUBMIT_HOME"/ssh/*; do
		[ -S "$bc_c" ] && ssh -o ControlPath="$bc_c" -O exit node >/dev/null 2>&1
	done
	[ -n "$TESTBED" ] && "$GS" testbed down "$TESTBED" >/dev/null 2>&1
	[ -n "${BENCH_MAPS_SAVED:-}" ] && sysctl -q -w vm.max_map_count="$BENCH_MAPS_SAVED" >/dev/null
	rm -rf "$T"
}

# bench_sim_need NAME: the simulation benches' needs (the SMPI build of $SYN, smpirun, jq,
# /usr/bin/time), or exit 1 saying which is missing
bench_sim_need() {
	[ -x "$(dirname "$SYN")/smpi/synthetic" ] ||
	    { echo "$1: no SMPI build of synthetic (make, with smpicc)" >&2; exit 1; }
	for bsn_tool in smpirun jq; do
		command -v "$bsn_tool" >/dev/null 2>&1 ||
		    { echo "$1: $bsn_tool is not installed" >&2; exit 1; }
	done
	[ -x /usr/bin/time ] || { echo "$1: /usr/bin/time is not installed" >&2; exit 1; }
}

# bench_sim_maps RANKS: vm.max_map_count for a simulation of RANKS ranks (SMPI maps the
# program about 7 times a rank, and 2000 more: doc/simulate.md, "Scale"), in
# BENCH_MAPS_NEED, with the value now in BENCH_MAPS_HAVE. When it is lower, root raises it
# to the larger of the need and 262144, the first value kept for bench_cleanup to restore.
# 0 when it is enough, 1 when it is not and this is not root (the caller prints a SKIP
# row), 2 when raising it failed.
bench_sim_maps() {
	BENCH_MAPS_NEED=$(($1 * 7 + 2000))
	BENCH_MAPS_HAVE=$(sysctl -n vm.max_map_count)
	[ "$BENCH_MAPS_HAVE" -ge "$BENCH_MAPS_NEED" ] && return 0
	[ "$(id -u)" -eq 0 ] || return 1
	[ -n "${BENCH_MAPS_SAVED:-}" ] || BENCH_MAPS_SAVED=$BENCH_MAPS_HAVE
	sysctl -q -w vm.max_map_count=$((BENCH_MAPS_NEED > 262144 ? BENCH_MAPS_NEED : 262144)) \
	    >/dev/null || return 2
}

# bench_now: the wall clock in seconds, with nanoseconds
bench_now() { date +%s.%N; }

# bench_median: the median of the numbers on standard input ("-" when there are none)
bench_median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}
