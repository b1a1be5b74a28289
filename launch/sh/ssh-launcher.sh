#!/bin/sh
# ssh-launcher.sh — the body of DIR/ssh-launcher, hydra's -launcher-exec (launch-ssh.c
# writes the file: a prologue that sets gs_dir (the job directory DIR), gs_dirs
# (DIR/remote-dirs), gs_checks (the checks' command, or empty), gs_srun_exec (how srun
# starts), gs_srun_error (its status when Slurm could not start the step), gs_srun (srun's
# options for a step on one node), gs_ssh (ssh with the job's config and the options of
# remote.c) and gs_route (HOST: gs_login and gs_job of its Slurm allocation, or gs_login
# empty), then this). hydra runs it as
#	ssh-launcher [-x] [user@]host "PROXY" ARGS...
# (the proxy's path in double quotes, for a remote shell to strip).
# shellcheck disable=SC2154 # gs_dir, gs_dirs, gs_checks, gs_srun*, gs_login, gs_job: prologue
set -f
# mpiexec's descriptors, inherited: its listening control socket (fd 5) among them. Held
# here after mpiexec's death, it would let a proxy that starts late connect into a backlog
# no one accepts and wait there forever, keeping its ssh and this script alive
# (doc/architecture.md, "Called off"). mpiexec starts with 0-2 only (launch-proc.c), so its
# own are below 10; the shell's own are 10 and above.
exec 3<&- 4<&- 5<&- 6<&- 7<&- 8<&- 9<&-
gs_quote() {
	gs_s=$1 gs_r=
	while :; do
		case $gs_s in
		*"'"*) gs_r="$gs_r${gs_s%%"'"*}'\\''"; gs_s=${gs_s#*"'"} ;;
		*) break ;;
		esac
	done
	gs_q="'$gs_r$gs_s'"
}
gs_fail() {
	echo "gridsubmit: $1; stopping mpiexec" >&2
	# only while it is our parent: once mpiexec is gone, its pid is anyone's
	gs_pp=$(ps -o ppid= -p $$ 2>/dev/null)
	[ "${gs_pp##* }" != "$PPID" ] || kill -TERM "$PPID" 2>/dev/null
	exit 255
}
gs_user=
while [ $# -gt 0 ]; do
	case $1 in
	-x|-X|-q) shift ;;
	-l) [ $# -ge 2 ] || gs_fail 'ssh-launcher: -l without a user'; gs_user=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || gs_fail 'ssh-launcher: no host'
gs_host=$1
shift
case $gs_host in *@*) gs_user=${gs_host%%@*}; gs_host=${gs_host#*@} ;; esac
case $gs_host in
''|-*|.*|*[!A-Za-z0-9.-]*) gs_fail 'ssh-launcher: invalid host name' ;;
esac
case $gs_user in
-*|*[!A-Za-z0-9._-]*) gs_fail 'ssh-launcher: invalid user name' ;;
esac
# the job's directory there: its own one when it does not share ours (stage.h)
gs_rdir=$gs_dir
if [ -r "$gs_dirs" ]; then
	while read -r gs_h gs_d _; do
		[ "$gs_h" = "$gs_host" ] && gs_rdir=$gs_d
	done < "$gs_dirs"
fi
# the process group first, then the cleanup's stop mark: a session that starts
# after the cleanup looked (cancel) never runs the proxy (remote_cancel)
gs_quote "$gs_rdir/.remote/$gs_host.pgid"
gs_cmd="echo \$\$ 2>/dev/null >$gs_q || exit 1;"
gs_quote "$gs_rdir/.remote/$gs_host.stop"
gs_cmd="$gs_cmd [ ! -e $gs_q ] || exit 1;"
if [ -n "$gs_checks" ]; then
	# the checks first: the proxy starts only when they pass
	gs_quote "$gs_rdir/.remote/$gs_host.preflight"
	gs_cmd="$gs_cmd $gs_checks >$gs_q || exit 1;"
fi
gs_cmd="$gs_cmd exec"
for gs_w; do
	case $gs_w in \"*\") gs_w=${gs_w#\"}; gs_w=${gs_w%\"} ;; esac
	gs_quote "$gs_w"
	gs_cmd="$gs_cmd $gs_q"
done
# a node of a Slurm allocation: a step of its job, started by srun on its login host
gs_route "$gs_host"
gs_target=$gs_host
if [ -n "$gs_login" ]; then
	gs_quote "$gs_cmd"
	gs_cmd="$gs_srun_exec --jobid=$gs_job $gs_srun --nodelist=$gs_host -- sh -c $gs_q"
	gs_target=$gs_login gs_user=
fi
gs_ssh ${gs_user:+-l "$gs_user"} -- "$gs_target" "$gs_cmd"
gs_rc=$?
if [ -n "$gs_checks" ]; then
	echo "$gs_rc" >"$gs_dir/.remote/$gs_host.ended"
fi
[ $gs_rc -ne 255 ] || gs_fail "ssh to $gs_target failed"
# Slurm could not start the proxy (the allocation ended): it will never connect
[ -z "$gs_login" ] || [ $gs_rc -ne "$gs_srun_error" ] ||
	gs_fail "srun on $gs_login could not start a step of Slurm job $gs_job on $gs_host"
exit $gs_rc
