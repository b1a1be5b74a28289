#!/bin/sh
# test-fuzz-replay.sh — the bounded fuzz run of CI (doc/reliability.md, "Fuzzing"): build
# the libFuzzer target of every reader of outside bytes (tests/fuzz/run-fuzz.sh), fuzz each
# for FUZZ_SECONDS (10 here), replay its seed corpus and what the run found. Skipped,
# saying why, without clang's fuzzer runtime.
. tests/lib.sh

targets="sites events metrics journal experiment sinfo rank-end"
FUZZ_SECONDS=${FUZZ_SECONDS:-10} FUZZ_TARGETS=$targets BUILD="$BUILD" \
	sh tests/fuzz/run-fuzz.sh > "$T/fuzz.out" 2>&1
rc=$?
case $rc in
0)
	pass "fuzz: every target built, fuzzed ${FUZZ_SECONDS:-10}s, corpus replayed, no crash"
	sed -e 's/^/# /' "$T/fuzz.out"
	;;
77)
	skip "fuzz" "$(tail -n 1 "$T/fuzz.out")"
	;;
*)
	fail "fuzz: exit $rc"
	sed -e 's/^/#   /' "$T/fuzz.out" | tail -n 60
	;;
esac
if [ "$rc" -ne 77 ]; then
	# each target ran and replayed its own seeds: a target left out of the run fails here
	for t in $targets; do
		check "fuzz-$t replayed its seeds" grep -q "^run-fuzz: $t: replayed" "$T/fuzz.out"
	done
fi

# the seeds are real files: each shipped site file and example experiment unchanged, and
# each recorded events file of tests/data
for f in sites/*.yaml; do
	check "corpus holds $f" cmp -s "$f" "tests/fuzz/corpus-sites/$(basename "$f")"
done
for f in examples/experiments/*.yaml; do
	check "corpus holds $f" cmp -s "$f" "tests/fuzz/corpus-experiment/$(basename "$f")"
done
for f in tests/data/events/*.jsonl; do
	check "corpus holds $f" cmp -s "$f" "tests/fuzz/corpus-events/$(basename "$f")"
done
