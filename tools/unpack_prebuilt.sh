#!/usr/bin/env bash
# Unpacks what tools/pack_prebuilt.sh packed into DIR (on the GPU machine): every *.xz (xz, or
# Python's lzma where xz is missing) and *.gz beside itself, then marks the binaries executable.
#   tools/unpack_prebuilt.sh build-probe/x
set -euo pipefail
dir=${1:?usage: tools/unpack_prebuilt.sh DIR}
while IFS= read -r -d '' f; do
  if command -v xz >/dev/null; then
    xz -d -f "$f"
  else
    python3 -c "import lzma, os, sys; open(sys.argv[1][:-3], 'wb').write(lzma.open(sys.argv[1]).read()); os.remove(sys.argv[1])" "$f"
  fi
done < <(find "$dir" -name '*.xz' -print0)
find "$dir" -name '*.gz' -exec gunzip -f {} +
find "$dir" -type f -path '*/*/*' -exec chmod +x {} +
