#!/bin/sh
# test-schedule.sh — gridsubmit schedule: the dry run of the schemes. Text and --json output
# (parsed with jq) against the reference sequences of doc/schemes.md ("The schemes"), the
# rounds schemes, the adaptive ones with --unit-calc/--unit-comm, --speeds, and usage
# errors (exit 2, naming the option).
. tests/lib.sh

command -v jq >/dev/null 2>&1 || { skip "schedule" "jq is not installed (scripts/install-deps)"; exit 0; }

GSS_SEQ="250,188,141,106,79,59,45,33,25,19,14,11,8,6,4,3,3,2,1,1,1,1"

# counts SCHEME ARGS...: the chunk counts of a --json run, comma separated
counts() {
	"$GS" schedule --json "$@" | jq -r '[.chunks[].count] | map(tostring) | join(",")'
}

# --- text output
run_gs schedule --scheme gss -N 1000 -P 4
check_eq "gss text: exit 0" "$rc" 0
check_eq "gss text: the count column is the reference sequence" \
	"$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ { printf "%s%s", s, $4; s = "," }')" "$GSS_SEQ"
check_match "gss text: a header line" "$out" '^gss: 1000 units over 4 workers$'
check_match "gss text: a total line" "$out" '^total: 22 chunks, 1000 units$'
check_match "gss text: chunk 2 is worker 1 at 250" "$out" '^ +2 +1 +250 +188$'

run_gs schedule --scheme gss -N 0 -P 3
check_eq "N=0: exit 0" "$rc" 0
check_match "N=0: no chunk" "$out" '^total: 0 chunks, 0 units$'

# --- json: the reference sequences
doc=$("$GS" schedule --scheme gss -N 1000 -P 4 --json)
check_eq "json: one document with schema_version 3, scheme, N, P" \
	"$(printf '%s' "$doc" | jq -c '[.schema_version, .scheme, .N, .P]')" '[3,"gss",1000,4]'
check_eq "json: keys in order" "$(printf '%s' "$doc" | jq -c 'keys_unsorted')" \
	'["schema_version","scheme","N","P","chunks"]'
check_eq "json: chunk objects are worker, start, count" \
	"$(printf '%s' "$doc" | jq -c '.chunks[1]')" '{"worker":1,"start":250,"count":188}'
check_eq "json gss" "$(counts --scheme gss -N 1000 -P 4)" "$GSS_SEQ"
check_eq "json static" "$(counts --scheme static -N 1000 -P 4)" "250,250,250,250"
check_eq "json css k=125" "$(counts --scheme css --k 125 -N 1000 -P 4)" \
	"125,125,125,125,125,125,125,125"
check_eq "json css k > N" "$(counts --scheme css --k 5000 -N 1000 -P 4)" "1000"
check_eq "json fss" "$(counts --scheme fss -N 1000 -P 4)" \
	"125,125,125,125,63,63,63,63,31,31,31,31,16,16,16,16,8,8,8,8,4,4,4,4,2,2,2,2,1,1,1,1"
check_eq "json tss" "$(counts --scheme tss -N 1000 -P 4)" \
	"125,117,109,101,93,85,77,69,61,53,45,37,28"
check_eq "json pss: 1000 chunks of 1" \
	"$("$GS" schedule --json --scheme pss -N 1000 -P 4 | jq '[.chunks[] | select(.count == 1)] | length')" 1000
check_eq "json pwd SWR .5 PR 1:1:2:4" \
	"$(counts --scheme pwd --swr .5 --pr 1,1,2,4 -N 1000 -P 4 | cut -d, -f1-5)" "62,62,125,250,126"
check_eq "json ngss alpha 30 by cpu" \
	"$(counts --scheme ngss --alpha 30 --cpu 3001,898,3001,898 -N 1000 -P 4 | cut -d, -f1-5)" \
	"115,34,115,34,176"
check_eq "json wstatic by cpu" "$(counts --scheme wstatic --cpu 3001,3001,898,898 -N 1000 -P 4)" \
	"385,385,115,115"
check_eq "json angss: alpha from the cpu spread" \
	"$("$GS" schedule --json --scheme angss --cpu 3,1 -N 100 -P 2 | jq '.alpha * 1e6 | round')" 60000000
check_eq "json angss: first phase floor(60% of 100) by cpu 3:1" \
	"$(counts --scheme angss --cpu 3,1 -N 100 -P 2 | cut -d, -f1-3)" "45,15,20"

# every scheme hands out [0, N) exactly once, chunk after chunk
for s in static wstatic pss css gss fss tss ngss angss pwd hetcalc hetcomm \
    wf awf-b awf-c awf-d awf-e af pwd-speed; do
	extra=""
	case $s in
	pwd) extra="--swr 0.4 --pr 1,2,3,1,1,5,2" ;;
	hetcalc|hetcomm) extra="--unit-calc 1,2,3,1,1,5,2 --unit-comm 0,1,0,2,0,1,0 --rounds 3" ;;
	wf) extra="--pr 1,2,3,1,1,5,2 --speeds 3,1,2,2,1,5,1" ;;
	awf-*|af) extra="--unit-calc 1,2,3,1,1,5,2 --unit-comm 0,1,0,2,0,1,0 --rounds 3" ;;
	pwd-speed) extra="--swr 0.4 --pr 1,2,3,1,1,5,2 --unit-calc 1,2,3,1,1,5,2 --rounds 3" ;;
	css) extra="--k 7" ;;
	wstatic|ngss|angss) extra="--cpu 3001,898,1200,3001,898,2000,500" ;;
	esac
	# shellcheck disable=SC2086
	bad=$("$GS" schedule --json --scheme $s -N 997 -P 7 $extra | jq -r '
		[.chunks[] | .round //= 1] | group_by(.round)
		| map(sort_by(.start) | reduce .[] as $c ({at: 0, ok: true};
			{at: (.at + $c.count), ok: (.ok and $c.start == .at and $c.count >= 1
			    and $c.worker >= 0 and $c.worker < 7)})
			| (.ok and .at == 997)) | all')
	check_eq "json $s N=997 P=7: every round covers [0, N) exactly once" "$bad" true
done

# --- weighted and adaptive factoring (doc/schemes.md)
check_eq "json wf pr 1:1:2:4" "$(counts --scheme wf --pr 1,1,2,4 -N 1000 -P 4)" \
	"63,63,125,250,32,32,63,125,16,16,31,62,8,8,16,31,4,4,8,15,2,2,4,7,1,1,2,4,1,1,1,2"
check_eq "json wf with cpu and no pr: the same" \
	"$(counts --scheme wf --cpu 1,1,2,4 -N 1000 -P 4 | cut -d, -f1-8)" "63,63,125,250,32,32,63,125"
check_eq "json awf-c without times to learn from: R/2P per request" \
	"$(counts --scheme awf-c -N 1000 -P 4 | cut -d, -f1-8)" "125,110,96,84,74,64,56,49"
check_eq "json pwd-speed SWR .5 PR 1:1:2:4, all measured at unit speed: GSS, as pwd" \
	"$(counts --scheme pwd-speed --swr .5 --pr 1,1,2,4 -N 1000 -P 4 | cut -d, -f1-8)" \
	"62,62,125,250,126,94,71,53"
# awf-b trusts worker 2's fast compute, awf-d sees its slow link (t_exe)
doc=$("$GS" schedule --json --scheme awf-b -N 1000 -P 4 --rounds 2 --unit-calc 1,1,1,3 \
	--unit-comm 0,0,2,0)
check_eq "awf-b round 2 from t_calc" "$(printf '%s' "$doc" | jq -c '.rounds[1].units')" \
	"[364,364,150,122]"
doc=$("$GS" schedule --json --scheme awf-d -N 1000 -P 4 --rounds 2 --unit-calc 1,1,1,3 \
	--unit-comm 0,0,2,0)
check_eq "awf-d round 2 from t_exe: the throughput" \
	"$(printf '%s' "$doc" | jq -c '.rounds[1].units')" "[375,375,125,125]"
doc=$("$GS" schedule --json --scheme af -N 1000 -P 4 --rounds 2 --unit-calc 1,1,1,3)
check_eq "af: round 2 split by mu, 3:3:3:1" "$(printf '%s' "$doc" | jq -c '.rounds[1].units')" \
	"[300,300,300,100]"
run_gs schedule --scheme awf-e -N 100 -P 2 --rounds 2 --unit-calc 1,3
check_match "awf-e text: a round's units" "$out" '^units: [0-9]+ [0-9]+$'

# --- rounds schemes
doc=$("$GS" schedule --json --scheme hetcomm -N 900 -P 4 --rounds 3 \
	--unit-calc 1,2,1,1 --unit-comm 0,0,1,3)
check_eq "hetcomm: round 1 equal" "$(printf '%s' "$doc" | jq -c '.rounds[0]')" \
	'{"j":1,"units":[225,225,225,225]}'
check_eq "hetcomm: rounds 2-3 at the fixed point n ~ 1/(calc+comm)" \
	"$(printf '%s' "$doc" | jq -c '[.rounds[1:][] | .units]')" '[[400,200,200,100],[400,200,200,100]]'
check_eq "hetcomm: every round hands out all N" \
	"$(printf '%s' "$doc" | jq -c '[.rounds[] | .units | add] | unique')" '[900]'
check_eq "hetcomm: chunks carry their round" \
	"$(printf '%s' "$doc" | jq -c '[.chunks[] | .round] | unique')" '[1,2,3]'
doc=$("$GS" schedule --json --scheme hetcalc -N 700 -P 4 --rounds 2 \
	--unit-calc 1,2,1,1 --unit-comm 0,0,1,3)
check_eq "hetcalc: ignores the links" "$(printf '%s' "$doc" | jq -c '.rounds[1].units')" \
	'[200,100,200,200]'
doc=$("$GS" schedule --json --scheme hetcomm -N 100 -P 4 --rounds 3 --unit-calc 1,1,1,1000)
check_eq "hetcomm: the slow worker is dropped in round 2 with its share" \
	"$(printf '%s' "$doc" | jq -c '.rounds[1].dropped | map([.worker, (.share * 1000 | floor)])')" \
	'[[3,33]]'
check_eq "hetcomm: the drop is reported once" \
	"$(printf '%s' "$doc" | jq -c '[.rounds[] | has("dropped")]')" '[false,true,false]'
check_eq "hetcomm: the dropped worker gets no chunk after round 1" \
	"$(printf '%s' "$doc" | jq '[.chunks[] | select(.worker == 3 and .round > 1)] | length')" 0
run_gs schedule --scheme hetcomm -N 100 -P 4 --rounds 2 --unit-calc 1,1,1,1000
check_match "hetcomm text: the round's distribution" "$out" '^units: 34 33 33 0$'
check_match "hetcomm text: the drop" "$out" '^dropped worker 3: '
run_gs schedule --scheme hetcomm -N 1000 -P 4 --rounds 2 --unit-calc 4,1,2,1
check_eq "hetcomm text: round 2 served in decreasing perf_f" \
	"$(printf '%s\n' "$out" | awk '/^round 2/ { r = 1 } r && $1 ~ /^[0-9]+$/ { printf "%s ", $2 }')" \
	"1 3 2 0 "

# --- --speeds: the earliest free worker asks next
check_eq "speeds 1,1,4: the fast worker asks again first" \
	"$("$GS" schedule --json --scheme gss -N 100 -P 3 --speeds 1,1,4 | jq -r '[.chunks[:6][] | .worker] | map(tostring) | join(",")')" \
	"0,1,2,2,2,2"
check_eq "speeds: the sequence of sizes is still gss's" \
	"$(counts --scheme gss -N 1000 -P 4 --speeds 1,1,2,4)" "$GSS_SEQ"

# --- help and usage errors
run_gs schedule --help
check_eq "--help: exit 0" "$rc" 0
check_match "--help: usage on stdout" "$out" '^usage: gridsubmit schedule --scheme S'
run_gs help schedule
check_match "help schedule lists --unit-comm" "$out" '--unit-comm'
run_gs --help
check_match "gridsubmit --help lists schedule" "$out" '^  schedule '

# usage_error NAME STDERR-REGEX ARGS...: exit 2 and stderr matching
usage_error() {
	name=$1 re=$2
	shift 2
	run_gs schedule "$@"
	if [ "$rc" -eq 2 ] && [ -z "$out" ] && printf '%s\n' "$err" | grep -Eq -- "$re"; then
		pass "usage error: $name"
	else
		fail "usage error: $name"
		printf '#   rc %s\n#   stderr: %s\n' "$rc" "$err"
	fi
}
usage_error "unknown scheme suggests the nearest" "unknown scheme 'gsss' \(did you mean 'gss'\?\)" \
	--scheme gsss -N 10 -P 2
usage_error "unknown scheme hetcom" "did you mean 'hetcomm'" --scheme hetcom -N 10 -P 2
usage_error "missing --scheme" "missing --scheme" -N 10 -P 2
usage_error "missing -N" "missing -N" --scheme gss -P 2
usage_error "-N not a number" "^gridsubmit schedule: -N: 'ten' is not a whole number" --scheme gss -N ten -P 2
usage_error "-N negative" "-N: '-1'" --scheme gss -N -1 -P 2
usage_error "-P 0" "-P: '0'" --scheme gss -N 10 -P 0
usage_error "--k 0" "--k: '0'" --scheme css -N 10 -P 2 --k 0
usage_error "--k for gss" "--k does not apply to gss" --scheme gss -N 10 -P 2 --k 3
usage_error "--alpha 150" "--alpha: '150'" --scheme ngss -N 10 -P 2 --alpha 150
usage_error "--swr 2" "--swr: '2'" --scheme pwd -N 10 -P 2 --swr 2
usage_error "pwd without --swr" "pwd needs --swr" --scheme pwd -N 10 -P 2
usage_error "pwd-speed without --swr" "pwd-speed needs --swr" --scheme pwd-speed -N 10 -P 2
usage_error "--pr for af" "--pr does not apply to af" --scheme af -N 10 -P 2 --pr 1,1
usage_error "--unit-calc for gss" "--unit-calc does not apply to gss" \
	--scheme gss -N 10 -P 2 --unit-calc 1,1
usage_error "--unit-comm alone" "--unit-comm needs --unit-calc" \
	--scheme awf-d -N 10 -P 2 --unit-comm 1,1
usage_error "--speeds and --unit-calc" "give --speeds or --unit-calc, not both" \
	--scheme af -N 10 -P 2 --unit-calc 1,1 --speeds 1,1
usage_error "unknown scheme awf" "did you mean 'wf'" --scheme awf -N 10 -P 2
usage_error "--pr count" "--pr: expected 2 values" --scheme pwd -N 10 -P 2 --swr .5 --pr 1,2,3
usage_error "--pr zero" "--pr: '0' must be above 0" --scheme pwd -N 10 -P 2 --swr .5 --pr 1,0
usage_error "--cpu empty item" "--cpu: '' is not a number" --scheme wstatic -N 10 -P 2 --cpu 1,
usage_error "--speeds junk" "--speeds: '2x' is not a number" --scheme gss -N 10 -P 2 --speeds 1,2x
usage_error "--unit-calc missing" "hetcomm needs --unit-calc" --scheme hetcomm -N 10 -P 2
usage_error "--unit-comm negative" "--unit-comm: '-1' must be at least 0" \
	--scheme hetcomm -N 10 -P 2 --unit-calc 1,1 --unit-comm 0,-1
usage_error "--speeds with hetcomm" "--speeds does not apply to hetcomm" \
	--scheme hetcomm -N 10 -P 2 --unit-calc 1,1 --speeds 1,1
usage_error "--rounds 0" "--rounds: '0'" --scheme gss -N 10 -P 2 --rounds 0
usage_error "misspelt option" "unknown option '--speds' \(did you mean '--speeds'\?\)" \
	--scheme gss -N 10 -P 2 --speds 1,2
usage_error "an extra argument" "unexpected argument 'extra'" --scheme gss -N 10 -P 2 extra
# bounded: a schedule of more chunks than it shows is refused before it is built, not
# allocated until memory runs out (pss cuts one chunk per unit)
usage_error "pss over 2^63-1 units" \
	"^gridsubmit schedule: -N 9223372036854775807: pss cuts more than 1000000 chunks, the most schedule shows; give a smaller -N" \
	--scheme pss -N 9223372036854775807 -P 4
usage_error "css --k 1 over 1000001 units" "css cuts more than 1000000 chunks" \
	--scheme css -N 1000001 -P 2
usage_error "workers x rounds over the maximum" \
	"-P 1000000 with --rounds 100: workers x rounds is at most 10000000" \
	--scheme gss -N 10 -P 1000000 --rounds 100
run_gs schedule --scheme pss -N 1000000 -P 4
check_eq "pss at the maximum: its 1000000 chunks" "$rc:$(printf '%s\n' "$out" | tail -n 1)" \
	"0:total: 1000000 chunks, 1000000 units"
run_gs schedule --scheme gss -N 9223372036854775807 -P 4
check_eq "gss over 2^63-1 units: 150 chunks, every unit" "$rc:$(printf '%s\n' "$out" | tail -n 1)" \
	"0:total: 150 chunks, 9223372036854775807 units"
