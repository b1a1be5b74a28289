#!/bin/sh
# test-store.sh — the job store's safety: a shared (sticky) or world-writable
# GRIDSUBMIT_HOME refused with advice that fits it and nothing made in it; commands that
# only read create nothing, a missing store reading as empty; a relative GRIDSUBMIT_HOME
# taken as absolute, by the supervisor too.
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "store" "jq is not installed (scripts/install-deps)"; exit 0; }
MANDEL="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MANDEL" ] || { fail "store: $MANDEL is not built"; exit 1; }
mandel_job store "$T/quick.yaml" 256

# --- a store that others can write
mkdir -m 1777 "$T/shared"
run_gs_home() { h=$1; shift; GRIDSUBMIT_HOME=$h "$GS" "$@" > "$T/h.out" 2> "$T/h.err"; hrc=$?; }
run_gs_home "$T/shared" list
check_eq "a shared store (sticky, world-writable): refused (1)" "$hrc" 1
check_match "a shared store: use a directory of your own" "$(cat "$T/h.err")" \
	"$T/shared: .*use a directory of your own, e.g. GRIDSUBMIT_HOME=~/.gridsubmit"
check_eq "a shared store: no advice to chmod it" "$(grep -c chmod "$T/h.err")" 0
mkdir "$T/mine" && chmod 777 "$T/mine"
run_gs_home "$T/mine" submit --no-metrics "$T/quick.yaml"
check_eq "a world-writable store of one's own: refused, no id" "$hrc:$(cat "$T/h.out")" "1:"
check_match "a world-writable store of one's own: chmod o-w or another" "$(cat "$T/h.err")" \
	"world-writable.*chmod o-w.*a directory of your own"
check "a world-writable store: nothing made in it" test ! -e "$T/mine/jobs"

# --- commands that only read, on a missing store named relative
mkdir "$T/cwd"
case $GS in /*) G=$GS ;; *) G=$SRC/$GS ;; esac
for c in "list" "list --json" "status" "status 1" "logs 1" "wait 1" "top --once" \
    "cancel 1" "purge 1" "purge --state done" "experiment list"; do
	# shellcheck disable=SC2086
	(cd "$T/cwd" && GRIDSUBMIT_HOME=rel "$G" $c > "$T/h.out" 2> "$T/h.err")
	check_eq "a missing relative store, $c: it ran, nothing made" \
	    "$(grep -c 'not found' "$T/h.err"):$(ls -A "$T/cwd")" "0:"
done
(cd "$T/cwd" && GRIDSUBMIT_HOME=rel "$G" list > "$T/h.out")
check_eq "a missing store: list prints the header alone" "$(tr -s ' ' < "$T/h.out")" \
	"ID NAME STATE ELAPSED NODES EXIT REASON"
(cd "$T/cwd" && GRIDSUBMIT_HOME=rel "$G" list --json | jq -c .jobs > "$T/h.out")
check_eq "a missing store: list --json has no job" "$(cat "$T/h.out")" "[]"
(cd "$T/cwd" && GRIDSUBMIT_HOME=rel "$G" status > /dev/null 2> "$T/h.err")
check_match "a relative store is named absolute" "$(cat "$T/h.err")" "no job yet in $T/cwd/rel/jobs"
r=$(cd "$T/cwd" && GRIDSUBMIT_HOME=rel "$G" submit --no-metrics "$T/quick.yaml")
check_eq "a relative store: the job's directory is absolute" \
	"$(GRIDSUBMIT_HOME="$T/cwd/rel" "$GS" status --json "$r" | jq -r .dir)" "$T/cwd/rel/jobs/$r"
GRIDSUBMIT_HOME="$T/cwd/rel" "$GS" wait "$r" --timeout 60 >/dev/null
check_eq "a relative store: its supervisor used the same store" \
	"$(jq -r .state "$T/cwd/rel/jobs/$r/state.json")" done
