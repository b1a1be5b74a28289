#!/bin/sh
# test-completion.sh — the shell completion as a user gets it. bash: completion/gridsubmit.bash
# sourced in bash and driven as readline drives it (COMP_WORDS, COMP_CWORD, the function,
# COMPREPLY) for the commands, every command's options (equal to its --help and to the
# getopt table the program lists), schemes, site NAMEs, job ids, actions and files; and it
# passes shellcheck; then Tab pressed in a real interactive bash in tmux. zsh:
# completion/_gridsubmit syntax-checked, then Tab pressed in a real interactive zsh in tmux.
. tests/lib.sh

if ! command -v bash >/dev/null 2>&1; then
	skip "bash completion" "bash is not installed"
	exit 0
fi
BASHCOMP=$SRC/completion/gridsubmit.bash
BIN=$(cd "$(dirname "$GS")" && pwd)
# the files completion sees: a job file, an experiment file, other files, a directory
W=$T/work
mkdir -p "$W/sub"
: > "$W/job.yaml"
: > "$W/exp.yml"
: > "$W/notes.txt"
: > "$W/events.jsonl"
# a user's site file: --sites mygrid
export XDG_CONFIG_HOME="$T/config"
mkdir -p "$XDG_CONFIG_HOME/gridsubmit/sites"
cp sites/tiger.yaml "$XDG_CONFIG_HOME/gridsubmit/sites/mygrid.yaml"
: > "$XDG_CONFIG_HOME/gridsubmit/sites/.hidden.yaml"
: > "$XDG_CONFIG_HOME/gridsubmit/sites/readme.txt"
# two jobs in the store, and what is not a job: a stray file, an id that is not canonical
mkdir -p "$GRIDSUBMIT_HOME/jobs/3" "$GRIDSUBMIT_HOME/jobs/12" "$GRIDSUBMIT_HOME/jobs/007"
: > "$GRIDSUBMIT_HOME/jobs/next-id"

# comp LINE: what bash offers for LINE, whose last word is the one completed ("" after a
# trailing space), run in $W with gridsubmit on PATH; sorted, on one line
comp() {
	(cd "$W" && PATH="$BIN:$PATH" bash -c '
		. "$1" || exit 1
		read -r -a COMP_WORDS <<<"$2"
		[[ $2 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_gridsubmit
		printf "%s\n" "${COMPREPLY[@]}"' sh "$BASHCOMP" "$1") | sort | paste -sd' ' -
}

# lines: stdin sorted, on one line
lines() {
	sort | paste -sd' ' -
}

# --- commands: the ones --help lists, and help
cmds=$("$GS" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }')
check_eq "the program lists the commands --help lists" "$("$GS" __complete commands | lines)" \
	"$(printf '%s\n' "$cmds" | lines)"
check_eq "gridsubmit <Tab>: every command" "$(comp 'gridsubmit ')" "$(printf '%s\n' "$cmds" | lines)"
check_eq "gridsubmit sch<Tab>: schedule" "$(comp 'gridsubmit sch')" "schedule"
check_eq "gridsubmit -<Tab>: gridsubmit's own options" "$(comp 'gridsubmit -')" "--help --version -V -h"
check_eq "gridsubmit help ru<Tab>: a command" "$(comp 'gridsubmit help ru')" "run"
run_gs __complete nosuch
check_eq "__complete: an unknown query is a usage error" "$rc" 2

# --- every command's options: what bash offers = its --help = the table getopt parses with
# helpopts CMD: the options the help text lists (the words before its description)
helpopts() {
	"$GS" "$1" --help | awk 'match($0, /^ +-/) && RLENGTH <= 7 { sub(/^ +/, ""); sub(/  .*/, "")
		n = split($0, w, /[ ,]+/); for (i = 1; i <= n; i++) if (w[i] ~ /^-/) print w[i] }' |
		lines
}
for c in $cmds; do
	[ "$c" = help ] && continue
	want=$(helpopts "$c")
	check_eq "gridsubmit $c -<Tab>: the options its --help lists" "$(comp "gridsubmit $c -")" "$want"
	check_eq "gridsubmit $c: the options of its getopt table are those of --help" \
		"$("$GS" __complete options "$c" | cut -d' ' -f1 | lines)" "$want"
done
check_match "run's options include --top" "$(comp 'gridsubmit run --to')" "^--top$"
check_eq "submit has no --top (follow it with top)" "$(comp 'gridsubmit submit --to')" ""
check_eq "top --ex<Tab>: --exit-at-end" "$(comp 'gridsubmit top --ex')" "--exit-at-end"
check_eq "after --, no option is offered" "$(comp 'gridsubmit run -- --')" ""

# --- option values
schemes=$("$GS" schedule --help | awk '/^  --scheme S/ { on = 1; $1 = $2 = ""; print; next }
	on && /^                    / { print; next } { on = 0 }' | tr ' ' '\n' | sed -e '/^$/d' | lines)
check_eq "run --scheme <Tab>: the schemes schedule --help lists" "$(comp 'gridsubmit run --scheme ')" \
	"$schemes"
check_eq "schedule -N 4 --scheme aw<Tab>" "$(comp 'gridsubmit schedule -N 4 --scheme aw')" \
	"awf-b awf-c awf-d awf-e"
check_eq "run --scheme=pw<Tab> (bash splits it at =)" "$(comp 'gridsubmit run --scheme = pw')" \
	"pwd pwd-speed"
check_eq "run --scheme=<Tab>: every scheme" "$(comp 'gridsubmit run --scheme =')" "$schemes"
check_eq "run --sites my<Tab>: the user's site NAME" "$(comp 'gridsubmit run --sites my')" "mygrid"
got=$(comp 'gridsubmit rank -s ')
check_match "rank -s <Tab>: site NAMEs" " $got " " mygrid "
check_match "rank -s <Tab>: the clone's site NAMEs (this is build/gridsubmit)" " $got " \
	" hpc .*tiger "
check_match "rank -s <Tab>: site files and directories" " $got " " exp\\.yml .*job\\.yaml .*sub "
case " $got " in
*notes.txt* | *events.jsonl* | *hidden* | *readme*)
	fail "rank -s <Tab>: no other file, no hidden or non-YAML site file"
	echo "#   got: $got" ;;
*) pass "rank -s <Tab>: no other file, no hidden or non-YAML site file" ;;
esac
check_eq "top --replay <Tab>: any file" "$(comp 'gridsubmit top --replay ')" \
	"events.jsonl exp.yml job.yaml notes.txt sub"
check_eq "run --ranks <Tab>: a number, nothing offered" "$(comp 'gridsubmit run --ranks ')" ""
check_eq "testbed --name x <Tab>: the value is skipped, the actions follow" \
	"$(comp 'gridsubmit testbed --name x ')" "down status up"

# --- operands
check_eq "run <Tab>: job files and directories" "$(comp 'gridsubmit run ')" "exp.yml job.yaml sub"
check_eq "run --top j<Tab>" "$(comp 'gridsubmit run --top j')" "job.yaml"
check_eq "run job.yaml <Tab>: one job file only" "$(comp 'gridsubmit run job.yaml ')" ""
check_eq "run -- gridsubmit-ra<Tab>: a program of PATH" \
	"$(comp 'gridsubmit run -n 2 -- gridsubmit-ra')" "gridsubmit-rank"
check_eq "run -- ./su<Tab>: a path" "$(comp 'gridsubmit run -- ./su')" "./sub"
check_eq "run -- PROGRAM <Tab>: its args, any file" "$(comp 'gridsubmit run -- prog n')" \
	"notes.txt"
check_eq "run job.yaml -- <Tab>: the args, any file" "$(comp 'gridsubmit run job.yaml -- e')" \
	"events.jsonl exp.yml"
check_eq "submit -- gridsubmit-ra<Tab>: submit's too" "$(comp 'gridsubmit submit -- gridsubmit-ra')" \
	"gridsubmit-rank"
check_eq "status <Tab>: the job ids of the store" "$(comp 'gridsubmit status ')" "12 3"
check_eq "cancel 1<Tab>" "$(comp 'gridsubmit cancel 1')" "12"
check_eq "logs --follow <Tab>: the ids after an option" "$(comp 'gridsubmit logs --follow ')" "12 3"
check_eq "wait 3 <Tab>: one id only" "$(comp 'gridsubmit wait 3 ')" ""
got=$(unset GRIDSUBMIT_HOME; export XDG_STATE_HOME="$T/state"; mkdir -p "$T/state/gridsubmit/jobs/5"
	comp 'gridsubmit top ')
check_eq "top <Tab>: the ids of the default store (\$XDG_STATE_HOME/gridsubmit)" "$got" "5"
check_eq "sites <Tab>: its actions" "$(comp 'gridsubmit sites ')" "check show"
got=$(comp 'gridsubmit sites check job.yaml ')
check_match "sites check FILE <Tab>: more site files and NAMEs" " $got " " job\\.yaml .*mygrid "
check_eq "testbed <Tab>: its actions" "$(comp 'gridsubmit testbed ')" "down status up"
check_eq "experiment <Tab>: its actions and experiment files" "$(comp 'gridsubmit experiment ')" \
	"exp.yml job.yaml list report reproduction show sub"
check_eq "schedule <Tab>: no operand" "$(comp 'gridsubmit schedule ')" ""
check_eq "a program typed as a path is asked" \
	"$(cd "$W" && bash -c '. "$1"; COMP_WORDS=("$2" st); COMP_CWORD=1; _gridsubmit
		printf "%s\n" "${COMPREPLY[@]}"' sh "$BASHCOMP" "$BIN/gridsubmit" | lines)" "status"
check_eq "no program: nothing, and no error" \
	"$(cd "$W" && bash -c '. "$1"; COMP_WORDS=(/nonexistent/gridsubmit run --sch); COMP_CWORD=2
		_gridsubmit; printf "%s\n" "${COMPREPLY[@]}"' sh "$BASHCOMP" 2>&1)" ""

if command -v shellcheck >/dev/null 2>&1; then
	check "shellcheck -s bash completion/gridsubmit.bash" shellcheck -s bash "$BASHCOMP"
else
	skip "shellcheck of the bash completion" \
		"shellcheck is not installed (Debian package: shellcheck)"
fi

# --- in a terminal: Tab pressed in an interactive shell in tmux
if ! command -v tmux >/dev/null 2>&1; then
	skip "completion in a terminal" "tmux is not installed"
	exit 0
fi
SOCK=gs-comp-$$
tm() { tmux -L "$SOCK" "$@"; }
at_exit "tmux -L $SOCK kill-server"
# line SESSION: the pane from the last prompt ("bash% ", "zsh% ") on: the line being edited
# and anything listed under it
line() {
	tm capture-pane -p -t "$1" |
		awk '/^[a-z]+%/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }'
}
# tab SESSION NAME TEXT REGEX [AFTER]: on a clean prompt, type TEXT, Tab (and AFTER); the
# prompt line and what the shell lists under it must match REGEX (within 10 s). The line
# is emptied with keys (C-c would make bash throw away what is typed next), the screen
# cleared, and the bare prompt waited for.
tab() {
	tm send-keys -t "$1" C-e C-u C-l
	if ! poll 10 sh -c "[ \"\$(tmux -L $SOCK capture-pane -p -t $1 | sed -e '/^\$/d')\" = '$1%' ]"
	then
		fail "$2: a clean prompt"
		line "$1" | sed -e 's/^/#   | /'
		return
	fi
	tm send-keys -t "$1" -l -- "$3"
	tm send-keys -t "$1" Tab
	[ -n "${5:-}" ] && tm send-keys -t "$1" -l -- "$5"
	i=0
	while [ $i -lt 100 ]; do
		line "$1" | grep -Eq -- "$4" && { pass "$2"; return; }
		sleep 0.1
		i=$((i + 1))
	done
	fail "$2"
	echo "#   waited for: $4"
	line "$1" | sed -e 's/^/#   | /'
}
# started SESSION: its prompt ("SESSION% ") is up; else a failure, and false
started() {
	poll 10 sh -c "tmux -L $SOCK capture-pane -p -t $1 | grep -q '^$1%'" && return 0
	fail "$1 starts in tmux"
	tm capture-pane -p -t "$1" | sed -e 's/^/#   | /'
	return 1
}

# bash as a user has it: readline splits --scheme=VALUE itself
cat > "$T/bashrc" <<EOF
PS1='bash% '
. '$BASHCOMP'
EOF
tm new-session -d -s bash -x 160 -y 40 \
	"cd '$W' && PATH='$BIN:$PATH' bash --noprofile --rcfile '$T/bashrc' -i; sleep 60"
if started bash; then
	tab bash "bash: run --scheme=hetca<Tab>" "gridsubmit run --scheme=hetca" \
		"^bash% gridsubmit run --scheme=hetcalc *$"
	tab bash "bash: run s<Tab>: into a directory" "gridsubmit run s" "^bash% gridsubmit run sub/$"
	tab bash "bash: status 1<Tab>: a job id" "gridsubmit status 1" \
		"^bash% gridsubmit status 12 *$"
fi

if ! command -v zsh >/dev/null 2>&1; then
	skip "zsh completion" "zsh is not installed (scripts/install-deps)"
	exit 0
fi
check "zsh -n completion/_gridsubmit" zsh -n completion/_gridsubmit
mkdir -p "$T/zdot"
cat > "$T/zdot/.zshrc" <<EOF
fpath=('$SRC/completion' \$fpath)
autoload -Uz compinit
compinit -u -d '$T/zcompdump'
PS1='zsh%% '
EOF
# -d: none of the system's startup files, only ours
tm new-session -d -s zsh -x 160 -y 40 \
	"cd '$W' && ZDOTDIR='$T/zdot' PATH='$BIN:$PATH' zsh -d -i; sleep 60"
started zsh || exit 0
tab zsh "zsh: gridsubmit sched<Tab>" "gridsubmit sched" "^zsh% gridsubmit schedule *$"
tab zsh "zsh: schedule --sch<Tab>" "gridsubmit schedule --sch" \
	"^zsh% gridsubmit schedule --scheme *$"
tab zsh "zsh: run --scheme pwd-s<Tab>" "gridsubmit run --scheme pwd-s" \
	"^zsh% gridsubmit run --scheme pwd-speed *$"
tab zsh "zsh: run --scheme=hetca<Tab>" "gridsubmit run --scheme=hetca" \
	"^zsh% gridsubmit run --scheme=hetcalc *$"
tab zsh "zsh: top --<Tab> lists top's options" "gridsubmit top --" "--exit-at-end .*--interval"
tab zsh "zsh: status 1<Tab>: a job id" "gridsubmit status 1" "^zsh% gridsubmit status 12 *$"
tab zsh "zsh: run -- gridsubmit-ra<Tab>: a program of PATH" "gridsubmit run -- gridsubmit-ra" \
	"^zsh% gridsubmit run -- gridsubmit-rank *$"
tab zsh "zsh: run j<Tab>: the job file" "gridsubmit run j" "^zsh% gridsubmit run job\\.yaml *$"
# what is typed after the Tab lands where the Tab left the cursor
tab zsh "zsh: run n<Tab>: no other file" "gridsubmit run n" "^zsh% gridsubmit run nZ$" Z
tab zsh "zsh: run --sites myg<Tab>: a site NAME" "gridsubmit run --sites myg" \
	"^zsh% gridsubmit run --sites mygrid *$"
tab zsh "zsh: sites ch<Tab>: an action" "gridsubmit sites ch" "^zsh% gridsubmit sites check *$"
