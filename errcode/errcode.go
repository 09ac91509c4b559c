package errcode

import (
	"errors"
	"fmt"
)

// Code is one of the closed set of error codes of SPEC §12. Hosts, the CLI
// and the TUI switch on it; nothing outside this list is ever emitted.
type Code string

// The closed set of error codes.
const (
	InvalidArgument    Code = "INVALID_ARGUMENT"
	NotFound           Code = "NOT_FOUND"
	Conflict           Code = "CONFLICT"
	LockBusy           Code = "LOCK_BUSY"
	Rejected           Code = "REJECTED"
	Forbidden          Code = "FORBIDDEN"
	MemoryDisabled     Code = "MEMORY_DISABLED"
	ModelUnavailable   Code = "MODEL_UNAVAILABLE"
	ModelAuth          Code = "MODEL_AUTH"
	ModelConfig        Code = "MODEL_CONFIG"
	ModelOutputInvalid Code = "MODEL_OUTPUT_INVALID"
	NotConfigured      Code = "NOT_CONFIGURED"
	IO                 Code = "IO"
)

// Codes lists every code, for documentation and tests.
var Codes = []Code{InvalidArgument, NotFound, Conflict, LockBusy, Rejected,
	Forbidden, MemoryDisabled, ModelUnavailable, ModelAuth, ModelConfig,
	ModelOutputInvalid, NotConfigured, IO}

// Retryable reports whether an operation that failed with this code may
// succeed when tried again unchanged.
func (c Code) Retryable() bool {
	switch c {
	case Conflict, LockBusy, ModelUnavailable:
		return true
	}
	return false
}

// Violation is one broken rule found by verify, by transaction validation
// or in an imported file.
type Violation struct {
	Code    string `json:"code"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// String formats a violation as path:line: message (code).
func (v Violation) String() string {
	if v.Line > 0 {
		return fmt.Sprintf("%s:%d: %s (%s)", v.Path, v.Line, v.Message, v.Code)
	}
	return fmt.Sprintf("%s: %s (%s)", v.Path, v.Message, v.Code)
}

// Error is the one error type of the program's API: every failure that
// reaches a host, the CLI or the TUI is an *Error with a code from the
// closed set.
type Error struct {
	Code       Code
	Message    string
	Violations []Violation // REJECTED, INVALID_ARGUMENT: every violation found, not just the first
	Err        error       // underlying cause, if any
}

// Error returns the message followed by one line per violation.
func (e *Error) Error() string {
	if len(e.Violations) == 0 {
		return e.Message
	}
	msg := e.Message
	for _, v := range e.Violations {
		msg += "\n  " + v.String()
	}
	return msg
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the failure may go away on its own.
func (e *Error) Retryable() bool { return e.Code.Retryable() }

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds an *Error around a cause; the message names what failed.
func Wrap(code Code, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...) + ": " + err.Error(), Err: err}
}

// As converts any error into an *Error, classifying unknown errors as IO
// (the only failures left once arguments, trust and validation are
// checked). It returns nil for nil.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: IO, Message: err.Error(), Err: err}
}

// ErrDisabled is what opening memory returns when memory.backend = "none".
var ErrDisabled = &Error{Code: MemoryDisabled, Message: "memory is disabled (memory.backend = \"none\" in config.toml)"}
