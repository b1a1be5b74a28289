#!/bin/sh
# stage-hash.sh DIR FILE... — the sha256 of each FILE under DIR, one line each in their
# order ("-" for one that cannot be read), then END (stage.c: what arrived is what was
# sent). A directory's is the sha256 of its files' sorted "sha256  ./path" lines.
cd "$1" || exit 3; shift
for f; do
  if [ -d "$f" ]; then
    h=$(cd "$f" && find -L . -type f -exec sha256sum {} + | LC_ALL=C sort |
      sha256sum)
  elif ! h=$(sha256sum < "$f" 2>/dev/null); then
    h=-
  fi
  echo "${h%% *}"
done
echo END
