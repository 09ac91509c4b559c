package main

// verbDoc is the part of a verb's own help that the command table does not
// carry: the --json document it prints and an example to copy.
type verbDoc struct {
	shape   string
	example string
}

// verbDocs feeds `scriptorium VERB --help` (and `help VERB`).
var verbDocs = map[string]verbDoc{
	"demo":      {`{"state": DIR}`, "scriptorium demo --no-tui /tmp/demo"},
	"init":      {`{"state","workspace_id","revision","created"}`, "scriptorium init ~/.openprogram-work"},
	"status":    {`{"workspace_id","revision","backend","model","writer","core","index","lock_holder",…}`, "scriptorium status --json"},
	"verify":    {`{"ok","violations":[{"code","path","line","message"}]}` + " (exit 1 when there are violations)", "scriptorium verify"},
	"core":      {`{"budget","tokens","included","excluded","pending"}`, "scriptorium core --json"},
	"get":       {"a block {kind,ref,path,anchor,text,trust,footnotes} or a source {kind,ref,path,anchor,time,label,content,speaker_*,trust}", "scriptorium get ^f888f60e"},
	"update":    {`{"revision","changed"}`, `echo '{"base_revision":3,"edits":[{"op":"append","path":"topics/notes.md","content":"Tea, not coffee. ^0a0b0c0d\n"}]}' | scriptorium update -`},
	"search":    {`{"results":[{"kind","ref","path","anchor","score","snippet",…}]}`, "scriptorium search 'budget tracker' --speaker u123 --since 2026-01-01"},
	"recall":    {`{"text","items":[{"kind","ref","path","anchor","date","tokens","text"}],"tokens","budget"}`, "scriptorium recall 'what test command does ledgerline use?' --cwd ~/src/ledgerline"},
	"import":    {`{"imported","sessions","skipped":{"<reason>":N}}`, "scriptorium import ~/.claude/projects/my-app/1f0c….jsonl"},
	"write":     {`{"batches","revision"}` + `; with --redistill {"proposal","threads","turn_blocks","kept","added","cited","replaced","changed","revision"}`, "scriptorium write --redistill --thread whatsapp/release-train"},
	"backfill":  {`{"batches","sources"}`, "scriptorium backfill"},
	"pending":   {`{"sources":[{"ref","path","anchor","time","speaker_label","speaker_id","content","thread",…}]}`, "scriptorium pending --json"},
	"promote":   {`{"promoted":[…],"distilled":[…]}`, "scriptorium promote telegram/group-42/m7 --yes"},
	"reject":    {`{"rejected":[…]}`, "scriptorium reject telegram/group-42/m8 --reason 'not about us' --yes"},
	"audit":     {`{"entries":[{"time","kind","actor","revision","sources","changed","detail"}]}`, "scriptorium audit --source telegram/group-42/m7"},
	"explain":   {`{"id","path","position","blocks","state","pinned","tokens","running_total","budget","core_tokens","trust","reason","sources"}`, "scriptorium explain ^c0ffee03"},
	"reorder":   {`{"revision","changed","position","pinned","before","after"}`, "scriptorium reorder ^c0ffee03 --pin"},
	"history":   {`{"entries":[{"kind","revision","time","actor","changed","reverts"?}]}`, "scriptorium history --json"},
	"sleep":     {`{"pass","time","model","changed":[{"path","diff"}],"tokens_in","tokens_out"}` + "; with --propose {id,kind,time,base_revision,changed}", "scriptorium sleep --propose"},
	"revert":    {`{"revision","reverts","dry_run","changed":[{"path","diff"}]}`, "scriptorium revert 12 --dry-run"},
	"proposals": {`{"proposals":[{"id","kind","time","base_revision","changed":[{"path","diff"}]}]}`, "scriptorium proposals"},
	"accept":    {`{"id","revision","changed","remaining","rebased"}`, "scriptorium accept p-20261101-080900-3f2a1c --only topics/people/dana.md"},
	"decline":   {`{"id","declined","remaining"}`, "scriptorium decline p-20261101-080900-3f2a1c"},
	"mcp":       {"(speaks MCP on stdio)", "claude mcp add scriptorium -- scriptorium mcp --state ~/.openprogram"},
	"serve":     {"(serves HTTP: /api/memory/… and /mcp)", "scriptorium serve --addr 127.0.0.1:8765"},
	"daemon":    {"(runs until SIGINT/SIGTERM; logs to stderr and .scriptorium/daemon.log)", "scriptorium daemon"},
	"hook":      {`UserPromptSubmit: {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"…"}}`, "scriptorium hook install claude-code --print"},
	"edit":      {`{"revision","changed","id","path","before","after","reattached"}` + " (changed is empty when the text was the same)", "scriptorium edit ^c0ffee02 --text 'Carol reported the build green.[^e-6f7a8b9ca3]'"},
	"delete":    {`{"revision","dry_run","changed","id","path","text","footnotes","file_deleted"}`, "scriptorium delete ^c0ffee02 --yes"},
	"move":      {`{"revision","dry_run","changed","id","from","to","under"?,"created","file_deleted","links":[{"path","line","block","target"}],"footnotes"}`, "scriptorium move ^c0ffee02 people/carol --under Work --yes"},
	"owner":     {`{"name","source","learned":[{"name","turns"}],"file","unnamed_blocks"}` + `; with --migrate {"revision","dry_run","changed","from","to","moved","rewritten","created","file_deleted","links"}`, "scriptorium owner --set \"Sigrid Halvorsen\" --migrate --dry-run"},
	"forget":    {`{"sources","changes":[{"path","kind","diff"}],"turns","revision"?}`, "scriptorium forget --speaker u999 --dry-run"},
}
