// Package scale generates deterministic inputs for measuring Scriptorium
// at scale (issue 14): memory workspaces of any number of source records
// with realistic text, speakers, dates, topics and citations (Workspace),
// and long conversation histories in the import JSONL for the writer
// (History). The same arguments and seed always give the same bytes.
//
// It writes through the real format packages (workspace/archive,
// workspace/topic) and knows no engine: the engine never imports it. The
// benchmarks call it from their tests, `go run ./scale/gen` from the
// command line, and scripts/scale/run.sh times the CLI on its output.
package scale
