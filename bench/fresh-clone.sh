#!/usr/bin/env bash
# `bash bench/fresh-clone.sh <out> <commit-a> <commit-b> <pairs>`: `npm test` as a fresh clone runs it, the two
# commits alternating, one line each to <out> and stdout (bench/README.md, "npm test"). Each run is a new
# clone of this repository at the commit, this checkout's node_modules copied without its caches (tsc's
# tsbuildinfo, knip's cache, the build stamp, vitest's module cache, and vitest's results cache, which orders
# the files by their last durations and which no fresh clone has), the build (`npm install`'s prepare step),
# then `npm test`, timed. Copying node_modules stands in for `npm ci` (~2 min here) and installs the same
# lockfile's packages only if both commits share it. `gauge` is the machine's speed just before each run: the
# mean wall time of ten `node -e 0` in an empty environment (this sandbox's NODE_EXTRA_CA_CERTS alone adds
# ~39 ms to every Node start), which moves with the hour here as `npm test` does.
set -uo pipefail
out=$1 a=$2 b=$3 pairs=$4
repo=$(cd "$(dirname "$0")/.." && pwd)
: >"$out"
for _ in $(seq 1 "$pairs"); do
  for commit in "$a" "$b"; do
    dir=$(mktemp -d)
    git clone -q "$repo" "$dir" && git -C "$dir" checkout -q "$commit"
    (cd "$repo" && tar --exclude=./node_modules/.cache --exclude=./node_modules/.experimental-vitest-cache \
      --exclude=./node_modules/.vite -cf - ./node_modules) | tar -xf - -C "$dir"
    (cd "$dir" && node build/build-if-stale.mjs >/dev/null 2>&1)
    gauge_start=$(date +%s%N)
    for _ in $(seq 1 10); do env -i PATH="$PATH" node -e 0; done
    gauge=$((($(date +%s%N) - gauge_start) / 10000000))
    start=$(date +%s.%N)
    (cd "$dir" && npm test >"$dir.log" 2>&1)
    code=$?
    end=$(date +%s.%N)
    vitest=$(sed 's/\x1b\[[0-9;]*m//g' "$dir.log" | awk '/^ +Duration/ { print $2 }')
    echo "$(date -u +%H:%M:%S) $commit exit=$code wall=$(echo "$end - $start" | bc)s vitest=$vitest gauge=${gauge}ms" | tee -a "$out"
    rm -rf "$dir" "$dir.log"
  done
done
