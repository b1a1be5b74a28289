#!/bin/sh
# test-docs-agree.sh — what the help texts, gridsubmit(1) and the README say of the command
# line is what the program takes and does, walked from the command table itself (so a new
# option or command is checked without a change here):
#   - every option of a command's getopt table (gridsubmit __complete options CMD) is in its
#     `help CMD` (both forms in the options, one in the synopsis) and, long ones, in the
#     README's command reference; nothing is documented there or in the command's entry of
#     gridsubmit(1) that the table lacks (test-man.sh checks the entry names every option);
#   - -h sits with the options, the notes after it; no help line ends inside a noun phrase
#     (after an article or a possessive: "overriding the job file's") and no option's
#     description ends on an article, preposition or conjunction;
#   - every page renders under man without a warning, without a word hyphenated at a line's
#     end and without an option glued to its argument ("--stateS");
#   - every exit code of the README's table that a command here produces cheaply is the
#     code the program exits with;
#   - every example of the README (its ```sh blocks, its indented blocks, the example column
#     of its command table) runs, in a private HOME (so ~/.local/state/gridsubmit is a fresh
#     store) and a directory that holds the clone's examples/, sites/ and build/ beside the
#     files the examples name; those that cannot run here are listed below with the reason
#     (as root, the command table's testbed of sites/tiger.yaml is brought up and down).
# The last line counts the examples run and the checks of help, man and README passed.
# serial: testbed-a (at most two testbeds at once: tests/run-tests.sh)
. tests/lib.sh

PAGE=man/gridsubmit.1
README=README.md
DATA=tests/data/events
NDOC=0
NEX=0
case $BUILD in /*) BUILDABS=$BUILD ;; *) BUILDABS=$SRC/$BUILD ;; esac

# doc_eq NAME GOT WANT: check_eq, counted among the documents' checks when it passes
doc_eq() {
	check_eq "$@"
	[ "$2" != "$3" ] || NDOC=$((NDOC + 1))
}

# mentions FILE WORD: FILE names WORD as a whole word ("--speed" is not "--speeds")
mentions() {
	grep -Eq -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"
}

# options_in FILE: the option words of FILE ("-s", "--sites"; "--" alone is none)
options_in() {
	grep -oE -- '(^|[^A-Za-z0-9-])--?[A-Za-z][A-Za-z0-9-]*' "$1" | sed -e 's/^[^-]//' |
	    sort -u
}

# glued FILE: the words of FILE where an option runs into its argument ("--stateS",
# "--formatFIELDS": the arguments are in capitals, options never are)
glued() {
	grep -oE -- '(^|[^A-Za-z0-9-])--?[a-z][a-z0-9-]*[A-Z][A-Za-z]*' "$1" | sed -e 's/^[^-]//'
}

# Words a description cannot end on: it would stop mid-sentence.
STOPWORDS="a an the of to in on at by for with from into onto as and or nor but than that
whose its their this these per via over under without within when while if"

# --- the help texts
"$GS" __complete commands | grep -vx help > "$T/commands"
"$GS" __complete options | cut -d' ' -f1 > "$T/global"
for c in $(cat "$T/commands"); do
	"$GS" help "$c" > "$T/help-$c"
	"$GS" "$c" --help > "$T/help2-$c"
	cmp -s "$T/help-$c" "$T/help2-$c" && same=yes || same=no
	doc_eq "help $c is $c --help" "$same" yes
	"$GS" __complete options "$c" | cut -d' ' -f1 | grep -vx -e -h -e --help > "$T/opts-$c"
	sed -n 1p "$T/help-$c" > "$T/syn-$c"
	awk '/^options:$/ { o = 1; next } o && /^  -h, --help / { exit } o' "$T/help-$c" \
	    > "$T/optblock-$c"
	awk 'f { print } /^  -h, --help / { f = 1 }' "$T/help-$c" > "$T/after-$c"
	# "-s --sites" for each option written "-s, --sites F"
	sed -n -E 's/^ +(-[A-Za-z0-9]), (--[a-z0-9-]+).*/\1 \2/p' "$T/optblock-$c" > "$T/twins-$c"

	missing=""
	nosyn=""
	for o in $(cat "$T/opts-$c"); do
		mentions "$T/optblock-$c" "$o" || missing="$missing $o"
		twin=$(awk -v o="$o" '$1 == o { print $2 } $2 == o { print $1 }' "$T/twins-$c")
		mentions "$T/syn-$c" "$o" || { [ -n "$twin" ] && mentions "$T/syn-$c" "$twin"; } ||
		    nosyn="$nosyn $o"
	done
	n=$(wc -l < "$T/opts-$c")
	doc_eq "help $c: its options name each of its $n options, short and long" \
	    "${missing# }" ""
	doc_eq "help $c: its synopsis names each of its $n options" "${nosyn# }" ""

	# the option column: what each line of the options starts with, up to two spaces
	sed -n -E 's/^ {1,8}([^ ].*)/\1/p' "$T/optblock-$c" | sed -e 's/  .*//' > "$T/tags-$c"
	extra=""
	for o in $(options_in "$T/tags-$c") $(options_in "$T/syn-$c"); do
		grep -Fxq -- "$o" "$T/opts-$c" || grep -Fxq -- "$o" "$T/global" ||
		    extra="$extra $o"
	done
	doc_eq "help $c: documents no option its table lacks" "${extra# }" ""

	# -h closes the options: after it a blank line and the notes, never another option
	first=$(sed -n 1p "$T/after-$c")
	late=$(grep -cE '^ +-' "$T/after-$c")
	doc_eq "help $c: -h, --help is the last option, the notes after it" "${first}:$late" ":0"

	bad=$(grep -nE "(^|[ (])(a|an|the|A|An|The)\$|'s\$" "$T/optblock-$c")
	doc_eq "help $c: no option's line ends after an article or a possessive" "$bad" ""
	# the last line of each option (a line of the column starts one) and of the notes
	bad=$(awk -v stop="$STOPWORDS" '
		BEGIN { n = split(stop, w, /[ \n]+/); for (i = 1; i <= n; i++) s[w[i]] = 1 }
		function end(line,   k, a) {
			if (line == "") return
			k = split(line, a, / +/)
			if (a[k] in s) print line
		}
		/^options:$/ { o = 1; next }
		o && /^ {1,8}[^ ]/ { end(last) }
		o && /^$/ { end(last); o = 0; n = 1 }
		{ last = $0 }
		END { end(last) }
	' "$T/help-$c")
	doc_eq "help $c: no option's description, nor the notes, ends mid-sentence" "$bad" ""
	doc_eq "help $c: no option glued to its argument" "$(glued "$T/help-$c")" ""
done
"$GS" --help > "$T/help-main"
bad=""
for f in $(sed -n -E 's/.*man -l ([^ ,)]+).*/\1/p' "$T/help-main"); do
	[ -f "$f" ] || bad="$bad $f"
done
doc_eq "--help: the pages it points a clone to exist" "$(grep -c 'man -l' "$T/help-main"):${bad# }" "1:"
doc_eq "--help points to gridsubmit help COMMAND" "$(grep -c "gridsubmit help COMMAND" "$T/help-main")" 1
"$GS" help help > "$T/help-help"
doc_eq "help help is --help" "$(cmp -s "$T/help-help" "$T/help-main" && echo same)" same

# --- gridsubmit(1): each command's entry (COMMANDS, as test-man.sh cuts it) documents no
# option its table lacks, in its synopsis and in the tags of its option list
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\e/\\/g' -e 's/\\&//g' "$PAGE" > "$T/page"
awk -v dir="$T" '
	/^\.SH/ { sect = $0; name = ""; next }
	sect != ".SH COMMANDS" { next }
	/^\.RS/ { depth++ }
	/^\.RE/ { depth-- }
	/^\.TP/ { tag = 1; top = depth == 0; next }
	tag && top { s = $0; sub(/^\.B[IR]* "?/, "", s); split(s, w, /[ "]/); name = w[1] }
	tag && name != "" { print > (dir "/mantags-" name) }
	{ tag = 0 }
' "$T/page"
for c in $(cat "$T/commands"); do
	extra=""
	for o in $(options_in "$T/mantags-$c" 2>/dev/null); do
		grep -Fxq -- "$o" "$T/opts-$c" || grep -Fxq -- "$o" "$T/global" ||
		    extra="$extra $o"
	done
	doc_eq "$PAGE: $c's entry tags no option its table lacks" "${extra# }" ""
done

if command -v man >/dev/null 2>&1; then
	for p in man/*.[1-9]; do
		MANWIDTH=80 man --warnings -E UTF-8 -l "$p" > "$T/render" 2> "$T/warn"
		doc_eq "man --warnings -l $p: no warning" "$(cat "$T/warn")" ""
		doc_eq "man -l $p: no option glued to its argument" "$(glued "$T/render")" ""
		doc_eq "man -l $p: no word hyphenated at a line's end" \
		    "$(grep -c '‐$' "$T/render")" 0
	done
else
	skip "man -l of the pages" "man is not installed (Debian package: man-db)"
fi

# --- the README's command reference ("## Commands" to the next "## "): for each command
# its rows of the table and the paragraphs that name it in backquotes
awk '/^## Commands/ { f = 1; next } /^## / { f = 0 } f' "$README" > "$T/readme-cmds"
for c in $(cat "$T/commands"); do
	grep -E "^\| \`${c}[\` ]" "$T/readme-cmds" > "$T/readme-rows-$c"
	awk -v w="\`$c\`" 'BEGIN { RS = "" } !/^\|/ && index($0, w) { print }' \
	    "$T/readme-cmds" > "$T/readme-$c"
	cat "$T/readme-rows-$c" >> "$T/readme-$c"
	missing=""
	for o in $(cat "$T/opts-$c"); do
		# a short option is named by its long twin when it has one
		case $o in --*) ;; *) grep -q -- "^$o " "$T/twins-$c" && continue ;; esac
		mentions "$T/readme-$c" "$o" || missing="$missing $o"
	done
	doc_eq "README: the command reference names each option of $c" "${missing# }" ""
	# the row's `...` spans, but those of another command ("`run --sites`", "`top --replay`")
	grep -oE '`[^`]+`' "$T/readme-rows-$c" | tr -d '`' | sed -e 's/^gridsubmit //' |
	    awk -v c="$c" -v cmds="$(tr '\n' ' ' < "$T/commands")" '
		BEGIN { n = split(cmds, w, " "); for (i = 1; i <= n; i++) other[w[i]] = w[i] != c }
		!other[$1]' > "$T/readme-spans-$c"
	extra=""
	for o in $(options_in "$T/readme-spans-$c"); do
		grep -Fxq -- "$o" "$T/opts-$c" || grep -Fxq -- "$o" "$T/global" ||
		    extra="$extra $o"
	done
	doc_eq "README: $c's row names no option its table lacks" "${extra# }" ""
done
missing=""
for f in sites/*.yaml; do
	grep -Eq "^\| \`$f\` \|" "$README" || missing="$missing $f"
done
doc_eq "README: the list of site files has a line for each of sites/" "${missing# }" ""

# --- the README's exit codes: each row a command here produces, as the program exits
awk '/^### Exit codes/ { f = 1; next } /^#/ { f = 0 } f' "$README" |
    sed -n -E 's/^\| ([0-9]+) \|.*/\1/p' > "$T/codes"
check "README: the exit-code table is read (0, 2 and 124 among its rows)" sh -c \
    "grep -qx 0 $T/codes && grep -qx 2 $T/codes && grep -qx 124 $T/codes"
cat > "$T/bad-site.yaml" <<'EOF'
sites:
  - name: a
    nodes: [{host: n1, cpu_mhz: fast}]
EOF
printf '{"not": "an event"}\n' > "$T/noevent.jsonl"
export GRIDSUBMIT_HOME="$T/codes-home"
# code_case CODE: "why|command" lines, each of which must exit CODE
code_cases() {
	case $1 in
	0) echo "a valid site file|$GS sites check sites/localhost.yaml" ;;
	1) echo "a job that fails|$GS run -q -- /bin/false" ;;
	2) echo "top of a job that does not exist|$GS top 9999"
	   echo "status of a job that does not exist|$GS status 9999"
	   echo "an unknown option|$GS run --bogus" ;;
	3) echo "an invalid site file|$GS sites check $T/bad-site.yaml"
	   echo "a recording with no valid event|$GS top --once --replay $T/noevent.jsonl" ;;
	4) echo "more ranks than slots|$GS run -q -n 100000 -- /bin/true" ;;
	6) echo "a cancelled job|$GS wait $cancelled" ;;
	7) echo "resume of a job that is done|$GS resume $donejob" ;;
	8) echo "a job stopped at its time limit|$GS run -q --time 0:01 -- /bin/sleep 30" ;;
	124) echo "wait --timeout that runs out|$GS wait $sleeping --timeout 1" ;;
	esac
}
# the codes not produced here, with the reason
code_skip() {
	case $1 in
	5) echo "a failed launch needs a node to reach over ssh: test-multisite.sh's sshd down, test-staging.sh's full disk" ;;
	esac
}
"$GS" run -q -- /bin/true > /dev/null 2>&1
donejob=$("$GS" list --format id --state 'done' | grep -E '^ *[0-9]+ *$' | tr -d ' ')
sleeping=$("$GS" submit -- /bin/sleep 60 2>/dev/null)
cancelled=$("$GS" submit -- /bin/sleep 60 2>/dev/null)
"$GS" cancel "$cancelled" > /dev/null 2>&1
for code in $(cat "$T/codes"); do
	code_cases "$code" > "$T/cases"
	if [ ! -s "$T/cases" ]; then
		why=$(code_skip "$code")
		if [ -n "$why" ]; then
			skip "README: exit $code" "$why"
		else
			fail "README: exit $code has a case here, or a reason it has none"
		fi
		continue
	fi
	while IFS='|' read -r why cmd; do
		# shellcheck disable=SC2086 # the case's words
		$cmd > /dev/null 2>&1 < /dev/null
		doc_eq "README: exit $code, $why" "$?" "$code"
	done < "$T/cases"
done
"$GS" cancel "$sleeping" > /dev/null 2>&1

# --- the README's examples
# The examples that do not run here: a line's start, a tab, the reason.
cat > "$T/notrun" <<'EOF'
scripts/install-deps && ./configure	the quick start's build (and make check): this test runs in that build
./configure	configure and make install change the build and the system: test-configure.sh and test-install.sh (into a DESTDIR)
make uninstall	the install above is not made
mpicc prog.c	prog.c stands for a user's program: test-install.sh builds one against the installed libgrt and libgrt-smpi
smpicc prog.c	the same
id=$(gridsubmit submit -n 4 --sites sites/tiger.yaml	sites/tiger.yaml's hosts do not resolve here; a testbed's derived site file stands for it (test-multisite.sh)
gridsubmit submit big.yaml --sites sites/tiger.yaml	big.yaml is an excerpt, and sites/tiger.yaml's hosts do not resolve here (the queue: test-queue.sh)
gridsubmit status 2	the job of the line above
sudo build/gridsubmit testbed up sites/hpc.yaml	a Slurm of the testbed's own takes minutes: test-slurm.sh and test-testbed-slurm.sh run this path
sudo build/gridsubmit run examples/mandelbrot/job.yaml	the testbed of the line above
make install prefix=$HOME/.local	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
export PATH=$HOME/.local/bin	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
mkdir ~/hello	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
mpicc -o hello hello.c	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
gridsubmit run -n 2 -- ./hello	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
mkdir smpi && smpicc	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
printf 'name: hello	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
gridsubmit simulate job.yaml	the newcomer's path, which needs the install: test-install.sh runs these lines in order, cut from this README
EOF
# the command table's testbed: as root with the tools, brought up, asked and taken down
if ! need_testbed "README example: gridsubmit testbed up sites/tiger.yaml" sshd ssh-keygen tc \
    prometheus-node-exporter; then
	printf 'gridsubmit testbed \t%s\n' "no testbed here (the line above)" >> "$T/notrun"
fi
[ -x "$BUILD/examples/smpi/mandelbrot" ] || printf '%s\t%s\n' "gridsubmit simulate" \
    "SimGrid's SMPI is not installed (libsimgrid-dev): make built no SMPI program" >> "$T/notrun"
# expected: a line's start, a tab, the exit status it must give, a tab, why not 0
cat > "$T/expect" <<'EOF'
gridsubmit wait 3 4	1	jobs 3 and 4 failed (the store made for the table: their first run exits 3)
EOF

mkdir "$T/ex"
# ```sh blocks and indented blocks of commands, each one example
awk -v dir="$T/ex" '
	function flush() { if (buf != "") { n++; f = sprintf("%s/b%03d.block", dir, n); printf "%s", buf > f; close(f) } buf = "" }
	/^```/ { if (sh) { sh = 0; flush() } else if ($0 == "```sh") sh = 1; else code = !code; next }
	code { next }
	sh { buf = buf $0 "\n"; next }
	/^    (gridsubmit|build\/gridsubmit|sudo) / { sub(/^    /, ""); buf = buf $0 "\n"; next }
	{ flush() }
	END { flush() }
' "$README"
# the example column of the command table: each `...` of it; "... WORD ..." is the
# cell's first example with WORD for its first operand and what followed it
sed -n -E 's/^\| `[a-z ]+` \| (.*) \| .* \|$/\1/p' "$README" | while IFS= read -r cell; do
	printf '%s\n' "$cell" | grep -oE '`[^`]+`' | tr -d '`' | awk '
		NR == 1 { first = $0; print; next }
		/^\.\.\. / {
			split(first, w, " ")
			line = w[1] " " w[2]
			rest = ""
			for (i = 4; i <= length(w); i++) rest = rest " " w[i]
			sub(/^\.\.\. /, ""); tail = sub(/ \.\.\.$/, "")
			print line " " $0 (tail ? rest : "")
			next
		}
		{ print }'
done > "$T/rows"
i=0
while IFS= read -r e; do
	i=$((i + 1))
	printf '%s\n' "$e" > "$T/ex/r$(printf '%03d' $i).row"
done < "$T/rows"

# The directory the examples run in: the clone's parts, and the files they name.
W=$T/clone
mkdir -p "$W"
ln -s "$SRC/examples" "$SRC/sites" "$W/"
ln -s "$BUILDABS" "$W/build"
printf 'one\ntwo\nthree\n' > "$W/data.txt"
printf '#!/bin/sh\necho "prog $*"\n' > "$W/prog"
chmod +x "$W/prog"
cp "$DATA/basic.jsonl" "$W/events.jsonl"
CORES=$(nproc)

# ex_env HOME COMMAND...: COMMAND in the examples' directory with HOME as the user's home
# and no other state directory, gridsubmit the build's
ex_env() {
	eh=$1
	shift
	mkdir -p "$eh"
	(cd "$W" && env -u GRIDSUBMIT_HOME -u XDG_STATE_HOME -u XDG_CONFIG_HOME HOME="$eh" \
	    PATH="$BUILDABS:$PATH" "$@")
}

# job_ranks LINE: the most ranks LINE's run or submit asks at least (-n N, or its job
# file's ranks: N or {min: N, ...}), or nothing
job_ranks() {
	printf '%s\n' "$1" | grep -Eq 'gridsubmit (run|submit) ' || return 0
	jr_n=$(printf '%s\n' "$1" | sed -n -E 's/.*gridsubmit (run|submit) (.* )?-n ([0-9]+).*/\3/p')
	if [ -z "$jr_n" ]; then
		jr_f=$(printf '%s\n' "$1" | grep -oE '[^ ]+\.yaml' | head -n 1)
		[ -n "$jr_f" ] && [ -f "$W/$jr_f" ] && jr_n=$(sed -n -E \
		    -e 's/^ranks: *([0-9]+).*/\1/p' -e 's/^ranks: *\{ *min: *([0-9]+).*/\1/p' "$W/$jr_f")
	fi
	printf '%s\n' "$jr_n"
}

# example_line LINE: LINE as it runs here: without sudo as root; with --oversubscribe after
# run or submit when it asks more ranks than this host's cores, as the README says to
example_line() {
	el=$1
	[ "$(id -u)" -eq 0 ] && el=${el#sudo }
	el_n=$(job_ranks "$el")
	if [ -n "$el_n" ] && [ "$el_n" -gt "$CORES" ]; then
		el=$(printf '%s\n' "$el" | sed -E 's/(gridsubmit (run|submit))( |$)/\1 --oversubscribe\3/')
		echo "# $1: $el_n ranks on $CORES cores: with --oversubscribe" >&2
	fi
	printf '%s\n' "$el"
}

# tmux_run NAME HOME SCRIPT: the console's examples need a terminal: SCRIPT in a tmux
# pane; once the console is up (its key bar), q leaves it; the status is SCRIPT's
TMUX_SOCK=gs-docs-$$
at_exit "tmux -L $TMUX_SOCK kill-server"
tmux_run() {
	printf '%s\n' "$3" > "$T/tm.sh"
	rm -f "$T/tm.rc"
	ex_env "$2" tmux -L "$TMUX_SOCK" new-session -d -s "$1" -x 100 -y 30 \
	    "sh $T/tm.sh; echo \$? > $T/tm.rc"
	k=0
	while [ ! -f "$T/tm.rc" ] && [ $k -lt 600 ]; do
		if tmux -L "$TMUX_SOCK" capture-pane -p -t "$1" 2>/dev/null | grep -q 'F10Quit'; then
			tmux -L "$TMUX_SOCK" send-keys -t "$1" q
		fi
		sleep 0.2
		k=$((k + 1))
	done
	cat "$T/tm.rc" 2>/dev/null || echo timeout
}

# The command table's examples name jobs 3 and 4: a store where they exist, have failed
# (they hold no slot that the table's jobs would wait for) and, resumed, end well (jobs 1
# and 2 done; 3 and 4 "once": it fails the first time, when its mark is not there yet).
TH=$T/table-home
at_exit "cd $W && env -u GRIDSUBMIT_HOME -u XDG_STATE_HOME HOME=$TH $BUILDABS/gridsubmit testbed down sites/tiger.yaml"
printf '#!/bin/sh\n[ -e "$1" ] && exit 0\n: > "$1"\nexit 3\n' > "$W/once"
chmod +x "$W/once"
ex_env "$TH" sh -c "gridsubmit run -q -- /bin/true; gridsubmit run -q -- /bin/true;
    gridsubmit run -q -- ./once $T/mark3; gridsubmit run -q -- ./once $T/mark4" \
    > /dev/null 2>&1

nrun=0
nskip=0
# ex_result LINE GOT: the example's status against the one it must give
ex_result() {
	want=$(awk -F'\t' -v l="$1" 'index(l, $1) == 1 { print $2; exit }' "$T/expect")
	nrun=$((nrun + 1))
	check_eq "README example runs: $1" "$2" "${want:-0}"
	if [ "$2" = "${want:-0}" ]; then
		NEX=$((NEX + 1))
	else
		sed -e 's/^/#   /' "$T/ex.out" | tail -n 15
	fi
}
for f in "$T"/ex/*; do
	# the example's lines: continued lines joined, comments and blank lines left out
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$f" | grep -vE '^[[:space:]]*(#|$)' > "$T/lines"
	case $f in
	*.row) h=$TH ;;
	*) h=$T/home-$(basename "$f") ;;
	esac
	# a block's lines run in one shell (they share variables: id=$(...)), each status kept
	: > "$T/script"
	: > "$T/ran"
	while IFS= read -r line; do
		why=$(awk -F'\t' -v l="$line" 'index(l, $1) == 1 { print $2; exit }' "$T/notrun")
		if [ -n "$why" ]; then
			skip "README example: $line" "$why"
			nskip=$((nskip + 1))
			continue
		fi
		if [ "$(id -u)" -ne 0 ] && [ "${line#sudo }" != "$line" ]; then
			skip "README example: $line" "needs root"
			nskip=$((nskip + 1))
			continue
		fi
		printf '%s\n' "$line" >> "$T/ran"
		example_line "$line" >> "$T/script"
		echo "echo \$? >> $T/st" >> "$T/script"
	done < "$T/lines"
	[ -s "$T/ran" ] || continue
	: > "$T/st"
	if grep -Eq -- 'gridsubmit top( [0-9]+)?( --replay [^ ]+ --speed [0-9]+)?$|--top' "$T/ran"; then
		got=$(tmux_run "ex$nrun" "$h" "$(head -n 1 "$T/script")")
		: > "$T/ex.out"
		ex_result "$(cat "$T/ran")" "$got"
		continue
	fi
	ex_env "$h" sh "$T/script" > "$T/ex.out" 2>&1 < /dev/null
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		ex_result "$line" "$(sed -n "${n}p" "$T/st")"
	done < "$T/ran"
done
echo "# README examples: $NEX of $nrun run as documented, $nskip not run here (each with the reason); $NDOC checks of help, man and README agree"
