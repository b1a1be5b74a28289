#!/bin/sh
# stage-have.sh DIR NAME... — "yes" or "no" for each NAME under DIR (a file or a
# directory), one line each in their order, then END: the stage_out files a node has.
cd "$1" || exit 3; shift
for f; do if [ -f "$f" ] || [ -d "$f" ]; then echo yes; else echo no; fi; done
echo END
