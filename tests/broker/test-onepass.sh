#!/bin/sh
# test-onepass.sh — every mistake in one pass, and "did you mean" wherever a name is chosen
# from a set: a job file with 16 mistakes (keys, values, a site the site file lacks, a
# requirements expression, a missing program, two missing stage_in files) reports exactly
# those, each file:line:col, in file order, from one run that takes no job id; a program
# that is a directory, not executable or not a program is refused at load, located; the
# configuration file's
# mistakes in file order, its sites: NAME with "did you mean"; the misspelt names of the
# command line (global options, commands, options, actions, states, fields, schemes,
# site NAMEs, stored experiments, --links) each get the name meant.
. tests/lib.sh
case $GS in /*) ;; *) GS=$SRC/$GS ;; esac

# a site NAME is looked for in $XDG_CONFIG_HOME/gridsubmit/sites: tiger is one there
export XDG_CONFIG_HOME="$T/xdg"
mkdir -p "$XDG_CONFIG_HOME/gridsubmit/sites" "$T/work"
cp sites/tiger.yaml "$XDG_CONFIG_HOME/gridsubmit/sites/tiger.yaml"
cp sites/tiger.yaml "$T/tiger.yaml"

# the listing before anything was refused: it stays as it is
run_gs list
list0=$out

# --- a job file with 16 mistakes, the program and both stage_in files missing
cd "$T/work" || exit 1
cat > many.yaml <<'EOF'
name: a/b
program: ./no-such-prog
ranks: {min: 4, max: 2}
sites: [THU, THU, HTI]
requirements: "cores >= 2 &&& mem_mb > 1"
rank_weights: {cpu: 0.5, bandwidth: 0.6}
runtime: {scheme: gsss, k: 0, colour: red}
env: {1BAD: x}
stage_in: [in-a.dat, in-b.dat]
restarts: x
time_limit: soon
keep_jornal: true
EOF
want="many.yaml:1:7: 'name' must be a job name (at most 128 bytes, no '/' or control characters), not 'a/b'
many.yaml:2:10: 'program' cannot be started: $T/work/no-such-prog: No such file or directory (was it built? run make)
many.yaml:3:14: 'min' must be a whole number from 1 to max (2), not '4'
many.yaml:4:14: site 'THU' is listed twice in 'sites'
many.yaml:4:19: no site 'HTI' in $T/tiger.yaml (did you mean 'HIT'?)
many.yaml:5:29: requirements: '&' is not an operator (did you mean '&&'?)
many.yaml:6:15: 'rank_weights' cpu + bandwidth must be 1, not 0.5 + 0.6 = 1.1
many.yaml:7:19: unknown scheme 'gsss' (did you mean 'gss'?)
many.yaml:7:28: 'k' must be a whole number >= 1, not '0'
many.yaml:7:31: unknown key 'colour' (expected one of: scheme, k, alpha, swr, deadline, rounds, events_chunks, master_computes, prefetch, migration, threshold, spare, checkpoint_every, move_gap, hierarchy)
many.yaml:8:7: '1BAD' is not an environment name (letters, digits and '_', not starting with a digit)
many.yaml:9:12: 'stage_in' item 'in-a.dat' cannot be staged: ./in-a.dat: No such file or directory
many.yaml:9:22: 'stage_in' item 'in-b.dat' cannot be staged: ./in-b.dat: No such file or directory
many.yaml:10:11: 'restarts' must be a whole number from 0 to 1000 (relaunches after a failure), not 'x'
many.yaml:11:13: 'time_limit' must be a time limit as Slurm takes it (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS, more than 0), not 'soon'
many.yaml:12:1: unknown key 'keep_jornal' (did you mean 'keep_journal'?)"
for cmd in run submit rank; do
	run_gs "$cmd" many.yaml --sites "$T/tiger.yaml" --no-metrics
	check_eq "$cmd, 16 mistakes: exit 3" "$rc" 3
	check_eq "$cmd, 16 mistakes: exactly those, each located, in file order, in one run" \
		"$err" "$want"
done
# once the others are fixed, nothing new comes up: the same file with only the
# requirements, program and stage_in mistakes gives those three and no more
printf '#!/bin/sh\nexit 0\n' > prog && chmod +x prog
printf 'program: ./prog\nstage_in: [in-a.dat]\nrequirements: "cores >= 2 &&& mem_mb > 1"\n' \
	> three.yaml
: > in-a.dat
run_gs run three.yaml --sites "$T/tiger.yaml" --no-metrics
check_eq "the requirements expression alone: its one error" "$err" \
	"three.yaml:3:29: requirements: '&' is not an operator (did you mean '&&'?)"
# a block scalar's columns do not map: the value located, the place in the expression said
printf 'program: ./prog\nrequirements: |\n  cores >= 2 && mem_mb >\n' > block.yaml
run_gs run block.yaml --sites "$T/tiger.yaml" --no-metrics
check_match "a block requirements: at the value, with its character" "$err" \
	"^block\.yaml:2:15: requirements: at character 24 of the expression: "

# --- the program: a directory, not executable, not a program: refused at load, located
printf 'program: %s\nranks: 1\n' "$T" > dir.yaml
printf 'program: /etc/passwd\nranks: 1\n' > passwd.yaml
printf 'int main(void) { return 0; }\n' > hello.c
chmod +x hello.c
printf 'program: hello.c\nranks: 1\n' > source.yaml
run_gs run dir.yaml --no-metrics
check_eq "program a directory: exit 3" "$rc" 3
check_eq "program a directory: refused at load, at the value" "$err" \
	"dir.yaml:1:10: 'program' cannot be started: $T: is a directory, not a program"
run_gs run passwd.yaml --no-metrics
check_eq "program not executable: at the value" "$err" \
	"passwd.yaml:1:10: 'program' cannot be started: /etc/passwd: cannot run it: Permission denied"
run_gs run source.yaml --no-metrics
check_eq "program executable but neither ELF nor '#!': at the value" "$err" \
	"source.yaml:1:10: 'program' cannot be started: $T/work/hello.c: not a program (neither an ELF executable nor a script that starts with '#!')"
run_gs submit dir.yaml --no-metrics
check_eq "submit of the directory: exit 3" "$rc" 3

cd "$SRC" || exit 1
run_gs list
check_eq "no refused job took an id: list unchanged" "$out" "$list0"
check_eq "no refused job made a directory" \
	"$(ls "$GRIDSUBMIT_HOME/jobs" 2>/dev/null | grep -c '^[0-9]')" 0

# --- the configuration file: every mistake in file order, sites: NAME with "did you mean"
printf 'sites: tigre\nschem: pwd\nmetrics_timeout: 0\ncolour: red\n' > "$T/config.yaml"
GRIDSUBMIT_CONFIG=$T/config.yaml run_gs run "$T/work/many.yaml" --no-metrics
check_eq "config file: exit 3" "$rc" 3
check_eq "config file: every mistake, in file order, the site NAME meant" "$err" \
"$T/config.yaml:1:8: 'sites': no site file named 'tigre' (did you mean 'tiger'?): looked for tigre.yaml in $XDG_CONFIG_HOME/gridsubmit/sites, $SRC/sites and $(sed -n 's/^#define GS_PREFIX "\(.*\)"$/\1/p' "$BUILD/gen/gs-config.h")/share/gridsubmit/sites (give a path to use a file elsewhere)
$T/config.yaml:2:1: unknown key 'schem' (did you mean 'scheme'?)
$T/config.yaml:3:18: 'metrics_timeout' must be a number of seconds from 0.1 to 600, not '0'
$T/config.yaml:4:1: unknown key 'colour' (expected one of: sites, scheme, metrics_timeout)"
printf 'sites: tiger\n' > "$T/config-ok.yaml"
GRIDSUBMIT_CONFIG=$T/config-ok.yaml run_gs rank "$T/work/three.yaml" --no-metrics
check_eq "config file: sites: tiger, which is found, passes; the job file's error alone" \
	"$err" "$T/work/three.yaml:3:29: requirements: '&' is not an operator (did you mean '&&'?)"

# --- did you mean: every name chosen from a set
# usage_guess NAME WANT ARGS...: exit 2 and the line WANT first on stderr
usage_guess() {
	ug_name=$1
	ug_want=$2
	shift 2
	run_gs "$@"
	check_eq "$ug_name: exit 2" "$rc" 2
	check_eq "$ug_name: the name meant" "$(printf '%s\n' "$err" | sed -n 1p)" "$ug_want"
}
usage_guess "global option" "gridsubmit: unknown option '--verison' (did you mean '--version'?)" \
	--verison
usage_guess "command" "gridsubmit: unknown command 'lst' (did you mean 'list'?)" lst
usage_guess "a command's option" \
	"gridsubmit run: unknown option '--tiem' (did you mean '--time'?)" \
	run --tiem 10 "$T/work/three.yaml"
usage_guess "list --state" \
	"gridsubmit list: --state: unknown state 'runing' (did you mean 'running'?)" \
	list --state runing
usage_guess "list --format" \
	"gridsubmit list: --format: unknown field 'nmae' (did you mean 'name'?)" \
	list --format id,nmae
usage_guess "--scheme" "gridsubmit run: --scheme: unknown scheme 'gsss' (did you mean 'gss'?)" \
	run --scheme gsss "$T/work/three.yaml"
usage_guess "sites action" "gridsubmit sites: unknown action 'chek' (did you mean 'check'?)" \
	sites chek sites/tiger.yaml
usage_guess "testbed action" \
	"gridsubmit testbed: unknown action 'dwon' (did you mean 'down'?)" \
	testbed dwon "$T/tiger.yaml"
usage_guess "experiment action" \
	"gridsubmit experiment: unknown action 'lsit' (did you mean 'list'?)" experiment lsit
usage_guess "simulate --links" \
	"gridsubmit simulate: --links: 'stie' is neither 'node' nor 'site' (did you mean 'site'?)" \
	simulate --links stie "$T/work/three.yaml"

# a site NAME: gridsubmit's prefix, where it looked, the NAME meant
run_gs run "$T/work/three.yaml" --sites tigre --no-metrics
check_eq "--sites tigre: exit 3" "$rc" 3
check_match "--sites tigre: prefixed, the NAME meant, where it looked" \
	"$(printf '%s\n' "$err" | sed -n 1p)" \
	"^gridsubmit: no site file named 'tigre' \(did you mean 'tiger'\?\): looked for tigre\.yaml in $XDG_CONFIG_HOME/gridsubmit/sites, $SRC/sites and "
run_gs sites show tigre
check_match "sites show tigre: the same" "$err" "^gridsubmit: no site file named 'tigre' \(did you mean 'tiger'\?\)"

# a stored experiment's NAME
mkdir -p "$GRIDSUBMIT_HOME/experiments/scaling"
run_gs experiment report scalign
check_match "experiment report: the stored NAME meant" "$err" \
	"experiment scalign: nothing stored .* \(did you mean 'scaling'\?\)$"
