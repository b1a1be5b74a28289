#!/bin/sh
# test-rank.sh — `gridsubmit rank`: the ranked table, --json, --explain, --ranks, the exit
# codes for bad files, bad requirements (with their file position) and no placement.
# Site-file values only (--no-metrics); live metrics are tests/broker/test-metrics.sh.
. tests/lib.sh

cat > "$T/tiger.yaml" <<'EOF'
# four sites of the TIGER grid (seed 002, table 2), one or two nodes each; no master:
# rank 0 runs here (the site file's master is tested below)
sites:
  - name: THU
    link: {bandwidth_mbps: 1000, latency_ms: 0.2}
    nodes:
      - {host: "delta[1-2]", cpu_mhz: 3001, cores: 1, mem_mb: 1024, arch: x86_64}
  - name: LZ
    link: {bandwidth_mbps: 100, latency_ms: 2}
    nodes:
      - {host: "lz0[1-2]", cpu_mhz: 898, cores: 1, mem_mb: 256, arch: x86_64}
  - name: HIT
    link: {bandwidth_mbps: 100, latency_ms: 2}
    nodes:
      - {host: gridhit0, cpu_mhz: 2800, cores: 1, mem_mb: 512, arch: x86_64}
  - name: PU
    link: {bandwidth_mbps: 1000, latency_ms: 1}
    nodes:
      - {host: hpc09, cpu_mhz: 1991, cores: 1, mem_mb: 1024}
EOF
cat > "$T/job.yaml" <<'EOF'
name: mandel
program: /bin/true
ranks: 3
sites: [THU, LZ, HIT, PU]
requirements: 'mem_mb >= 512 && arch == "x86_64"'
rank_weights: {cpu: 0.9, bandwidth: 0.1}
EOF

run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics
check_eq "text: exit 0" "$rc" 0
check_match "text: header" "$out" "^job mandel: 3 ranks, w1 0\.9, w2 0\.1; .*tiger\.yaml: 6 nodes, 3 pass$"
# passing: delta1, delta2, gridhit0; by PF: the two deltas (file order), then gridhit0
check_eq "text: ranked hosts in order" \
	"$(printf '%s\n' "$out" | awk 'NF >= 12 && $1 ~ /^[0-9]+$/ { print $2 }' | tr '\n' ' ')" \
	"delta1 delta2 gridhit0 "
# without master:, a multi-site job's rank 0 runs here, as run puts it
here=$(hostname)
check_match "text: placement line: rank 0 here, workers on the best two" "$out" \
	"^placement: $here:1 delta1:1 delta2:1 \(rank 0, the master, on $here\)$"
check_eq "text: no note on stderr" "$err" ""
check_match "text: filtered count" "$out" "^3 nodes filtered out, 0 with stale metrics"

run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --json
check_eq "json: exit 0" "$rc" 0
check_eq "json: schema_version" "$(printf '%s' "$out" | jq .schema_version)" 3
check_eq "json: keys of a node" "$(printf '%s' "$out" | jq -c '.nodes[0] | keys_unsorted')" \
	'["host","site","cs","cl","b","pf_cpu","pf_bw","pf","pr","selected","metrics","filtered","stale","cores","cpu_mhz","mem_mb","slots","sources"]'
check_eq "json: order" "$(printf '%s' "$out" | jq -r '[.nodes[].host] | join(" ")')" \
	"delta1 delta2 gridhit0 lz01 lz02 hpc09"
# hand-computed: CS/CL 3001, 3001, 2800 (sum 8802); B 1000, 1000, 100 (sum 2100)
check "json: PF of delta1 = 0.9*3001/8802 + 0.1*1000/2100" python3 -c "
import json, sys
d = json.loads(sys.argv[1])
pf = d['nodes'][0]['pf']
sys.exit(0 if abs(pf - (0.9 * 3001 / 8802 + 0.1 * 1000 / 2100)) < 1e-9 else 1)" "$out"
check "json: PR sums to 1 over the selected nodes" python3 -c "
import json, sys
d = json.loads(sys.argv[1])
s = sum(n['pr'] for n in d['nodes'] if n['selected'])
sys.exit(0 if abs(s - 1) < 1e-9 else 1)" "$out"
check_eq "json: selected: the two workers' nodes" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.selected) | .host' | tr '\n' ' ')" \
	"delta1 delta2 "
check_eq "json: PF terms as the text shows them" \
	"$(printf '%s' "$out" | jq -c '.nodes[0] | [.pf_cpu > 0, .pf_bw > 0, .metrics]')" \
	'[true,true,"-"]'
check_eq "json: the placement" "$(printf '%s' "$out" | jq -c '.placement')" \
	"{\"ranks\":3,\"master\":\"$here\",\"hosts\":[{\"host\":\"$here\",\"first_rank\":0,\"ranks\":1},{\"host\":\"delta1\",\"first_rank\":1,\"ranks\":1},{\"host\":\"delta2\",\"first_rank\":2,\"ranks\":1}]}"
check_eq "json: lz01 filtered by its clause" \
	"$(printf '%s' "$out" | jq -r '.nodes[3].filtered')" "mem_mb >= 512 (mem_mb is 256)"
check_eq "json: hpc09 filtered by arch" \
	"$(printf '%s' "$out" | jq -r '.nodes[5].filtered')" 'arch == "x86_64" (arch is unset)'
check_eq "json: filtered nodes are not selected" \
	"$(printf '%s' "$out" | jq '[.nodes[3:][] | select(.selected)] | length')" 0
check_eq "json: no stale without metrics" \
	"$(printf '%s' "$out" | jq '[.nodes[] | select(.stale != null)] | length')" 0

run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --explain
check_match "explain: filtered section" "$out" "^filtered out:$"
check_match "explain: lz01's clause" "$out" "^  lz01 \(LZ\): mem_mb >= 512 \(mem_mb is 256\)$"
check_match "explain: hpc09's clause" "$out" '^  hpc09 \(PU\): arch == "x86_64" \(arch is unset\)$'
check_match "explain: rank 0 here, and why" "$out" \
	"^rank 0 \(the master\): on this host \($here\): the site file names no master; B is each site's link to this host$"

# the site file's master: rank 0 on that node, B the link to it (doc/broker.md, "The terms")
{ echo "master: delta1"; cat "$T/tiger.yaml"; } > "$T/tiger-m.yaml"
run_gs rank "$T/job.yaml" --sites "$T/tiger-m.yaml" --no-metrics --explain
check_eq "master delta1: exit 0" "$rc" 0
check_match "master delta1: rank 0 there, workers on the next best" "$out" \
	"^placement: delta1:1 delta2:1 gridhit0:1 \(rank 0, the master, on delta1\)$"
check_match "master delta1: --explain says where and why" "$out" \
	"^rank 0 \(the master\): on delta1, the site file's master; B is each node's link to it: its site's link in THU, else the slower of its site's and THU's$"
check_eq "master delta1: no note on stderr" "$err" ""
# master gridhit0 (HIT, 100 Mbit/s): the THU nodes (1000) reach it at 100, B 100 each
{ echo "master: gridhit0"; cat "$T/tiger.yaml"; } > "$T/tiger-h.yaml"
run_gs rank "$T/job.yaml" --sites "$T/tiger-h.yaml" --no-metrics --json
check_eq "master gridhit0: B of every passing node is the slower link, 100" \
	"$(printf '%s' "$out" | jq -c '[.nodes[0:3][] | [.host, .b]]')" \
	'[["delta1",100],["delta2",100],["gridhit0",100]]'
check_eq "master gridhit0: rank 0 there" "$(printf '%s' "$out" | jq -r .placement.master)" \
	gridhit0
# a master of a Slurm site is not used (no node of Slurm is given before its allocation):
# rank 0 here, with the reason; the login host does not resolve, so nothing waits
cat > "$T/slurm-m.yaml" <<'EOF'
master: hn1
sites:
  - name: lab
    link: {bandwidth_mbps: 100, latency_ms: 0.1}
    nodes:
      - {host: ln1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
  - name: hpc
    link: {bandwidth_mbps: 1000, latency_ms: 0.1}
    scheduler: {type: slurm, login: hpc-login.invalid}
    nodes:
      - {host: hn1, cpu_mhz: 2000, cores: 1, mem_mb: 256}
EOF
printf 'name: s\nprogram: /bin/true\nranks: 2\n' > "$T/job-s.yaml"
run_gs rank "$T/job-s.yaml" --sites "$T/slurm-m.yaml" --no-metrics --explain
check_eq "master on a Slurm node: exit 0" "$rc" 0
check_match "master on a Slurm node: the note says why it is not used" "$err" \
	"^gridsubmit: rank 0 runs on this host \($here\), not on the site file's master hn1: a Slurm site's node is not given before its allocation$"
check_match "master on a Slurm node: --explain, rank 0 here" "$out" \
	"^rank 0 \(the master\): on this host \($here\), not on the site file's master hn1 \(the note above says why\); B is each site's link to this host$"

# the job's sites filter first
sed -e 's/^sites: .*/sites: [THU, PU]/' "$T/job.yaml" > "$T/job-sites.yaml"
run_gs rank "$T/job-sites.yaml" --sites "$T/tiger.yaml" --no-metrics --json --ranks 2
check_eq "job sites: HIT filtered" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "gridhit0") | .filtered')" \
	"site HIT not in the job's sites"
check_eq "--ranks 2: one worker's node (the master is here)" \
	"$(printf '%s' "$out" | jq '[.nodes[] | select(.selected)] | length')" 1

# no placement: exit 4, with the counts (3 slots and rank 0 here: 4 ranks fit, not 5)
run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --ranks 4
check_eq "4 ranks: 3 workers and the master here (exit 0)" "$rc" 0
run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --ranks 5
check_eq "no placement: exit 4" "$rc" 4
check_match "no placement: message" "$err" "the job asks for 5 ranks \(the master included\) but 3 of 6 nodes pass the requirements, with 3 slots, and rank 0 on the master $here"
check_eq "no placement: no json placement" \
	"$(build_json() { "$GS" rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --ranks 5 --json 2>/dev/null; }; build_json | jq -c .placement)" null
# ranks: {min, max}: as many as fit, down to min; below min, both bounds are named
sed -e 's/^ranks: 3/ranks: {min: 2, max: 9}/' "$T/job.yaml" > "$T/job-minmax.yaml"
run_gs rank "$T/job-minmax.yaml" --sites "$T/tiger.yaml" --no-metrics --json
check_eq "{min: 2, max: 9}: the 4 that fit" "$(printf '%s' "$out" | jq .placement.ranks)" 4
sed -e 's/^ranks: 3/ranks: {min: 5, max: 9}/' "$T/job.yaml" > "$T/job-min5.yaml"
run_gs rank "$T/job-min5.yaml" --sites "$T/tiger.yaml" --no-metrics
check_eq "{min: 5, max: 9}: no placement (exit 4)" "$rc" 4
check_match "{min: 5, max: 9}: both bounds named" "$err" "the job asks for 5 to 9 ranks"

# bad requirements: exit 3, at the file's line and column
cat > "$T/bad.yaml" <<'EOF'
name: bad
program: /bin/true
requirements: 'mem_mb >= 512 && mem_mbb > 1'
EOF
run_gs rank "$T/bad.yaml" --sites "$T/tiger.yaml" --no-metrics
check_eq "bad requirements: exit 3" "$rc" 3
check_match "bad requirements: located" "$err" \
	"bad\.yaml:3:33: requirements: unknown field 'mem_mbb' \(did you mean 'mem_mb'\?\)$"
cat > "$T/bad2.yaml" <<'EOF'
name: bad
program: /bin/true
requirements: 'arch < 5'
EOF
run_gs rank "$T/bad2.yaml" --sites "$T/tiger.yaml" --no-metrics
check_eq "type error: exit 3" "$rc" 3
check_match "type error: located" "$err" "bad2\.yaml:3:23: requirements: cannot compare 'arch' \(a string\) with the number 5$"

# bad files and usage
printf 'sites: [\n' > "$T/broken.yaml"
run_gs rank "$T/job.yaml" --sites "$T/broken.yaml" --no-metrics
check_eq "broken site file: exit 3" "$rc" 3
run_gs rank "$T/missing.yaml" --sites "$T/tiger.yaml" --no-metrics
check_eq "missing job file: exit 3" "$rc" 3
run_gs rank
check_eq "no job: exit 2" "$rc" 2
run_gs rank "$T/job.yaml" --explian
check_eq "bad option: exit 2" "$rc" 2
check_match "bad option: did you mean" "$err" "did you mean '--explain'"
run_gs rank "$T/job.yaml" --ranks 0
check_eq "--ranks 0: exit 2" "$rc" 2
run_gs help rank
check_match "help rank" "$out" "^usage: gridsubmit rank JOB\.yaml"

# the embedded default site file
run_gs rank "$T/job-sites.yaml" --no-metrics
check_eq "default sites: unknown job sites are an input error" "$rc" 3
check_match "default sites: message" "$err" "no site 'THU' in"

# --- rank is run's dry run: the placement hydra gets (DIR/hostfile), the same refusals
MANDEL=$SRC/$BUILD/examples/mandelbrot
cat > "$T/two.yaml" <<'EOF'
# this host as a site of 2 slots, the master here: ranks {min: 2, max: 6} fit as 2
master: localhost
sites:
  - name: here
    link: {bandwidth_mbps: 10000, latency_ms: 0.01}
    nodes:
      - {host: localhost, cpu_mhz: 2000, cores: 2, mem_mb: 512}
EOF
cat > "$T/dry.yaml" <<EOF
name: dry
program: $MANDEL
args: ["--size", "32"]
ranks: {min: 2, max: 6}
EOF
for sf in default "$T/two.yaml"; do
	opt=""
	[ "$sf" = default ] || opt="--sites $sf"
	# shellcheck disable=SC2086 # opt: no option, or --sites FILE
	rplace=$("$GS" rank "$T/dry.yaml" $opt --no-metrics --json |
		jq -r '.placement.hosts[] | "\(.host):\(.ranks)"')
	# shellcheck disable=SC2086
	run_gs run "$T/dry.yaml" $opt --no-metrics
	check_eq "$(basename "$sf"): run exits 0" "$rc" 0
	J=$(ls -d "$GRIDSUBMIT_HOME"/jobs/[0-9]* | sort -t/ -k1 -V | tail -n 1)
	check_eq "$(basename "$sf"): rank places the job as run did" "$rplace" "$(cat "$J/hostfile")"
done
check_eq "two.yaml: as many as fit (2 of 6)" "$(cat "$J/hostfile")" "localhost:2"
sed -e 's/min: 2/min: 3/' "$T/dry.yaml" > "$T/dry3.yaml"
run_gs rank "$T/dry3.yaml" --sites "$T/two.yaml" --no-metrics
rerr=$err
rrc=$rc
run_gs run "$T/dry3.yaml" --sites "$T/two.yaml" --no-metrics
check_eq "below min: rank and run both exit 4" "$rrc:$rc" "4:4"
why="the job asks for 3 to 6 ranks (the master included) but 1 of 1 nodes pass the requirements, with 2 slots"
check "below min: rank gives the reason" grep -qF "$why" <<EOF
$rerr
EOF
check "below min: run gives the same" grep -qF "$why" <<EOF
$err
EOF
sed -e "s|^program: .*|program: $T/nothing|" "$T/dry.yaml" > "$T/dry-noprog.yaml"
run_gs rank "$T/dry-noprog.yaml" --no-metrics
check_eq "a program that cannot run: rank refuses it as run does (exit 3)" "$rc" 3
check_match "naming the program" "$err" "dry-noprog\.yaml:2:10: 'program' cannot be started: $T/nothing: No such file"
