#!/bin/sh
# tests/fuzz/run-fuzz.sh — `make fuzz`: build the libFuzzer target of every reader of
# outside bytes with clang and the address, leak and undefined-behaviour sanitizers, fuzz
# each for FUZZ_SECONDS (default 60) from a copy of its seed corpus
# (tests/fuzz/corpus-NAME/), then replay its seeds and everything the run found.
# FUZZ_TARGETS picks targets by name (default: all of them, in the order below):
#   sites       the site, job and configuration loaders (fuzz-sites.c)
#   events      the events reader, common/events-read.c (fuzz-events.c)
#   metrics     the Prometheus text parser, broker/metrics.c (fuzz-metrics.c)
#   journal     the master's journal replay, runtime/journal/ (fuzz-journal.c)
#   experiment  the experiment file loader, experiment/ (fuzz-experiment.c)
#   sinfo       Slurm's `sinfo --json`, broker/slurm-nodes.c (fuzz-sinfo.c)
#   rank-end    the rank wrapper's end line, common/rank-end.c (fuzz-rank-end.c)
# Objects are kept in $BUILD/fuzz/obj/ and compiled again only when their source or a
# header they include changed; a target is linked again only when one of its objects did.
# Exit 0: no crash; 1: a crash, leak, timeout or build failure (the reproducer is in
# $BUILD/fuzz/NAME/); 2: an unknown target; 77: clang or its fuzzer runtime is missing
# (the caller decides to skip). CPPFLAGS, EXT_LIBS and MPICC come from the Makefile's
# `fuzz` target; the defaults suit Debian.
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-sites events metrics journal experiment sinfo rank-end}
CLANG=${CLANG:-clang}
MPICC=${MPICC:-mpicc}
CPPFLAGS=${CPPFLAGS:--I. -Iruntime/include -I$BUILD}
EXT_LIBS=${EXT_LIBS:--lyaml -lcurl -ljansson -lsqlite3 -lgsl -lgslcblas -lm}
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
out="$BUILD/fuzz"
mkdir -p "$out" || exit 1

# The sources of target $1 besides its own file, and its input cap in bytes.
fuzz_srcs() {
	broker="$(ls common/*.c broker/*.c remote/*.c runtime/scheme/*.c)
		$BUILD/gen/embedded-sites.c"
	case $1 in
	sites|metrics|sinfo) echo "$broker" ;;
	events|rank-end) echo "tests/fuzz/fuzz-file.c $(ls common/*.c)" ;;
	journal)
		echo "tests/fuzz/fuzz-file.c $(ls common/*.c runtime/journal/*.c)
			runtime/core/grt-sink.c runtime/core/grt-relay.c runtime/core/grt-buf.c"
		;;
	experiment) echo "tests/fuzz/fuzz-file.c $broker $(ls experiment/*.c store/*.c)" ;;
	*) return 1 ;;
	esac
}
fuzz_max_len() {
	case $1 in
	events|sinfo|metrics) echo 65536 ;;
	rank-end) echo 2048 ;;
	*) echo 8192 ;;
	esac
}

# The dictionary of target $1's words, as libFuzzer's option.
fuzz_dict() {
	case $1 in
	sites|experiment) echo "-dict=tests/fuzz/yaml.dict" ;;
	events|sinfo) echo "-dict=tests/fuzz/json.dict" ;;
	metrics) echo "-dict=tests/fuzz/metrics.dict" ;;
	esac
}

# Compile $1 into its object under $out/obj unless it is up to date; print the object.
fuzz_obj() {
	o="$out/obj/$(echo "$1" | sed -e "s|^$BUILD/|build/|" -e 's|\.c$|.o|')"
	# shellcheck disable=SC2046 # the dependencies in the .d file are a word list
	if [ -f "$o" ] && [ -f "${o%.o}.d" ] && [ -z "$(find $(sed -e 's/^[^:]*://' \
		-e 's/\\$//' "${o%.o}.d") -newer "$o" 2>/dev/null | head -n 1)" ]; then
		echo "$o"
		return 0
	fi
	mkdir -p "$(dirname "$o")"
	# shellcheck disable=SC2086 # CPPFLAGS, mpi_inc and SAN are word lists
	"$CLANG" -g -O1 -std=c11 -D_GNU_SOURCE -w $SAN $CPPFLAGS $mpi_inc -MMD -MF "${o%.o}.d" \
		-c -o "$o" "$1" >> "$out/build.log" 2>&1 || return 1
	echo "$o"
}

# Build target $1 as $out/NAME/fuzz-NAME when any of its objects is newer than it.
fuzz_build() {
	bin="$out/$1/fuzz-$1"
	objs=
	for s in "tests/fuzz/fuzz-$1.c" $(fuzz_srcs "$1"); do
		o=$(fuzz_obj "$s") || { echo "run-fuzz: $1: compiling $s failed"
			tail -n 30 "$out/build.log"; return 1; }
		objs="$objs $o"
	done
	# shellcheck disable=SC2086
	if [ -x "$bin" ] && [ -z "$(find $objs -newer "$bin" | head -n 1)" ]; then
		return 0
	fi
	echo "run-fuzz: linking $bin"
	# shellcheck disable=SC2086
	"$CLANG" $SAN -o "$bin" $objs $EXT_LIBS -lpthread >> "$out/build.log" 2>&1 || {
		echo "run-fuzz: $1: linking failed"; tail -n 30 "$out/build.log"; return 1; }
}

# Fuzz target $1 for FUZZ_SECONDS from a copy of its seeds, then replay seeds and finds.
fuzz_run() {
	bin="$out/$1/fuzz-$1"
	dir="$out/$1"
	dict=$(fuzz_dict "$1")
	# fuzz from a copy of the seeds, so the committed corpus only changes by hand
	rm -rf "$dir/corpus"
	mkdir -p "$dir/corpus"
	cp "tests/fuzz/corpus-$1/"* "$dir/corpus/"
	# shellcheck disable=SC2086 # dict is one word or none
	"$bin" -max_total_time="$FUZZ_SECONDS" -max_len="$(fuzz_max_len "$1")" -timeout=10 \
		-rss_limit_mb=2048 $dict -artifact_prefix="$dir/" \
		-print_final_stats=1 "$dir/corpus" > "$dir/fuzz.log" 2>&1 || {
		echo "run-fuzz: $1: the fuzzer found a problem:"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*runtime error)' \
			"$dir/fuzz.log" | head -n 20
		tail -n 40 "$dir/fuzz.log"
		return 1
	}
	log="$dir/fuzz.log"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	last=$(grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -n 1 |
		sed -e 's/^\(#[0-9]*\)[^c]*\(cov: [0-9]*\) \(ft: [0-9]*\).*/\1 \2 \3/')
	echo "run-fuzz: $1: ${FUZZ_SECONDS}s, ${execs:-?} executions, ${last:-no stats}, 0 crashes;" \
		"corpus now $(ls "$dir/corpus" | wc -l) inputs"
	# shellcheck disable=SC2046
	if ! "$bin" -timeout=10 $(ls -d "tests/fuzz/corpus-$1/"*) > "$dir/replay.log" 2>&1; then
		echo "run-fuzz: $1: replaying the seed corpus failed"
		tail -n 40 "$dir/replay.log"
		return 1
	fi
	if ! "$bin" -runs=0 -timeout=10 "$dir/corpus" > "$dir/replay2.log" 2>&1; then
		echo "run-fuzz: $1: replaying the grown corpus failed"
		tail -n 40 "$dir/replay2.log"
		return 1
	fi
	echo "run-fuzz: $1: replayed $(ls "tests/fuzz/corpus-$1" | wc -l) seeds and" \
		"$(ls "$dir/corpus" | wc -l) corpus inputs, no crash"
}

for t in $FUZZ_TARGETS; do
	if ! fuzz_srcs "$t" > /dev/null || [ ! -f "tests/fuzz/fuzz-$t.c" ]; then
		echo "run-fuzz: unknown target '$t' (targets: sites events metrics journal" \
			"experiment sinfo rank-end)"
		exit 2
	fi
done
if ! command -v "$CLANG" > /dev/null 2>&1; then
	echo "run-fuzz: $CLANG not found (Debian: apt-get install clang)"
	exit 77
fi
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ return 0; }\n' \
	> "$out/probe.c"
if ! "$CLANG" -fsanitize=fuzzer,address,undefined -o "$out/probe" "$out/probe.c" \
	> "$out/probe.log" 2>&1; then
	echo "run-fuzz: $CLANG has no libFuzzer runtime (Debian: apt-get install libclang-rt-dev" \
		"or the clang version's libclang-common-NN-dev)"
	exit 77
fi
if [ ! -f "$BUILD/gen/embedded-sites.c" ] || [ ! -f "$BUILD/gen/gs-config.h" ]; then
	${MAKE:-make} -s B="$BUILD" "$BUILD/gen/embedded-sites.c" "$BUILD/gen/gs-config.h" ||
		exit 1
fi
# libgrt's headers include mpi.h: the journal's objects need MPI's include directories
mpi_inc=$("$MPICC" -show 2>/dev/null | tr ' ' '\n' | grep '^-I')

: > "$out/build.log"
for t in $FUZZ_TARGETS; do
	mkdir -p "$out/$t"
	fuzz_build "$t" || exit 1
done
status=0
for t in $FUZZ_TARGETS; do
	fuzz_run "$t" || status=1
done
exit $status
