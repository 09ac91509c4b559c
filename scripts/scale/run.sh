#!/usr/bin/env bash
# The whole-process scale measurement of issue 14: the real CLI binary, one
# process per command, on generated workspaces, timed side by side with
# grep and reported as a Markdown table (stdout, and $SCALE_WORK/results.md).
#
#   bash scripts/scale/run.sh                 # 10k and 100k records, then the writer scenario
#   SCALE_1M=1 bash scripts/scale/run.sh      # 1M records too (slow: the first index build)
#   bash scripts/scale/run.sh 10000           # only these sizes
#
# For each size it
#   1. generates the workspace with scale/gen, or reuses the cache in
#      $SCALE_CACHE/gen<version>-n<N>/ (the same cache as the Go benchmarks:
#      state/ + manifest.json), and copies it to a fresh work dir;
#   2. warms it: one `verify` (the first open) and one `search` (builds the
#      index), both timed;
#   3. times warm `scriptorium --state D search "<query>" --json` against
#      `grep -rlF <the query's longest word> D/memory/topics D/memory/sources`
#      (LC_ALL=C), interleaved: one untimed run of each, then $SCALE_RUNS of
#      each alternately; p50/p95 are nearest-rank, x = search p50 / grep p50;
#   4. times the prompt path (issue 26) the same way: `recall "<query>"
#      --json` and the Claude Code hook's UserPromptSubmit (`hook
#      claude-code`, the event on stdin), the same through the small hook
#      client `scriptorium-hook claude-code`, against `grep -rliF <the query's
#      rarest word>` (the word in the fewest files), each alone and then with
#      a resident `daemon` of the workspace serving the local socket;
#   5. runs every read verb $SCALE_VERB_RUNS times (p50 wall, peak RSS of
#      any run), then one `update` appending one cited block.
# Then the writer scenario: import the generated long history (6,000 turns
# in 270 sessions) into a fresh state dir and time `write --force` (the
# built-in offline model).
#
# Peak RSS is the process's ru_maxrss (scripts/scale/measure). Every run is
# bounded: a search or grep over $SCALE_TIMEOUT is killed, a warm-up or the
# writer over $SCALE_LONG_TIMEOUT. The machine's load is printed before and
# after: on a shared machine read the ratios, not the absolute times.
#
# Environment (defaults):
#   SCALE_RUNS=10  SCALE_VERB_RUNS=3  SCALE_QUERIES="0 3 4 5 6" (indices into the manifest's queries)
#   SCALE_RECALL="0 3 4" (the queries asked as prompts; "" skips the prompt path)
#   SCALE_CACHE=${TMPDIR:-/tmp}/scriptorium-bench  SCALE_WORK=${TMPDIR:-/tmp}/scriptorium-scale
#   SCALE_WRITER=1 (0 skips the writer scenario)  SCALE_HISTORY="270 6000" (sessions, turns)
#   SCALE_TIMEOUT=2m  SCALE_LONG_TIMEOUT=20m
#   SCALE_REUSE=1 measures a size's work dir warmed by an earlier run as it is
#   (no copy, no warm-up; the earlier warm-up's figures are reported)
#   SCALE_BASE_CLI=PATH times a second build (say main's) beside this one in
#   the same run: each search and prompt-path row is measured for both
#   (alone only: the resident daemon is this build's), the base's rows
#   marked "(base)"
#   SCALE_VERBS=0 skips the verbs and the update
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${SCALE_RUNS:-10}
verb_runs=${SCALE_VERB_RUNS:-3}
queries_at=${SCALE_QUERIES:-0 3 4 5 6}
recall_at=${SCALE_RECALL-0 3 4}
cache=${SCALE_CACHE:-${TMPDIR:-/tmp}/scriptorium-bench}
work=${SCALE_WORK:-${TMPDIR:-/tmp}/scriptorium-scale}
timeout=${SCALE_TIMEOUT:-2m}
long=${SCALE_LONG_TIMEOUT:-20m}
read -r hist_sessions hist_turns <<<"${SCALE_HISTORY:-270 6000}"
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(10000 100000); fi
if [ "${SCALE_1M:-0}" = 1 ] && [ $# -eq 0 ]; then sizes+=(1000000); fi

log() { echo "scale: $*" >&2; }
mkdir -p "$work/bin" "$cache"
bin=$work/bin
log "building into $bin"
(cd "$root" && go build -o "$bin/scriptorium" . && go build -o "$bin/scriptorium-hook" ./cmd/scriptorium-hook &&
	go build -o "$bin/gen" ./scale/gen &&
	go build -o "$bin/measure" ./scripts/scale/measure)
cli=$bin/scriptorium
m=$bin/measure
base_cli=${SCALE_BASE_CLI:-}
if [ -n "$base_cli" ]; then base_cli=$(cd "$(dirname "$base_cli")" && pwd)/$(basename "$base_cli"); fi
# What each search and prompt-path row times: this build, and the base
# build when one is given (its rows marked).
build_bins=("$cli") build_marks=("")
if [ -n "$base_cli" ]; then build_bins+=("$base_cli") build_marks+=("(base)"); fi
version=$("$bin/gen" -version)

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain 2>/dev/null)" ]; then commit="$commit (with uncommitted changes)"; fi
load_before=$(uptime | sed 's/.*load average: //')
started=$(date -u +'%Y-%m-%d %H:%M UTC')

# Tables are collected in files and printed at the end.
t_ws=$work/t_ws.md t_search=$work/t_search.md t_verbs=$work/t_verbs.md t_writer=$work/t_writer.md
t_recall=$work/t_recall.md t_server=$work/t_server.md
: >"$t_server"
: >"$t_ws" && : >"$t_search" && : >"$t_verbs" && : >"$t_writer" && : >"$t_recall"

# longest prints the longest word (in bytes) of a query: grep's needle.
longest() {
	local best="" w
	for w in $1; do
		if [ "$(printf %s "$w" | wc -c)" -gt "$(printf %s "$best" | wc -c)" ]; then best=$w; fi
	done
	printf %s "$best"
}
# once runs a command once under measure: "<wall s> <peak RSS MiB>"; a
# failure (or a kill at the timeout) stops the script.
once() { "$m" once -timeout "$long" -- "$@"; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
# verdict prints "yes"/"no" for value <= limit.
verdict() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "yes" : "**no**" }'; }

# pair times warm search against grep for one query on the workspace of
# the current size ($label, $n, $state): pair NAME WORD SEARCH-ARGS… ::: GREP-DIRS…
pair() { # label query-args… ::: grep-dirs…
	local name=$1 word=$2
	shift 2
	local args=() dirs=()
	while [ "$1" != ":::" ]; do args+=("$1") && shift; done
	shift
	dirs=("$@")
	local r mark bin_ b
	for b in "${!build_bins[@]}"; do
		mark=${build_marks[$b]} bin_=${build_bins[$b]}
		log "$label: search $name $mark vs grep -rlF $word ($runs runs each)"
		r=$("$m" pair -runs "$runs" -timeout "$timeout" -base-ok 0,1 -- \
			"$bin_" --state "$state" search "${args[@]}" --json ::: grep -rlF -- "$word" "${dirs[@]}")
		read -r p50 p95 g50 g95 x rss files _ <<<"$r"
		local target="—" rss_target="—"
		if [ "$n" -eq 100000 ]; then target="≤ 1.0: $(verdict "$x" 1.0)" rss_target="≤ 100: $(verdict "$rss" 100)"; fi
		if [ "$n" -eq 1000000 ]; then target="≤ 0.1: $(verdict "$x" 0.1)" rss_target="≤ 1024: $(verdict "$rss" 1024)"; fi
		echo "| $label | $name${mark:+ $mark} | \`$word\` | $p50 | $p95 | $g50 | $g95 | **$x** ($target) | $rss ($rss_target) | $files |" >>"$t_search"
	done
}
# rarest prints the word of a query found in the fewest files under the
# dirs (case-insensitive, as the prompt path's grep baseline searches).
rarest() { # query dirs…
	local q=$1 best="" bestn=-1 w c
	shift
	for w in $q; do
		c=$(grep -rliF -- "$w" "$@" | wc -l || true)
		if [ "$bestn" -lt 0 ] || [ "$c" -lt "$bestn" ]; then best=$w bestn=$c; fi
	done
	printf %s "$best"
}
# ppair times one prompt-path command against grep -rliF of the rarest
# word: ppair MODE NAME WORD [-stdin FILE] -- CMD… (CMD's first word "@cli"
# is each build in turn).
ppair() {
	local mark bin_ b args_=()
	local head_=("$@")
	for b in "${!build_bins[@]}"; do
		mark=${build_marks[$b]} bin_=${build_bins[$b]}
		# The daemon is this build's: another build's client is not served
		# by it (the socket serves the same binary only).
		if [ -n "$mark" ] && [ "$1" = resident ]; then continue; fi
		args_=()
		local a
		for a in "${head_[@]}"; do
			if [ "$a" = "@cli" ]; then a=$bin_; fi
			args_+=("$a")
		done
		ppair1 "$mark" "${args_[@]}"
	done
}
ppair1() {
	local mark=$1
	shift
	local mode=$1 name=$2 word=$3
	shift 3
	local opts=()
	while [ "$1" != "--" ]; do opts+=("$1") && shift; done
	shift
	log "$label: $name ($mode) vs grep -rliF $word ($runs runs each)"
	local r target="—" rss_target="—" d0 d1 t0 t1
	d0=$(daemon_cpu) t0=$(date +%s%N)
	r=$("$m" pair -runs "$runs" -timeout "$timeout" -base-ok 0,1 "${opts[@]}" -- "$@" ::: \
		grep -rliF -- "$word" "$state/memory/topics" "$state/memory/sources")
	d1=$(daemon_cpu) t1=$(date +%s%N)
	read -r p50 p95 g50 g95 x rss files cpu gcpu cx <<<"$r"
	if [ "$mode" = resident ]; then
		# The server's share of the answer: the daemon's CPU over the pair
		# (one warm-up and $runs answers), less its idle rate over the same
		# time, per answer; with the client's CPU, the whole cost of a
		# served prompt against grep's.
		awk -v d="$((d1 - d0))" -v ms="$(((t1 - t0) / 1000000))" -v idle="$daemon_idle" -v n="$((runs + 1))" \
			-v c="$cpu" -v g="$gcpu" -v lbl="$label" -v nm="$name" 'BEGIN {
			s = (d - idle * ms) / n; if (s < 0) s = 0
			printf "| %s | %s | %.1f | %.1f | %.1f | %.1f / %.1f = %.2f |\n", lbl, nm, s, c, s + c, s + c, g, (s + c) / g }' >>"$t_server"
	fi
	if [ "$n" -eq 100000 ] && [ "$mode" = alone ]; then target="≤ 1.0: $(verdict "$x" 1.0)" rss_target="≤ 100: $(verdict "$rss" 100)"; fi
	if [ "$n" -eq 100000 ] && [ "$mode" = resident ]; then target="≤ 0.3: $(verdict "$x" 0.3)"; fi
	echo "| $label | $name${mark:+ $mark} | $mode | \`$word\` | $p50 | $p95 | $g50 | $g95 | **$x** ($target) | $cpu / $gcpu = $cx | $rss ($rss_target) | $files |" >>"$t_recall"
}
# daemon_cpu is the resident daemon's CPU time so far in ms (0 without one).
daemon_cpu() {
	if [ -z "${daemon_pid:-}" ]; then echo 0 && return; fi
	awk '{ printf "%d\n", ($14 + $15) * 10 }' "/proc/$daemon_pid/stat" 2>/dev/null || echo 0
}
# prompt_path times recall and the hook for the queries $recall_at (mode:
# alone, or resident while a daemon serves the socket).
prompt_path() { # mode
	local mode=$1 i q w ev
	for i in $recall_at; do
		q=${queries[$i]}
		w=$(rarest "$q" "$state/memory/topics" "$state/memory/sources")
		ev=$work/n$n/prompt-$i.json
		printf '{"session_id":"scale","transcript_path":"%s/none.jsonl","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"%s"}\n' \
			"$work" "$work" "$q" >"$ev"
		# A hook that gave up prints nothing and still exits 0: check that
		# it answers before timing it.
		if ! "$cli" hook claude-code --state "$state" <"$ev" | grep -q additionalContext; then
			echo "| $label | \`$q\` (hook) | $mode | — | no context: the hook gave up or found nothing | — | — | — | — | — | — | — |" >>"$t_recall"
		else
			ppair "$mode" "\`$q\` (hook)" "$w" -stdin "$ev" -- @cli hook claude-code --state "$state"
		fi
		# The small hook client (cmd/scriptorium-hook, beside the CLI):
		# served, its own start and the server's answer; alone, it execs
		# the CLI.
		if ! "$bin/scriptorium-hook" claude-code --state "$state" <"$ev" | grep -q additionalContext; then
			echo "| $label | \`$q\` (hook client) | $mode | — | no context: the hook gave up or found nothing | — | — | — | — | — | — | — |" >>"$t_recall"
		else
			ppair "$mode" "\`$q\` (hook client)" "$w" -stdin "$ev" -- "$bin/scriptorium-hook" claude-code --state "$state"
		fi
		ppair "$mode" "\`$q\` (recall)" "$w" -- @cli --state "$state" recall "$q" --json
	done
}
# verb runs one CLI verb $verb_runs times: verb NAME ARGS…
verb() { # name args…
	local name=$1 walls=() s rss peak=0
	shift
	log "$label: $name (runs: $verb_runs)"
	for _ in $(seq "$verb_runs"); do
		r=$(once "$cli" --state "$state" "$@"); read -r s rss <<<"$r"
		walls+=("$s") && peak=$((rss > peak ? rss : peak))
	done
	local p50
	p50=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	local target="—"
	if [ "$n" -eq 1000000 ]; then target="≤ 1024: $(verdict "$peak" 1024)"; fi
	if [ "$n" -eq 100000 ] && [ "$name" = search ]; then target="≤ 100: $(verdict "$peak" 100)"; fi
	echo "| $label | \`$name\` | $p50 | $peak ($target) |" >>"$t_verbs"
}
for n in "${sizes[@]}"; do
	label=$(awk -v n="$n" 'BEGIN { if (n >= 1000000) printf "%gM", n / 1000000; else printf "%gk", n / 1000 }')
	dir=$cache/gen$version-n$n
	if [ -f "$dir/manifest.json" ]; then
		gen="cached"
		log "$label: reusing $dir"
	else
		log "$label: generating into $dir"
		tmp=$dir.tmp-$$
		rm -rf "$tmp"
		r=$(once "$bin/gen" -records "$n" -out "$tmp/state" -manifest "$tmp/manifest.json")
		read -r s rss <<<"$r"
		rm -rf "$dir" && mv "$tmp" "$dir"
		gen="$s s / $rss MiB"
	fi
	manifest=$dir/manifest.json
	state=$work/n$n/state
	reuse=0
	if [ "${SCALE_REUSE:-0}" = 1 ] && [ -f "$work/n$n/warm.done" ]; then
		reuse=1 # warmed by an earlier run: its first verify and search are reported again
	else
		rm -rf "$work/n$n" && mkdir -p "$work/n$n" && cp -a "$dir/state" "$state"
	fi
	md_bytes=$(du -sb "$state/memory" | cut -f1)
	mapfile -t queries < <("$m" manifest -manifest "$manifest" queries)
	mapfile -t filter < <("$m" manifest -manifest "$manifest" filter)
	mapfile -t edits < <("$m" manifest -manifest "$manifest" edit_topics)
	mapfile -t cites < <("$m" manifest -manifest "$manifest" cites)

	if [ "$reuse" = 1 ]; then
		log "$label: reusing the warm $state (SCALE_REUSE=1)"
		read -r v_s v_rss <"$work/n$n/verify.txt"
		read -r i_s i_rss <"$work/n$n/search.txt"
	else
		log "$label: warming (first verify, first search builds the index)"
		# A warm-up over $SCALE_LONG_TIMEOUT is reported and ends this size.
		if ! r=$(once "$cli" --state "$state" verify --json); then
			echo "| $label | $gen | $(mib "$md_bytes") | failed or killed after $long | — | — |" >>"$t_ws"
			continue
		fi
		read -r v_s v_rss <<<"$r"
		echo "$r" >"$work/n$n/verify.txt"
		if ! r=$(once "$cli" --state "$state" search "${queries[0]}" --json); then
			echo "| $label | $gen | $(mib "$md_bytes") | $v_s s / $v_rss MiB | failed or killed after $long | — |" >>"$t_ws"
			continue
		fi
		read -r i_s i_rss <<<"$r"
		echo "$r" >"$work/n$n/search.txt"
		: >"$work/n$n/warm.done"
	fi
	docs=$("$cli" --state "$state" status --json | tr -d ' \n' | grep -o '"index":{[^}]*}' | sed 's/"index"://')
	echo "| $label | $gen | $(mib "$md_bytes") | $v_s s / $v_rss MiB | $i_s s / $i_rss MiB | \`$docs\` |" >>"$t_ws"

	export LC_ALL=C
	for i in $queries_at; do
		q=${queries[$i]}
		pair "\`$q\`" "$(longest "$q")" "$q" ::: "$state/memory/topics" "$state/memory/sources"
	done
	q=${queries[3]}
	pair "\`$q\` + speaker, path, dates" "$(longest "$q")" "$q" --speaker "${filter[0]}" --path "${filter[1]}" \
		--since "${filter[2]}" --until "${filter[3]}" ::: "$state/memory/${filter[1]}"
	if [ -n "$recall_at" ]; then
		prompt_path alone
		log "$label: starting a resident daemon"
		"$cli" --state "$state" daemon 2>"$work/n$n/daemon.log" &
		daemon_pid=$! resident_pid=$!
		# The daemon owns the socket at once and answers once it has read
		# the workspace and opened its index (until then the CLI answers
		# itself): wait for the socket, then for that read.
		for _ in $(seq 120); do
			sleep 1
			if [ -S "$state/memory/.scriptorium/runtime/engine.sock" ]; then break; fi
		done
		sleep "${SCALE_RESIDENT_WARM:-20}"
		# The daemon's idle CPU rate (its polling), ms per ms of wall.
		i0=$(daemon_cpu) && sleep 5 && i1=$(daemon_cpu)
		daemon_idle=$(awk -v d="$((i1 - i0))" 'BEGIN { print d / 5000 }')
		prompt_path resident
		daemon_pid=
		kill "$resident_pid" && wait "$resident_pid" || true
	fi
	unset LC_ALL

	if [ "${SCALE_VERBS:-1}" = 1 ]; then
		block=$(grep -oE '\^[0-9a-f]{8}$' "$state/memory/${edits[0]}" | head -1)
		verb status status --json
		verb verify verify --json
		verb search search "${queries[0]}" --json
		verb "get ^block" get "$block" --json
		verb "get source" get "${cites[0]}" --json
		verb pending pending --json
		verb history history --json
		verb core core --json
		rev=$("$cli" --state "$state" status --json | grep -o '"revision": *[0-9]*' | head -1 | grep -o '[0-9]*$')
		"$m" txn -manifest "$manifest" -revision "$rev" >"$work/n$n/txn.json"
		verb_runs_saved=$verb_runs verb_runs=1
		if [ "$reuse" = 1 ] && [ -f "$work/n$n/updated" ]; then
			# The earlier run appended this very block: the engine would rightly
			# reject it as a duplicate now.
			echo "| $label | \`update (one block)\` | not re-run (SCALE_REUSE: applied by the earlier run) | — |" >>"$t_verbs"
		else
			verb "update (one block)" update "$work/n$n/txn.json" --json
			: >"$work/n$n/updated"
		fi
		verb_runs=$verb_runs_saved
	fi
done

if [ "${SCALE_WRITER:-1}" = 1 ]; then
	log "writer: $hist_turns turns in $hist_sessions sessions, import then write --force"
	wstate=$work/writer/state
	rm -rf "$work/writer" && mkdir -p "$work/writer"
	"$bin/gen" -history-sessions "$hist_sessions" -history-turns "$hist_turns" -out "$work/writer/history.jsonl"
	r=$(once "$cli" --state "$wstate" import "$work/writer/history.jsonl" --json); read -r im_s im_rss <<<"$r"
	r=$(once "$cli" --state "$wstate" write --force --json); read -r w_s w_rss <<<"$r"
	r=$(once "$cli" --state "$wstate" verify --json); read -r wv_s wv_rss <<<"$r"
	blocks=$(find "$wstate/memory/topics" -name '*.md' -exec cat {} + | grep -cE ' \^[0-9a-f]{8}$' || true)
	echo "| $hist_turns turns / $hist_sessions sessions | $im_s s / $im_rss MiB | **$w_s s** / $w_rss MiB (target ≤ 10 s: $(verdict "$w_s" 10)) | $wv_s s / $wv_rss MiB | $blocks |" >>"$t_writer"
fi

load_after=$(uptime | sed 's/.*load average: //')
out=$work/results.md
{
	echo "Scale run of $started, commit \`$commit\`, generator version $version, $(nproc) CPUs, $(go version | cut -d' ' -f3)."
	echo "Load average (1, 5, 15 min) before: $load_before; after: $load_after."
	echo "Command: \`SCALE_RUNS=$runs SCALE_VERB_RUNS=$verb_runs SCALE_QUERIES=\"$queries_at\" SCALE_WRITER=${SCALE_WRITER:-1} SCALE_VERBS=${SCALE_VERBS:-1}${base_cli:+ SCALE_BASE_CLI=$base_cli} bash scripts/scale/run.sh ${sizes[*]}\`."
	echo
	echo "| N | generate (time / peak RSS) | Markdown MiB | first \`verify\` (open) | first \`search\` (index build) | index after (\`status --json\`) |"
	echo "| --- | --- | --- | --- | --- | --- |"
	cat "$t_ws"
	echo
	echo "Warm \`search QUERY --json\` vs \`grep -rlF WORD\` over topics/ and sources/ (the filtered row: over the filter's path), one process per run, interleaved, $runs runs each:"
	echo
	echo "| N | query | grep word | search p50 ms | p95 ms | grep p50 ms | p95 ms | x = search / grep (target) | search peak RSS MiB (target) | grep files |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	cat "$t_search"
	echo
	if [ -s "$t_recall" ]; then
		echo "The prompt path (issue 26): \`hook claude-code\` (UserPromptSubmit, the event on stdin), the same through the small hook client \`scriptorium-hook claude-code\` and \`recall QUERY --json\` vs \`grep -rliF WORD\` of the query's rarest word over topics/ and sources/, interleaved, $runs runs each; alone, then with a \`daemon\` serving the local socket:"
		echo
		echo "| N | prompt | mode | grep word | p50 ms | p95 ms | grep p50 ms | p95 ms | x = command / grep (target) | CPU p50 ms: command / grep = x | peak RSS MiB (target) | grep files |"
		echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
		cat "$t_recall"
		echo
	fi
	if [ -s "$t_server" ]; then
		echo "The resident rows' whole cost: the daemon's CPU per answer (its CPU over the pair less its idle rate, per answer), the client's CPU p50, their sum against grep's CPU p50:"
		echo
		echo "| N | prompt | daemon CPU ms per answer | client CPU p50 ms | sum | sum / grep CPU |"
		echo "| --- | --- | --- | --- | --- | --- |"
		cat "$t_server"
		echo
	fi
	echo "Every verb on the warm workspace ($verb_runs runs each, \`update\` once; the index was built by the warm-up):"
	echo
	echo "| N | verb | p50 s | peak RSS MiB (target) |"
	echo "| --- | --- | --- | --- |"
	cat "$t_verbs"
	if [ -s "$t_writer" ]; then
		echo
		echo "The writer on a fresh state dir (built-in offline model):"
		echo
		echo "| history | \`import\` | \`write --force\` | \`verify\` after | blocks written |"
		echo "| --- | --- | --- | --- | --- |"
		cat "$t_writer"
	fi
} | tee "$out"
log "written to $out"
