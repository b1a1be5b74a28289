#!/bin/sh
# preflight-checks.sh DIR ADDR PORT PROXY TOKEN NAME HP HR KEY PROGRAM RANKEXEC — a node's
# checks before its proxy (preflight.c): what it prints is the node's answer; it exits 0
# only when the node may run its proxy at once: it shares our job directory DIR (reads
# back TOKEN from DIR/.shared), has PROXY, the program and gridsubmit-rank (sha256 HP
# and HR) and reaches us: it sends the connect-back's secret to ADDR:PORT and gets "ok"
# back (preflight-accept.c). The secret is never an argument: KEY is - for a line on
# stdin (the preflight's own ssh), else a file of mode 0600 in DIR (the checks in
# mpiexec's sessions, whose nodes share DIR). A node that does not share DIR gets one of
# its own, ~/.gridsubmit/jobs/NAME (stage.h); mkdir is retried because another job's
# cleanup may remove the empty parents meanwhile.
d=$1 m=$2 p=$3 x=$4 t=$5 n=$6 hp=$7 hr=$8 kf=$9; shift 9
if [ "$kf" = - ]; then IFS= read -r k || k=; else k=$(cat -- "$kf" 2>/dev/null) || k=; fi
rc=0
if [ "$(cat "$d/.shared" 2>/dev/null)" = "$t" ]; then
  echo 'S yes'
  if mkdir -p "$d/.remote" 2>/dev/null; then echo 'D ok'; else echo 'D no'; rc=1; fi
else
  rc=1 r=; case $HOME in /*) r=${HOME%/}/.gridsubmit/jobs/$n ;; esac
  for _ in 1 2 3; do
    [ -n "$r" ] || break
    (umask 077; mkdir -p "$r/.remote" "$r/bin") 2>/dev/null && break
  done
  if [ -n "$r" ] && [ -d "$r" ]; then echo "R $r"; fi
  if [ -n "$r" ] && [ -d "$r/bin" ]; then echo 'D ok'
  else echo "D no ${r:-(no HOME)}"; fi
fi
if [ -x "$x" ]; then echo 'P ok'; else echo 'P no'; rc=1; fi
w=$hp
for f in "$@"; do
  if [ -f "$f" ] && h=$(sha256sum < "$f" 2>/dev/null); then h=${h%% *}; else h=-; fi
  echo "H $h"; [ "$h" = "$w" ] || rc=1; w=$hr
done
c=${SSH_CONNECTION%% *}
if [ "$c" = "$m" ]; then echo 'M ok'
elif command -v bash >/dev/null 2>&1; then
  # bash reads the secret from the pipe (printf is built in: no argv holds it), connects
  # (exit 2 when it cannot), sends it and waits for "ok" (exit 3 without it)
  # shellcheck disable=SC2016 # bash expands them, with the address and port as $0 and $1
  printf '%s\n' "$k" | timeout 5 bash -c 'IFS= read -r k
    exec 3<>"/dev/tcp/$0/$1" || exit 2
    printf "%s\n" "$k" >&3 && IFS= read -r -t 4 a <&3 && [ "$a" = ok ] || exit 3' \
    "$m" "$p" 2>/dev/null
  case $? in
  0) echo 'M ok' ;;
  3) echo "M refused $c"; rc=1 ;;
  *) echo "M no $c"; rc=1 ;;
  esac
else echo "M unknown $c"; fi
echo END
exit $rc
