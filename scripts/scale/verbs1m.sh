#!/usr/bin/env bash
# verbs1m.sh times every verb once on a copy of a generated workspace and
# prints its wall time and peak RSS (issue 26: every verb at 1M ≤ 1 GiB).
#
#   bash scripts/scale/verbs1m.sh CLI SRC_STATE WORK [verbs…]
#
# CLI: the scriptorium binary; SRC_STATE: a state dir from scale/gen (read
# only: it is copied to WORK/state first unless WORK/state exists); WORK: a
# scratch folder. SRC_STATE's manifest.json must sit beside it (scale/gen
# -manifest). Each process is bounded by VERB_TIMEOUT (default 20m).
# MEASURE: a built scripts/scale/measure (built into WORK if unset), for
# update's transaction.
# Verbs: status verify search get-block get-source pending history core
# recall hook update (default: all, in that order; update last: it writes).
set -euo pipefail
cli=$1 src=$2 work=$3
shift 3
verbs=("$@")
[ ${#verbs[@]} -gt 0 ] || verbs=(verify status search get-block get-source pending history core recall hook update)
tmo=${VERB_TIMEOUT:-20m}
manifest=$(dirname "$src")/manifest.json
state=$work/state
mkdir -p "$work"
[ -d "$state" ] || cp -a "$src" "$state"
field() { python3 -c "import json,sys; m=json.load(open('$manifest')); print($1)"; }
q=$(field "m['queries'][0]")
edit=$(field "m['edit_topics'][0]")
cite=$(field "m['cites'][0]['source_id']")
block=$(grep -oE '\^[0-9a-f]{8}$' "$state/memory/$edit" | head -1)
once() { # args…: prints "wall_s peak_MiB rc"
	local rc=0 t=$work/time.txt
	/usr/bin/time -f '%e %M' -o "$t" timeout "$tmo" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
	read -r s kib <"$t" || true
	echo "$s $((kib / 1024)) $rc"
}
load() { cut -d' ' -f1 /proc/loadavg; }
echo "| verb | wall s | peak RSS MiB | exit | load |"
echo "| --- | --- | --- | --- | --- |"
for v in "${verbs[@]}"; do
	case $v in
	status) args=(status --json) ;;
	verify) args=(verify --json) ;;
	search) args=(search "$q" --json) ;;
	get-block) args=(get "$block" --json) ;;
	get-source) args=(get "$cite" --json) ;;
	pending) args=(pending --json) ;;
	history) args=(history --json) ;;
	core) args=(core --json) ;;
	recall) args=(recall "$q" --json) ;;
	hook)
		printf '{"session_id":"scale","transcript_path":"%s/none.jsonl","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"%s"}\n' \
			"$work" "$work" "$q" >"$work/prompt.json"
		r=$(once sh -c "exec \"$cli\" hook claude-code --state \"$state\" <\"$work/prompt.json\"")
		echo "| hook | ${r// / | } | $(load) |"
		continue ;;
	update)
		rev=$("$cli" --state "$state" status --json | grep -o '"revision": *[0-9]*' | head -1 | grep -o '[0-9]*$')
		if [ -z "${MEASURE:-}" ]; then
			MEASURE=$work/measure
			(cd "$(dirname "$0")/../.." && go build -o "$MEASURE" ./scripts/scale/measure)
		fi
		"$MEASURE" txn -manifest "$manifest" -revision "$rev" >"$work/txn.json"
		args=(update "$work/txn.json" --json) ;;
	*) echo "unknown verb $v" >&2; exit 2 ;;
	esac
	r=$(once "$cli" --state "$state" "${args[@]}")
	echo "| $v | ${r// / | } | $(load) |"
done
