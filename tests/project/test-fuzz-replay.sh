#!/bin/sh
# test-fuzz-replay.sh — the bounded fuzz run of CI (doc/reliability.md, "Fuzzing"): build the
# libFuzzer target of the site and job loaders, fuzz for FUZZ_SECONDS (20 here), replay the
# seed corpus and what the run found. Skipped, saying why, without clang's fuzzer runtime.
. tests/lib.sh

FUZZ_SECONDS=${FUZZ_SECONDS:-20} BUILD="$BUILD" sh tests/fuzz/run-fuzz.sh > "$T/fuzz.out" 2>&1
rc=$?
case $rc in
0)
	pass "fuzz-sites: built, fuzzed ${FUZZ_SECONDS:-20}s, corpus replayed, no crash"
	sed -e 's/^/# /' "$T/fuzz.out"
	;;
77)
	skip "fuzz-sites" "$(tail -n 1 "$T/fuzz.out")"
	;;
*)
	fail "fuzz-sites: exit $rc"
	sed -e 's/^/#   /' "$T/fuzz.out" | tail -n 60
	;;
esac

# the seeds themselves are good inputs: each shipped site file is in the corpus unchanged
for f in sites/*.yaml; do
	check "corpus holds $f" cmp -s "$f" "tests/fuzz/corpus-sites/$(basename "$f")"
done
