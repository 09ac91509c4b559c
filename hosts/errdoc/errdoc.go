package errdoc

import (
	"encoding/json"
	"io"
	"net/http"

	"scriptorium/errcode"
)

// Exit statuses of the CLI (SPEC §12).
const (
	ExitOK      = 0
	ExitFailure = 1 // a failure or a rejection
	ExitUsage   = 2 // the command line was wrong
)

// Body is the inside of an error document.
type Body struct {
	Code       errcode.Code        `json:"code"`
	Message    string              `json:"message"`
	Retryable  bool                `json:"retryable"`
	Violations []errcode.Violation `json:"violations,omitempty"`
}

// Document is {"error": Body}.
type Document struct {
	Error Body `json:"error"`
}

// Of builds the error document of err; an error outside the closed set
// reads as IO.
func Of(err error) Document {
	e := errcode.As(err)
	return Document{Error: Body{Code: e.Code, Message: e.Message, Retryable: e.Retryable(), Violations: e.Violations}}
}

// Write encodes doc as indented JSON, HTML left unescaped (messages quote
// Markdown and paths).
func Write(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// HTTPStatus maps the closed set of error codes onto HTTP statuses.
func HTTPStatus(c errcode.Code) int {
	switch c {
	case errcode.InvalidArgument:
		return http.StatusBadRequest
	case errcode.NotFound:
		return http.StatusNotFound
	case errcode.Conflict:
		return http.StatusConflict
	case errcode.LockBusy:
		return http.StatusLocked
	case errcode.Rejected:
		return http.StatusUnprocessableEntity
	case errcode.Forbidden:
		return http.StatusForbidden
	case errcode.MemoryDisabled, errcode.NotConfigured:
		return http.StatusServiceUnavailable
	case errcode.ModelUnavailable, errcode.ModelAuth, errcode.ModelConfig, errcode.ModelOutputInvalid:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// WriteHTTP answers a request with err's document and status.
func WriteHTTP(w http.ResponseWriter, err error) {
	doc := Of(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(HTTPStatus(doc.Error.Code))
	_ = json.NewEncoder(w).Encode(doc)
}
