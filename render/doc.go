// Package render builds the derived views of a memory workspace: the token-budgeted core.md, the timeline, recent_events.jsonl and relations.json. Every output is deterministic: the same topics give the same bytes.
package render
