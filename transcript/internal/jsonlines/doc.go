// Package jsonlines owns the line reading the JSONL transcript parsers share
// (Claude Code, Codex CLI, Gemini CLI): one line at a time, so a parser holds
// no more of a big file than the line it is on, with a bound on a line's
// length so a corrupt file cannot exhaust memory.
//
// It is internal because only the parsers under transcript/ use it.
package jsonlines
