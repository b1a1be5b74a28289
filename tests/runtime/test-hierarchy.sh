#!/bin/sh
# test-hierarchy.sh — libgrt's sub-masters (doc/runtime.md, "The hierarchy") under real
# mpiexec on this host, the sites made by a rank map: hierarchy N and site compute the
# right result with every unit merged once (grt-check's chain) for several schemes; the
# events keep every chunk with the real rank that computed it and the start record names
# each rank's group; a single group, or no rank map, changes nothing; a program that packs
# and runs rounds is refused clearly; a worker killed under a sub-master is requeued in its
# group; a sub-master killed mid-run has its chunks requeued by the master and its workers
# stopped, the job still right; gridsubmit run takes the job file's key (synthetic and
# mandelbrot, --check).
# serial: grt-check (test-grt.sh, test-journal.sh and this one run, and reap, grt-check)
. tests/lib.sh
. tests/runtime/lib-grt-run.sh

case $BUILD in
/*) B=$BUILD ;;
*) B=$SRC/$BUILD ;;
esac
CHECK=$B/tests/runtime/mpi/grt-check
RANKEXEC=$B/gridsubmit-rank
for f in "$CHECK" "$RANKEXEC"; do
	if [ ! -x "$f" ]; then
		fail "hierarchy: $f is built (run make tests)"
		exit 0
	fi
done
at_exit "own '$CHECK' | xargs -r kill -KILL"
unset GRT_SCHEME GRT_K GRT_ALPHA GRT_SWR GRT_DEADLINE GRT_EVENTS GRT_JOB GRT_RANKMAP \
	GRT_EVENTS_CHUNKS GRT_MASTER_COMPUTES GRT_PREFETCH GRT_HIERARCHY
export GRT_K=5
ev=$T/ev.jsonl

# grt N ARGS...: grt-check on N ranks, events in $ev; output in $out, status in $rc
grt() {
	n=$1
	shift
	rm -f "$ev"
	GRT_EVENTS=$ev timeout -k 5 60 "$MPIEXEC" -n "$n" "$CHECK" "$@" > "$T/.o" 2>&1
	rc=$?
	out=$(cat "$T/.o")
}

ref() {
	timeout -k 5 30 "$MPIEXEC" -n 1 "$CHECK" --scheme static --units "$1" --rounds "$2" \
	    < /dev/null |
	    sed -n 's/.*checksum \([0-9a-f]*\),.*/\1/p'
}

# ok NAME RANKS SCHEME UNITS: the run's line says right, every unit merged once
ok() {
	want=$(ref "$4" 1)
	if [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -Eq "^grt-check: ok: scheme $3, ranks $2, N $4, rounds 1, merged $4, checksum $want, failed 0,"; then
		pass "$1"
	else
		fail "$1"
		echo "#   exit status $rc"
		printf '%s\n' "$out" | tail -n 10 | sed -e 's/^/#   /'
	fi
}

jqv() {
	jq -c -s "$1" "$ev" 2>&1
}

# --- hierarchy 2 on 7 ranks: sub-masters 1 and 4, each over two workers
for s in gss pss css fss static af; do
	GRT_HIERARCHY=2 grt 7 --scheme "$s" --units 2000 --payload 40
	ok "hierarchy 2, $s: right result, every unit merged once" 7 "$s" 2000
	check_eq "hierarchy 2, $s: chunks only from workers, covering N once" \
	    "$(jqv '[.[] | select(.ev == "chunk")] | [(map(.rank) | unique), (map(.count) | add),
	        (sort_by(.start) | [.[0].start, (. as $c | [range(1; length) |
	        select($c[.].start != $c[. - 1].start + $c[. - 1].count)] | length)])]')" \
	    '[[2,3,5,6],2000,[0,0]]'
done
check_eq "hierarchy 2: start record's roles and groups" \
    "$(jqv '.[0].ranks | map([.rank, .role, .group])')" \
    '[[0,"master",null],[1,"sub-master",1],[2,"worker",1],[3,"worker",1],[4,"sub-master",4],[5,"worker",4],[6,"worker",4]]'
check_eq "hierarchy 2: end record by real rank, units summing to N" \
    "$(jqv '.[-1] | [.status, (.ranks | map(.rank)), (.ranks | map(.units) | add),
        (.ranks | map(select(.rank == 1 or .rank == 4) | .units))]')" \
    '["ok",[1,2,3,4,5,6],2000,[0,0]]'

# --- sites from a rank map: three sites of 3, 3 and 1 ranks; the last a plain worker
cat > "$T/rankmap" <<EOF2
0 m0 s0 1 1 1000
1 a1 s1 1 1 1000
2 a2 s1 1 1 1000
3 a3 s1 1 2 1000
4 b1 s2 1 1 1000
5 b2 s2 1 1 1000
6 b3 s2 1 1 1000
7 c1 s3 1 1 1000
EOF2
for s in gss pwd tss; do
	GRT_RANKMAP=$T/rankmap GRT_HIERARCHY=site grt 8 --scheme "$s" --units 3000 --payload 40
	ok "hierarchy site, $s: right result" 8 "$s" 3000
done
check_eq "hierarchy site: a sub-master per site of several ranks, a lone rank a worker" \
    "$(jqv '.[0].ranks | map(.group)')" '[null,1,1,1,4,4,4,7]'
check_eq "hierarchy site: every chunk of a worker, the lone one's too" \
    "$(jqv '[.[] | select(.ev == "chunk") | .rank] | unique')" '[2,3,5,6,7]'

# --- one group, or sites unknown: nothing changes
GRT_HIERARCHY=site grt 5 --scheme gss --units 1000
ok "hierarchy site without a rank map: right result" 5 gss 1000
check_eq "hierarchy site without a rank map: one site, no sub-master" \
    "$(jqv '[.[0].ranks[] | .role] | unique')" '["master","worker"]'
GRT_HIERARCHY=10 grt 5 --scheme gss --units 1000
check_eq "hierarchy 10 on 5 ranks: one group, no sub-master" \
    "$(jqv '[.[0].ranks[] | .role] | unique')" '["master","worker"]'
GRT_RANKMAP=$T/rankmap GRT_HIERARCHY=auto grt 8 --scheme gss --units 1000
check_eq "hierarchy auto on 8 ranks of 3 sites (under 2,000): flat" \
    "$(jqv '[.[0].ranks[] | .role] | unique')" '["master","worker"]'

# --- pack and rounds: the sub-masters would pack without the master's merged state
GRT_HIERARCHY=2 grt 7 --scheme gss --units 500 --rounds 2
check "hierarchy 2, pack and 2 rounds: refused (status $rc)" [ "$rc" -ne 0 ]
check_match "hierarchy 2, pack and 2 rounds: the reason" "$out" \
    'grt-check: FAILED: hierarchy: a program that packs inputs \(pack\) runs its 2 rounds without sub-masters: set hierarchy: none'

# --- failures, launched as gridsubmit does (gridsubmit-rank, -disable-auto-cleanup)
grt_fail() {
	rm -f "$ev" "$T/st"
	GRT_K=10 GRT_DEADLINE=3 GRT_HIERARCHY=2 GRT_EVENTS=$ev timeout -k 5 60 "$MPIEXEC" \
	    -disable-auto-cleanup -n 7 "$RANKEXEC" --status "$T/st" -- "$CHECK" "$@" \
	    > "$T/.o" 2>&1
	rc=$?
	out=$(cat "$T/.o")
}
no_orphans() {
	poll 10 '[ -z "$(own_pids)" ]'
	check_eq "$1: no process left" "$(own_pids)" ""
	kill_own
}

grt_fail --scheme css --units 1000 --payload 64 --work-us 200 --die-rank 2 \
    --die-after-chunks 3 --die-how kill
# it held one or two pieces of 10 units (a second when its group had one in hand)
check_match "worker killed under a sub-master: right result, its pieces requeued" "$out" \
    "grt-check: ok: scheme css, ranks 7, N 1000, rounds 1, merged 1000, checksum $(ref 1000 1), failed 1, dropped 0, requeued (10|20),"
check_eq "worker killed under a sub-master: master's status" "$(cat "$T/st" 2>&1)" "exit 0"
check_eq "worker killed under a sub-master: its fail event, requeued in its group" \
    "$(jqv '[.[] | select(.ev == "fail") | [.rank, (.requeued == 10 or .requeued == 20),
        (.reason | test("sub-master"))]]')" '[[2,true,true]]'
check_eq "worker killed under a sub-master: end record" \
    "$(jqv '(map(select(.ev == "fail"))[0].requeued) as $q | .[-1] | [.status, .failed,
        .requeued == $q, (.ranks | map(select(.state != "done") | .rank)),
        (.ranks | map(.units) | add)]')" '["ok",1,true,[2],1000]'
no_orphans "worker killed under a sub-master"

rm -f "$ev" "$T/st"
# 8,000 units of 2 ms on 4 workers (4 s and more): the kill lands mid-run however fast
# the host (3,000 ended before the test had found the sub-master on an idle one)
SUBU=8000
(GRT_K=10 GRT_DEADLINE=3 GRT_HIERARCHY=2 GRT_EVENTS=$ev timeout -k 5 60 "$MPIEXEC" \
    -disable-auto-cleanup -n 7 "$RANKEXEC" --status "$T/st" -- "$CHECK" --scheme css \
    --units "$SUBU" --payload 64 --work-us 2000 > "$T/.o" 2>&1; echo "$?" > "$T/rc") &
# has_chunk: the run's events hold a chunk (its ranks are up and computing)
has_chunk() {
	grep -q '"ev":"chunk"' "$ev" 2> /dev/null
}
poll 20 has_chunk
sub=$(rank_pid 1)
check "sub-master killed mid-run: found it (pid $sub)" [ -n "$sub" ]
kill -KILL "$sub" 2> /dev/null
wait
out=$(cat "$T/.o")
check "sub-master killed mid-run: mpiexec ends by itself" [ "$(cat "$T/rc")" -ne 124 ]
check_match "sub-master killed mid-run: right result, its chunks requeued" "$out" \
    "grt-check: ok: scheme css, ranks 7, N $SUBU, rounds 1, merged $SUBU, checksum $(ref "$SUBU" 1), failed 1, dropped 0, requeued [1-9][0-9]*,"
check_eq "sub-master killed mid-run: master's status" "$(cat "$T/st" 2>&1)" "exit 0"
check_eq "sub-master killed mid-run: fail event and end record" \
    "$(jqv '[([.[] | select(.ev == "fail") | .rank]), (.[-1] | [.status, .failed,
        (.requeued > 0), (.ranks | map(select(.state != "done") | .rank)),
        (.ranks | map(.units) | add)])]')" \
    "[[1],[\"ok\",1,true,[1,2,3],$SUBU]]"
check_eq "sub-master killed mid-run: its group computes nothing after the kill" \
    "$(jqv '(map(select(.ev == "fail"))[0].t) as $k |
        [.[] | select(.ev == "chunk" and (.rank == 2 or .rank == 3) and .t > $k + 0.5)] | length')" 0
no_orphans "sub-master killed mid-run"

# --- gridsubmit run with the job file's key: synthetic and mandelbrot check their results
for prog in "synthetic --units 4000 --mean-us 20 --check" "mandelbrot --size 200 --check"; do
	name=${prog%% *}
	set -- $prog
	shift
	args=$(printf '"%s", ' "$@")
	cat > "$T/$name.yaml" <<EOF2
name: hier-$name
program: $B/examples/$name
args: [${args%, }]
ranks: 7
oversubscribe: true
runtime: {scheme: gss, hierarchy: 2}
EOF2
	run_gs run "$T/$name.yaml" -q
	check_eq "gridsubmit run, $name with hierarchy 2: exit status" "$rc" 0
	job=$(ls "$GRIDSUBMIT_HOME/jobs" | sort -n | tail -n 1)
	ev=$GRIDSUBMIT_HOME/jobs/$job/events.jsonl
	check_eq "gridsubmit run, $name with hierarchy 2: sub-masters 1 and 4, chunks by workers" \
	    "$(jqv '[(.[0].ranks | map(select(.role == "sub-master") | .rank)),
	        ([.[] | select(.ev == "chunk") | .rank] | unique | . - [2,3,5,6])]')" '[[1,4],[]]'
done
