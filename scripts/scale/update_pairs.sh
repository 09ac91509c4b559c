#!/usr/bin/env bash
# Issue 26's one-file `update` compared between binaries by CPU, as
# update_cpu.sh, with the binaries' order swapped every round (the load
# drifts within a round): on ONE state dir whose index and views are
# current, ROUNDS rounds of a fresh `update` process per binary, each of
# one appended block (`measure txn -i`, a different block each time: a
# block appended twice is rejected, so UPDATE_FIRST must not repeat an
# earlier run's):
#
#   bash scripts/scale/update_pairs.sh STATE MANIFEST ROUNDS BIN...
#
# Prints per run: binary, wall s, CPU s (user+sys), peak RSS KiB, load.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
st=$1 man=$2 rounds=$3; shift 3
work=${UPDATE_WORK:-${TMPDIR:-/tmp}/scriptorium-update}
mkdir -p "$work"
(cd "$root" && go build -o "$work/measure" ./scripts/scale/measure)
i=${UPDATE_FIRST:-1000}
echo "load before: $(cat /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
	bins=("$@")
	if ((r % 2 == 0)); then mapfile -t bins < <(printf '%s\n' "$@" | tac); fi
	for b in "${bins[@]}"; do
		rev=$("$b" --state "$st" status --json | tr -d ' \n' | grep -o '"revision":[0-9]*' | sed -n 1p | grep -o '[0-9]*$')
		"$work/measure" txn -manifest "$man" -revision "$rev" -i "$i" >"$work/txn.json"
		i=$((i + 1))
		/usr/bin/time -f "$(basename "$b") %e %U %S %M" -o "$work/time.out" "$b" --state "$st" update "$work/txn.json" --json >/dev/null
		awk -v l="$(cut -d' ' -f1 /proc/loadavg)" '{printf "%s wall %.2f cpu %.2f rss %d load %s\n", $1, $2, $3+$4, $5, l}' "$work/time.out"
	done
done
echo "load after: $(cat /proc/loadavg)"
