#!/bin/sh
# test-config.sh — the user's configuration file, $XDG_CONFIG_HOME/gridsubmit/config.yaml
# (GRIDSUBMIT_CONFIG elsewhere): sites, scheme and metrics_timeout each take effect in rank,
# run and sites show; command line > job file > configuration file > built-in default; a
# missing file is no error, an invalid or unreadable one is (exit 3, every error located).
. tests/lib.sh

MB="$SRC/$BUILD/examples/mandelbrot"
[ -x "$MB" ] || { fail "config: $MB is not built"; exit 1; }
unset GRIDSUBMIT_CONFIG
export XDG_CONFIG_HOME="$T/xdg"
CONF="$XDG_CONFIG_HOME/gridsubmit/config.yaml"
mkdir -p "$XDG_CONFIG_HOME/gridsubmit/sites"

# conf LINE...: the configuration file
conf() {
	printf '%s\n' "$@" > "$CONF"
}

# header: rank's first line, "...; SITEFILE: N nodes, N pass"
header() {
	printf '%s\n' "$out" | sed -n 1p
}

cat > "$XDG_CONFIG_HOME/gridsubmit/two.yaml" <<'EOF'
sites:
  - {name: A, link: {bandwidth_mbps: 100}, nodes: [{host: localhost, cpu_mhz: 1000, cores: 2}]}
  - {name: B, link: {bandwidth_mbps: 10}, nodes: [{host: b1, cpu_mhz: 1000, cores: 1}]}
EOF
cp sites/lanwlan.yaml "$XDG_CONFIG_HOME/gridsubmit/sites/lab.yaml"
printf 'program: %s\nargs: [--size, "64"]\nranks: 2\n' "$MB" > "$T/job.yaml"
printf 'program: %s\nargs: [--size, "64"]\nranks: 2\nruntime: {scheme: fss}\n' "$MB" \
	> "$T/job-fss.yaml"

# --- no file: nothing changes
run_gs rank "$T/job.yaml" --no-metrics
check_eq "no configuration file: exit 0" "$rc" 0
check_match "no configuration file: the embedded site file" "$(header)" \
	"; <embedded>/sites/localhost\.yaml: 1 node, 1 passes$"

# --- sites: a path relative to the configuration file, or a NAME
conf "sites: two.yaml"
run_gs rank "$T/job.yaml" --no-metrics
check_eq "sites (path): exit 0" "$rc" 0
check_match "sites (path): relative to the configuration file" "$(header)" \
	"; $XDG_CONFIG_HOME/gridsubmit/two\.yaml: 2 nodes, 2 pass$"
run_gs rank "$T/job.yaml" --no-metrics --sites sites/tiger.yaml
check_match "sites: --sites wins over the configuration" "$(header)" \
	"; sites/tiger\.yaml: 16 nodes, 16 pass$"
run_gs sites show
check_eq "sites show without FILE: exit 0" "$rc" 0
check_match "sites show without FILE: the configured file" "$out" \
	"^file: +$XDG_CONFIG_HOME/gridsubmit/two\.yaml$"
conf "sites: lab"
run_gs rank "$T/job.yaml" --no-metrics
check_match "sites (NAME): the user's site directory" "$(header)" \
	"; $XDG_CONFIG_HOME/gridsubmit/sites/lab\.yaml: 6 nodes, 6 pass$"

# --- scheme: below --scheme and the job file's runtime.scheme, above gss
conf "scheme: PWD"
run_gs run "$T/job.yaml" --no-metrics
check_eq "scheme: run exits 0" "$rc" 0
check_match "scheme: the configured one when nothing else says" "$err" ", scheme pwd$"
check_match "scheme: the ranks were given it" "$out" "^mandelbrot: 64x64, scheme pwd,"
run_gs run "$T/job-fss.yaml" --no-metrics
check_match "scheme: the job file's wins" "$err" ", scheme fss$"
run_gs run "$T/job-fss.yaml" --no-metrics --scheme static
check_match "scheme: --scheme wins over both" "$err" ", scheme static$"
rm -f "$CONF"
run_gs run "$T/job.yaml" --no-metrics
check_match "scheme: without any, the built-in gss" "$err" ", scheme gss$"

# --- metrics_timeout: a monitor that never answers is waited for that long
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
PORT=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(64)
time.sleep(120)' "$PORT" > /dev/null 2>&1 &
SILENT=$!
at_exit "kill $SILENT"
cat > "$T/silent.yaml" <<EOF
sites:
  - name: A
    link: {bandwidth_mbps: 100}
    nodes:
      - {host: localhost, cpu_mhz: 1000, cores: 2, monitor: "http://127.0.0.1:$PORT/metrics"}
EOF
poll 5 python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $PORT))"
conf "metrics_timeout: 0.5"
run_gs rank "$T/job.yaml" --sites "$T/silent.yaml" --json
check_eq "metrics_timeout: rank exits 0" "$rc" 0
check_eq "metrics_timeout: rank waited the configured time" \
	"$(printf '%s' "$out" | jq -r '.nodes[0].stale')" \
	"http://127.0.0.1:$PORT/metrics: timed out after 0.5 s"
run_gs rank "$T/job.yaml" --sites "$T/silent.yaml" --json --timeout 0.3
check_eq "metrics_timeout: --timeout wins" "$(printf '%s' "$out" | jq -r '.nodes[0].stale')" \
	"http://127.0.0.1:$PORT/metrics: timed out after 0.3 s"
# run has no --timeout: a longer configured time than the default 5 s is waited out
conf "metrics_timeout: 6"
start=$(date +%s.%N)
run_gs run "$T/job.yaml" --sites "$T/silent.yaml"
end=$(date +%s.%N)
elapsed=$(python3 -c "print(round($end - $start, 2))")
check_eq "metrics_timeout: run exits 0" "$rc" 0
check "metrics_timeout: run waited 6 s, not the default 5 ($elapsed s)" \
	python3 -c "import sys; sys.exit(0 if $elapsed >= 5.9 else 1)"

# --- errors: every one located, exit 3, before anything else happens
conf "sites: two.yaml" "sheme: pwd" "scheme: gsss" "metrics_timeout: fast"
run_gs rank "$T/job.yaml" --no-metrics
check_eq "invalid configuration: rank exits 3" "$rc" 3
check_eq "invalid configuration: every error, located, in order" "$err" \
"$CONF:2:1: unknown key 'sheme' (did you mean 'scheme'?)
$CONF:3:9: unknown scheme 'gsss' (did you mean 'gss'?)
$CONF:4:18: 'metrics_timeout' must be a number of seconds from 0.1 to 600, not 'fast'"
next=$(cat "$GRIDSUBMIT_HOME/jobs/next-id")
run_gs run "$T/job.yaml" --no-metrics --sites sites/tiger.yaml --scheme gss
check_eq "invalid configuration: run exits 3, whatever the command line gives" "$rc" 3
check_eq "invalid configuration: no job id was taken" \
	"$(cat "$GRIDSUBMIT_HOME/jobs/next-id")" "$next"
run_gs sites show
check_eq "invalid configuration: sites show without FILE exits 3" "$rc" 3
printf 'name: cfgexp\njob: %s\nmatrix:\n  size: [64]\nargs: ["--size", "{size}"]\n' \
	"$T/job.yaml" > "$T/exp.yaml"
run_gs experiment "$T/exp.yaml"
check_eq "invalid configuration: experiment exits 3" "$rc" 3
check "invalid configuration: experiment stops before its first run" \
	test ! -e "$GRIDSUBMIT_HOME/experiments/cfgexp"
run_gs sites check sites/tiger.yaml
check_eq "invalid configuration: sites check does not read it" "$rc" 0
export GRIDSUBMIT_CONFIG=
run_gs rank "$T/job.yaml" --no-metrics
check_eq "GRIDSUBMIT_CONFIG empty: no configuration file is read" "$rc" 0
GRIDSUBMIT_CONFIG="$T/none.yaml"
run_gs rank "$T/job.yaml" --no-metrics
check_eq "GRIDSUBMIT_CONFIG naming no file: exit 3" "$rc" 3
check_eq "GRIDSUBMIT_CONFIG naming no file: says so" "$err" \
	"$T/none.yaml: cannot open: No such file or directory"
printf 'scheme: static\n' > "$T/other.yaml"
GRIDSUBMIT_CONFIG="$T/other.yaml"
run_gs run "$T/job.yaml" --no-metrics
check_match "GRIDSUBMIT_CONFIG: that file is read" "$err" ", scheme static$"
unset GRIDSUBMIT_CONFIG

rm -f "$CONF"
mkdir "$CONF"
run_gs rank "$T/job.yaml" --no-metrics
check_eq "a configuration file that cannot be read: exit 3" "$rc" 3
check_match "a configuration file that cannot be read: named" "$err" "^$CONF: cannot read"
rmdir "$CONF"

# a configured site file that is missing: one of the configuration file's mistakes, located
conf "# the grid" "sites: gone.yaml"
run_gs rank "$T/job.yaml" --no-metrics
check_eq "configured site file missing: exit 3" "$rc" 3
check_eq "configured site file missing: the error at the line that sets it" "$err" \
"$CONF:2:8: 'sites': $XDG_CONFIG_HOME/gridsubmit/gone.yaml: No such file or directory"
