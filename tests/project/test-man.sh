#!/bin/sh
# test-man.sh — the manual says everything the program takes: gridsubmit(1) has an entry for
# every command, and that entry names every option of the command's getopt table (as the
# program lists them, gridsubmit __complete options); its CONSOLE KEYS name every key of the
# console's help screen (F1: the key table of tui/keymap.c); and every page renders without
# a warning (groff -ww through preconv, as man does; mandoc -T lint where installed).
. tests/lib.sh

PAGE=man/gridsubmit.1

# plain PAGE: the page's source with the escapes a name is written with undone
plain() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\e/\\/g' -e 's/\\&//g' "$1"
}
plain "$PAGE" > "$T/page"

# every entry of COMMANDS (a .TP outside the option lists, .RS to .RE) into $T/cmd-NAME,
# NAME the first word of its tag ("sites check FILE..." is sites'); the CONSOLE KEYS'
# tags into $T/keys
awk -v dir="$T" '
	/^\.SH/ { sect = $0; name = ""; next }
	sect == ".SH COMMANDS" && /^\.RS/ { depth++ }
	sect == ".SH COMMANDS" && /^\.RE/ { depth-- }
	sect == ".SH COMMANDS" && /^\.TP/ && depth == 0 { tag = 1; next }
	tag && sect == ".SH COMMANDS" {
		s = $0
		sub(/^\.B[IR]* "?/, "", s)
		split(s, w, /[ "]/)
		name = w[1]
		tag = 0
	}
	name != "" { print > (dir "/cmd-" name) }
	sect == ".SH CONSOLE KEYS" && /^\.TP/ { tag = 1; next }
	tag && sect == ".SH CONSOLE KEYS" { print > (dir "/keys"); tag = 0 }
' "$T/page"

# mentions FILE OPTION: FILE names OPTION as a word ("--speed" is not "--speeds")
mentions() {
	grep -Eq -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"
}

for c in $("$GS" __complete commands); do
	[ "$c" = help ] && continue
	if [ ! -f "$T/cmd-$c" ]; then
		fail "$PAGE: an entry for $c"
		continue
	fi
	pass "$PAGE: an entry for $c"
	missing=""
	n=0
	for o in $("$GS" __complete options "$c" | cut -d' ' -f1); do
		case $o in -h | --help) continue ;; esac
		n=$((n + 1))
		mentions "$T/cmd-$c" "$o" || missing="$missing $o"
	done
	check_eq "$PAGE: $c's entry names each of its $n options" "${missing# }" ""
done
missing=""
for o in $("$GS" __complete options | cut -d' ' -f1); do
	mentions "$T/page" "$o" || missing="$missing $o"
done
check_eq "$PAGE: gridsubmit's own options, and every command's -h, --help" "${missing# }" ""

# a check of the check: an option the page does not name is found missing
printf '%s\n' '.B \-\-speeds' > "$T/probe.1"
plain "$T/probe.1" > "$T/probe"
if mentions "$T/probe" --speed || ! mentions "$T/probe" --speeds; then
	fail "the option match takes whole names only"
else
	pass "the option match takes whole names only"
fi

# --- the console's keys: the key column of the one key table, which the help screen shows
# (tui/keymap.c, { { codes }, "KEYS", "what they do", ... } a line; C escapes undone)
keys=$(sed -n -e 's/^[[:space:]]*{ { [^}]* }, "\(\([^"\\]\|\\.\)*\)", ".*/\1/p' tui/keymap.c |
	sed -e 's/\\\(.\)/\1/g' | tr ' ' '\n' | sed -e '/^$/d')
sed -e "s/, / /g" -e "s/[()]/ /g" "$T/keys" | tr " " "\n" | sed -e "/^$/d" | sort -u > "$T/manual-keys"
# shellcheck disable=SC2016 # the script's own $1 and $k
check "the help screen's table is read (F1, F4's \\, Enter, Ctrl-L, F10 among its keys)" sh -c \
	'for k in F1 "\\" Enter Ctrl-L F10; do printf "%s\n" "$1" | grep -Fxq -- "$k" || exit 1; done' \
	sh "$keys"
missing=""
n=0
# keys such as ? are words here, not patterns
set -f
for k in $keys; do
	n=$((n + 1))
	grep -Fxq -- "$k" "$T/manual-keys" || missing="$missing $k"
done
set +f
check_eq "$PAGE: CONSOLE KEYS names the $n keys of the help screen" "${missing# }" ""

# --- every page renders without a warning
if command -v groff >/dev/null 2>&1; then
	for p in man/*.[1-9]; do
		out=$(groff -k -man -ww -z "$p" 2>&1)
		check_eq "groff -ww: $p renders without a warning" "$out" ""
	done
else
	skip "groff -ww of the pages" "groff is not installed (Debian package: groff-base)"
fi
if command -v mandoc >/dev/null 2>&1; then
	for p in man/*.[1-9]; do
		check "mandoc -T lint: $p" mandoc -T lint -W warning "$p"
	done
fi
