package result

import "scriptorium/errcode"

// IngestEvent is an `ingest_ended` event: the outcome of the idle
// watcher's final write of a session.
type IngestEvent struct {
	Kind    string       `json:"kind"` // "ingest_ended"
	Session string       `json:"session"`
	OK      bool         `json:"ok"`
	Code    errcode.Code `json:"code,omitempty"`
	Message string       `json:"message,omitempty"`
	Time    string       `json:"time"`
}
