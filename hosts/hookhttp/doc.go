// Package hookhttp is Claude Code's HTTP hook answered by `serve`:
// POST /hooks/claude-code takes the JSON a command hook reads on stdin and
// answers with the bytes `scriptorium hook claude-code` prints, recalled
// from serve's open engine, so a prompt costs no process of its own. Only
// UserPromptSubmit is answered; the transcript events stay command hooks
// (hosts/hook.Served says why).
package hookhttp
