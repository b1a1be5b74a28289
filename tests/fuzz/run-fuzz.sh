#!/bin/sh
# tests/fuzz/run-fuzz.sh — `make fuzz`: build the libFuzzer target of the site and job
# loaders (tests/fuzz/fuzz-sites.c) with clang and the address and undefined-behaviour
# sanitizers, fuzz for FUZZ_SECONDS (default 60) starting from a copy of the seed corpus
# tests/fuzz/corpus-sites/, then replay the seed corpus and everything the run found.
# Exit 0: no crash; 1: a crash, leak, timeout or build failure (the reproducer is in
# $BUILD/fuzz/); 77: clang or its fuzzer runtime is missing (the caller decides to skip).
# CPPFLAGS and EXT_LIBS come from the Makefile's `fuzz` target; the defaults suit Debian.
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
CLANG=${CLANG:-clang}
CPPFLAGS=${CPPFLAGS:--I. -Iruntime/include -I$BUILD}
EXT_LIBS=${EXT_LIBS:--lyaml -lcurl -ljansson -lm}
out="$BUILD/fuzz"
bin="$out/fuzz-sites"
mkdir -p "$out" || exit 1

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
srcs="tests/fuzz/fuzz-sites.c $(ls common/*.c broker/*.c remote/*.c) $BUILD/gen/embedded-sites.c
	$(ls runtime/scheme/*.c)"
# rebuild only when a source or header changed: the build takes longer than a short run
stale=1
if [ -x "$bin" ] && [ -z "$(find $srcs common broker remote runtime -newer "$bin" \
	\( -name '*.c' -o -name '*.h' \) 2>/dev/null | head -n 1)" ]; then
	stale=0
fi
if [ "$stale" -eq 1 ]; then
	echo "run-fuzz: building $bin"
	# shellcheck disable=SC2086 # CPPFLAGS, EXT_LIBS and srcs are word lists
	if ! "$CLANG" -g -O1 -std=c11 -D_GNU_SOURCE -w \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$CPPFLAGS -o "$bin" $srcs $EXT_LIBS > "$out/build.log" 2>&1; then
		echo "run-fuzz: build failed"
		tail -n 30 "$out/build.log"
		exit 1
	fi
fi

# fuzz from a copy of the seeds, so the committed corpus only changes by hand
rm -rf "$out/corpus"
mkdir -p "$out/corpus"
cp tests/fuzz/corpus-sites/* "$out/corpus/"
status=0
echo "run-fuzz: fuzzing for ${FUZZ_SECONDS}s"
"$bin" -max_total_time="$FUZZ_SECONDS" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-dict=tests/fuzz/yaml.dict -artifact_prefix="$out/" -print_final_stats=1 \
	"$out/corpus" > "$out/fuzz.log" 2>&1 || status=1
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz.log")
secs=$(sed -n 's/^stat::.*total_time\(_seconds\)*: *//p' "$out/fuzz.log" | head -n 1)
if [ "$status" -ne 0 ]; then
	echo "run-fuzz: the fuzzer found a problem:"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*runtime error)' \
		"$out/fuzz.log" | head -n 20
	tail -n 40 "$out/fuzz.log"
	exit 1
fi
echo "run-fuzz: ${execs:-?} executions, 0 crashes; corpus now $(ls "$out/corpus" | wc -l) inputs"

# replay: every seed, then everything the run kept
# shellcheck disable=SC2046
if ! "$bin" -timeout=10 $(ls -d tests/fuzz/corpus-sites/*) > "$out/replay.log" 2>&1; then
	echo "run-fuzz: replaying the seed corpus failed"
	tail -n 40 "$out/replay.log"
	exit 1
fi
if ! "$bin" -runs=0 -timeout=10 "$out/corpus" > "$out/replay2.log" 2>&1; then
	echo "run-fuzz: replaying the grown corpus failed"
	tail -n 40 "$out/replay2.log"
	exit 1
fi
echo "run-fuzz: replayed $(ls tests/fuzz/corpus-sites | wc -l) seeds and $(ls "$out/corpus" | wc -l) corpus inputs, no crash"
exit 0
