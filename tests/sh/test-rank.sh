#!/bin/sh
# test-rank.sh — `gridsubmit rank`: the ranked table, --json, --explain, --ranks, the exit
# codes for bad files, bad requirements (with their file position) and no placement.
# Site-file values only (--no-metrics); live metrics are tests/sh/test-metrics.sh.
. tests/lib.sh

cat > "$T/tiger.yaml" <<'EOF'
# four sites of the TIGER grid (seed 002, table 2), one or two nodes each
master: delta1
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
check_match "text: placement line" "$out" "^placement: delta1:1 delta2:1 gridhit0:1 \(rank 0, the master, on delta1\)$"
check_match "text: filtered count" "$out" "^3 nodes filtered out, 0 with stale metrics"

run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --json
check_eq "json: exit 0" "$rc" 0
check_eq "json: schema_version" "$(printf '%s' "$out" | jq .schema_version)" 1
check_eq "json: keys of a node" "$(printf '%s' "$out" | jq -c '.nodes[0] | keys_unsorted')" \
	'["host","site","cs","cl","b","pf","pr","selected","filtered","stale"]'
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
check_eq "json: selected: the master's node and two workers" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.selected) | .host' | tr '\n' ' ')" \
	"delta1 delta2 gridhit0 "
check_eq "json: the master's node has PR 0" "$(printf '%s' "$out" | jq '.nodes[0].pr')" 0
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

# the job's sites filter first
sed -e 's/^sites: .*/sites: [THU, PU]/' "$T/job.yaml" > "$T/job-sites.yaml"
run_gs rank "$T/job-sites.yaml" --sites "$T/tiger.yaml" --no-metrics --json --ranks 2
check_eq "job sites: HIT filtered" \
	"$(printf '%s' "$out" | jq -r '.nodes[] | select(.host == "gridhit0") | .filtered')" \
	"site HIT not in the job's sites"
check_eq "--ranks 2: the master's node and one worker" \
	"$(printf '%s' "$out" | jq '[.nodes[] | select(.selected)] | length')" 2

# no placement: exit 4, with the counts
run_gs rank "$T/job.yaml" --sites "$T/tiger.yaml" --no-metrics --ranks 4
check_eq "no placement: exit 4" "$rc" 4
check_match "no placement: message" "$err" "the job asks for 4 ranks \(the master included\) but 3 of 6 nodes pass the requirements, with 3 slots"

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
