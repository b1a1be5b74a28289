#!/bin/sh
# remote-cancel.sh DIR HOST MARK TAG GRACE REMOVE — on a node, stop what a job started
# there (remote.h, remote_cancel). DIR: the job's directory there (ours, or the node's
# own, stage.h), whose .remote/HOST.pgid names the process group the launcher recorded.
#  MARK "mark": first leave .remote/HOST.stop, so that a launcher session still on its
#   way writes its pgid, sees the mark and never starts the proxy.
#  TAG empty: right after the job, when the recorded group is still the job's: kill it
#   (SIGTERM, SIGKILL a second later) and drop the record. Only a group proven the job's:
#   a number above 1, not this shell's own group, whose leader lives, is the user's, is a
#   hydra proxy and started when the file was written (it wrote the file itself, then
#   became the proxy); any other value is left alone with "gs-ignored PGID: why" on
#   stderr (a value of 1 would otherwise signal every process of the user).
#  TAG given (GRIDSUBMIT_JOB=TAG, lease.h; "-" matches no environment): any time later,
#   when a pid may be anyone's. Find the processes with the tag in their environment,
#   the hydra proxies that are their parents, and the recorded proxy while it is a hydra
#   proxy started when the file was written; SIGTERM, SIGKILL after GRACE seconds, look
#   again. Prints "gs-found PID CMD" for what it found, "gs-left PID CMD" for what it
#   could not stop, then "gs-done FOUND LEFT". Only processes in this shell's network
#   namespace: another namespace is another node.
#  REMOVE "remove": then remove DIR (only a node's own, .../.gridsubmit/jobs/NAME) and
#   its empty parents; exit 3 for another path, 4 when it cannot be removed.
d=$1 h=$2 mark=$3 t=$4 grace=$5 remove=$6
f=$d/.remote/$h.pgid
if [ "$remove" = remove ]; then
	case $d in /*/.gridsubmit/jobs/?*) ;; *) exit 3 ;; esac
fi
if [ "$mark" = mark ]; then
	: 2>/dev/null >"$d/.remote/$h.stop"
fi

gs_init() {
	hz=$(getconf CLK_TCK 2>/dev/null) || hz=100
	ns=$(readlink /proc/$$/ns/net 2>/dev/null)
	bt=$(sed -n 's/^btime //p' /proc/stat)
}

# whether the recorded leader started when the file was written (within 120 s: a node's
# clock and a shared file system's may differ); gs_stat first
gs_recent() {
	m=$(stat -c %Y "$f" 2>/dev/null) || m=0
	[ $((gs_start - m)) -le 120 ] && [ $((m - gs_start)) -le 120 ]
}

# whether $g is the job's group; gs_why says why not
gs_group_ok() {
	case $g in ''|*[!0-9]*) gs_why='not a process group id'; return 1 ;; esac
	gs_why='not a job'"'"'s group (1 and 0 stand for every process)'
	[ "$g" -gt 1 ] || return 1
	gs_stat $$ || return 1
	gs_why='this shell'"'"'s own group'
	[ "$gs_pgrp" != "$g" ] || return 1
	# the owner first: nothing more of another user's process is read
	gs_why='its leader is gone, or another user'"'"'s'
	[ -O "/proc/$g" ] || return 1
	gs_why='its leader is gone'
	gs_stat "$g" && [ "$gs_state" != Z ] || return 1
	gs_why='its leader does not lead it'
	[ "$gs_pgrp" = "$g" ] || return 1
	gs_why='its leader is not a hydra proxy'
	[ "$(cat "/proc/$g/comm" 2>/dev/null)" = hydra_pmi_proxy ] || return 1
	gs_why='its leader did not start when the file was written'
	gs_recent
}

gs_group() {
	[ -r "$f" ] || return 0
	read -r g < "$f" || g=
	if ! gs_group_ok; then
		echo "gs-ignored $g: $gs_why" | cut -c1-200 >&2
		return 0
	fi
	kill -s TERM -- "-$g" 2>/dev/null && sleep 1
	kill -s KILL -- "-$g" 2>/dev/null
	rm -f "$f"
}

gs_stat() {
	s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	s=${s##*) }
	# shellcheck disable=SC2086 # the fields of /proc/PID/stat, split on purpose
	set -- $s
	gs_state=$1 gs_ppid=$2 gs_pgrp=$3
	shift 19
	gs_start=$((bt + $1 / hz))
}

gs_proxy() {
	gs_stat "$1" && [ "$gs_state" != Z ] &&
	    [ "$(cat "/proc/$1/comm" 2>/dev/null)" = hydra_pmi_proxy ]
}

gs_find() {
	# shellcheck disable=SC2013 # /proc paths: one a word
	for e in $(grep -lzxF -e "GRIDSUBMIT_JOB=$t" /proc/[0-9]*/environ 2>/dev/null); do
		p=${e#/proc/}
		p=${p%/environ}
		[ -O "/proc/$p" ] || continue
		gs_stat "$p" || continue
		[ "$(readlink "/proc/$p/ns/net" 2>/dev/null)" = "$ns" ] || continue
		[ "$gs_state" = Z ] && continue
		echo "$p"
		q=$gs_ppid
		gs_proxy "$q" && echo "$q"
	done
	if [ -r "$f" ] && read -r g < "$f"; then
		case $g in
		''|*[!0-9]*) ;;
		*)	[ -O "/proc/$g" ] && gs_proxy "$g" && gs_recent && echo "$g" ;;
		esac
	fi
}

gs_show() {
	l=$1
	shift
	for p; do
		echo "$l $p $(tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | cut -c1-100)"
	done
}

gs_tagged() {
	# shellcheck disable=SC2046 # one pid a word
	set -- $(gs_find | sort -un)
	n0=$#
	gs_show gs-found "$@"
	if [ $# -gt 0 ]; then
		kill -TERM "$@" 2>/dev/null
		i=0
		while [ $i -lt $((grace * 5)) ]; do
			sleep 0.2
			# shellcheck disable=SC2046
			set -- $(gs_find | sort -un)
			[ $# -eq 0 ] && break
			i=$((i + 1))
		done
		i=0
		while [ $# -gt 0 ] && [ $i -lt 10 ]; do
			kill -KILL "$@" 2>/dev/null
			sleep 0.2
			# shellcheck disable=SC2046
			set -- $(gs_find | sort -un)
			i=$((i + 1))
		done
	fi
	gs_show gs-left "$@"
	echo "gs-done $n0 $#"
}

gs_init
if [ -z "$t" ]; then
	gs_group
else
	gs_tagged
fi
if [ "$remove" = remove ]; then
	rm -rf -- "$d" || exit 4
	rmdir -- "${d%/*}" "${d%/*/*}" 2>/dev/null
fi
exit 0
