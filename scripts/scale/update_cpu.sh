#!/usr/bin/env bash
# Issue 26's one-file `update` compared between binaries by CPU, which the
# load moves less than wall time: on ONE state dir whose index and derived
# views are current (one `update` already run after the first `search`),
# each binary in turn runs a fresh `update` process of one appended block
# (a different block each time, `measure txn -i`), for ROUNDS rounds:
#
#   bash scripts/scale/update_cpu.sh STATE ROUNDS BIN...   # [N] records: UPDATE_N (100000)
#
# Prints per run: binary, wall s, CPU s (user+sys), peak RSS KiB. Copying a
# state dir changes every file's ctime and inode, so a copy's first update
# re-indexes everything: prepare STATE once, then reuse it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
st=$1 rounds=$2; shift 2
n=${UPDATE_N:-100000}
cache=${SCALE_CACHE:-${TMPDIR:-/tmp}/scriptorium-bench}
work=${UPDATE_WORK:-${TMPDIR:-/tmp}/scriptorium-update}
mkdir -p "$work"
(cd "$root" && go build -o "$work/measure" ./scripts/scale/measure && go build -o "$work/gen" ./scale/gen)
man=$cache/gen$("$work/gen" -version)-n$n/manifest.json
i=${UPDATE_FIRST:-1000}
echo "load before: $(uptime | sed 's/.*load average: //')"
for _ in $(seq 1 "$rounds"); do
	for b in "$@"; do
		rev=$("$b" --state "$st" status --json | tr -d ' \n' | grep -o '"revision":[0-9]*' | sed -n 1p | grep -o '[0-9]*$')
		"$work/measure" txn -manifest "$man" -revision "$rev" -i "$i" >"$work/txn.json"
		i=$((i + 1))
		/usr/bin/time -f "$(basename "$b") %e %U %S %M" -o "$work/time.out" "$b" --state "$st" update "$work/txn.json" --json >/dev/null
		awk '{printf "%s wall %.2f cpu %.2f rss %d\n", $1, $2, $3+$4, $5}' "$work/time.out"
	done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
