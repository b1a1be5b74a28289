# gridsubmit.bash — bash completion of gridsubmit: commands, their options, option values
# (schemes, migration policies, site NAMEs and files, files) and operands (job files, a
# program after "--" and its args' files, job ids, actions).
# Every word comes from the program itself, `gridsubmit __complete` (submit/complete.c),
# so that what is offered is what the installed program accepts.
# Installed as $(PREFIX)/share/bash-completion/completions/gridsubmit.

# _gridsubmit_add WORD...: the words that start with $cur, added to COMPREPLY
_gridsubmit_add() {
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$*" -- "$cur")
}

# _gridsubmit_files [yaml]: file names (only *.yaml and *.yml with yaml) and directories
_gridsubmit_files() {
	compopt -o filenames 2>/dev/null
	if [[ $1 == yaml ]]; then
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur"
			compgen -f -X '!*.yaml' -- "$cur"
			compgen -f -X '!*.yml' -- "$cur")
	else
		mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
	fi
}

# _gridsubmit_kind KIND: what a value or an operand of that kind can be
_gridsubmit_kind() {
	case $1 in
	scheme) _gridsubmit_add "$("$prog" __complete schemes 2>/dev/null)" ;;
	migration) _gridsubmit_add "$("$prog" __complete migrations 2>/dev/null)" ;;
	job) _gridsubmit_add "$("$prog" __complete jobs 2>/dev/null)" ;;
	command) _gridsubmit_add "$("$prog" __complete commands 2>/dev/null)" ;;
	sites)
		_gridsubmit_add "$("$prog" __complete sites 2>/dev/null)"
		_gridsubmit_files yaml
		;;
	yaml) _gridsubmit_files yaml ;;
	file) _gridsubmit_files ;;
	program)
		# a path, or a command of PATH (mpiexec looks a bare name up there)
		if [[ $cur == */* ]]; then
			_gridsubmit_files
		else
			mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -c -- "$cur" | sort -u)
		fi
		;;
	esac
}

_gridsubmit() {
	local cur prog cmd="" ci i w kind opts operand actions want="" nops=0 endopts=0 nbefore=0
	local -A kinds=()
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prog=${COMP_WORDS[0]}
	# a program typed as ~/bin/gridsubmit: the word is as typed, unexpanded
	[[ $prog == \~/* ]] && prog=$HOME/${prog#\~/}

	# the command: the first word that is not an option of gridsubmit's own
	for ((ci = 1; ci < COMP_CWORD; ci++)); do
		if [[ ${COMP_WORDS[ci]} != -* ]]; then
			cmd=${COMP_WORDS[ci]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			opts=$("$prog" __complete options 2>/dev/null)
			_gridsubmit_add "$(cut -d' ' -f1 <<<"$opts")"
		else
			_gridsubmit_kind command
		fi
		return 0
	fi

	# OPTION KIND lines: KIND is flag, or what the option's value is
	opts=$("$prog" __complete options "$cmd" 2>/dev/null) || return 0
	while read -r w kind; do
		[[ -n $w ]] && kinds[$w]=$kind
	done <<<"$opts"

	# the words between the command and this one: options, their values, operands
	for ((i = ci + 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ -n $want ]]; then
			# --opt=VALUE comes as --opt, = and VALUE
			[[ $w == = ]] || want=""
		elif ((endopts)) || [[ $w != -* || $w == - ]]; then
			nops=$((nops + 1))
		elif [[ $w == -- ]]; then
			endopts=1
			nbefore=$nops
		elif [[ ${kinds[$w]:-flag} != flag ]]; then
			want=${kinds[$w]}
		fi
	done
	if [[ -n $want ]]; then
		[[ $cur == = ]] && cur=""
		_gridsubmit_kind "$want"
		return 0
	fi
	if ((!endopts)) && [[ $cur == -* ]]; then
		_gridsubmit_add "$(cut -d' ' -f1 <<<"$opts")"
		return 0
	fi

	# "KIND [ACTION...]"
	operand=$("$prog" __complete operand "$cmd" 2>/dev/null) || return 0
	read -r kind actions <<<"$operand"
	if [[ $kind == yaml-program ]]; then
		# a job file; after "--" its args, or without one the program, then its args
		if ((!endopts)); then
			((nops == 0)) && _gridsubmit_kind yaml
		elif ((nbefore == 0 && nops == 0)); then
			_gridsubmit_kind program
		else
			_gridsubmit_kind file
		fi
		return 0
	fi
	if [[ -n $actions ]]; then
		# the first operand is an action (experiment's may also be its file)
		if ((nops == 0)); then
			_gridsubmit_add "$actions"
			[[ $kind == yaml ]] && _gridsubmit_kind yaml
		else
			_gridsubmit_kind "$kind"
		fi
	elif ((nops == 0)); then
		_gridsubmit_kind "$kind"
	fi
	return 0
}
complete -F _gridsubmit gridsubmit
