// Package transcript owns the result type shared by the transcript parsers (Turn,
// Result, Error), format detection for --format auto, and the encoding of turns as
// the SPEC §7 JSONL that sessions.Store.Import reads.
//
// It never touches the filesystem: the parsers in claudecode and chatgpt take a
// reader and a display name, and the importer decides where bytes come from.
package transcript
