#!/usr/bin/env bash
# Issue 26's "one-file `update` incl. index and views, 100k ≤ 2% of a full
# build", whole process, one binary after another in one run:
#
#   bash scripts/scale/update_ratio.sh [N] BIN...    # N records (default 100000)
#
# For each binary: a fresh copy of the cached scale workspace
# ($SCALE_CACHE/gen<version>-n<N>, made by scripts/scale/run.sh or the Go
# benchmarks), one `verify` (the first open, untimed here), then the first
# `search` (the full index build) and $UPDATE_RUNS one-block `update`s
# (each a different block, `measure txn -i`), each timed as a whole
# process (wall s / peak RSS MiB). The ratio is the updates' p50 ÷ the build.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=100000
if [[ ${1:-} =~ ^[0-9]+$ ]]; then n=$1; shift; fi
runs=${UPDATE_RUNS:-3}
cache=${SCALE_CACHE:-${TMPDIR:-/tmp}/scriptorium-bench}
work=${UPDATE_WORK:-${TMPDIR:-/tmp}/scriptorium-update}
mkdir -p "$work"
(cd "$root" && go build -o "$work/measure" ./scripts/scale/measure && go build -o "$work/gen" ./scale/gen)
m=$work/measure
dir=$cache/gen$("$work/gen" -version)-n$n
[ -f "$dir/manifest.json" ] || { echo "no cached workspace at $dir: run scripts/scale/run.sh $n first" >&2; exit 1; }
mapfile -t queries < <("$m" manifest -manifest "$dir/manifest.json" queries)
q=${queries[0]}
echo "load before: $(uptime | sed 's/.*load average: //')"
echo "| binary | full build (first search) | one-file update p50 (runs) | update ÷ build |"
echo "| --- | --- | --- | --- |"
for bin in "$@"; do
	state=$work/state
	rm -rf "$state" && cp -a "$dir/state" "$state"
	"$bin" --state "$state" verify --json >/dev/null || true
	read -r b_s b_rss <<<"$("$m" once -timeout 30m -- "$bin" --state "$state" search "$q" --json)"
	us=()
	for i in $(seq 1 "$runs"); do
		rev=$("$bin" --state "$state" status --json | tr -d ' \n' | grep -o '"revision":[0-9]*' | sed -n 1p | grep -o '[0-9]*$')
		"$m" txn -manifest "$dir/manifest.json" -revision "$rev" -i "$i" >"$work/txn.json"
		read -r u_s u_rss <<<"$("$m" once -timeout 30m -- "$bin" --state "$state" update "$work/txn.json" --json)"
		us+=("$u_s")
	done
	p50=$(printf '%s\n' "${us[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "| $(basename "$bin") | $b_s s / $b_rss MiB | $p50 s (${us[*]}) | $(awk -v u="$p50" -v b="$b_s" 'BEGIN { printf "%.1f%%", 100*u/b }') |"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
