package engine

import "scriptorium/errcode"

// The error codes and the error type live in the leaf package errcode, which
// the hosts and the CLI share; these names keep the engine's API whole.

// Code is one of the closed set of error codes of SPEC §12 (errcode.Code).
type Code = errcode.Code

// The closed set of error codes.
const (
	CodeInvalidArgument    = errcode.InvalidArgument
	CodeNotFound           = errcode.NotFound
	CodeConflict           = errcode.Conflict
	CodeLockBusy           = errcode.LockBusy
	CodeRejected           = errcode.Rejected
	CodeForbidden          = errcode.Forbidden
	CodeMemoryDisabled     = errcode.MemoryDisabled
	CodeModelUnavailable   = errcode.ModelUnavailable
	CodeModelAuth          = errcode.ModelAuth
	CodeModelConfig        = errcode.ModelConfig
	CodeModelOutputInvalid = errcode.ModelOutputInvalid
	CodeNotConfigured      = errcode.NotConfigured
	CodeIO                 = errcode.IO
)

// Codes lists every code, for documentation and tests.
var Codes = errcode.Codes

// Violation is one broken rule found by verify or by transaction validation
// (errcode.Violation).
type Violation = errcode.Violation

// Error is the engine's one error type (errcode.Error): every failure that
// reaches a host, the CLI or the TUI is an *Error with a code from the
// closed set.
type Error = errcode.Error

// Errorf builds an *Error with a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return errcode.Errorf(code, format, args...)
}

// Wrap builds an *Error around a cause; the message names what failed.
func Wrap(code Code, err error, format string, args ...any) *Error {
	return errcode.Wrap(code, err, format, args...)
}

// AsError converts any error into an *Error, classifying unknown errors as IO
// (the only failures left once arguments, trust and validation are checked).
func AsError(err error) *Error { return errcode.As(err) }

// ErrDisabled is returned by Open when memory.backend = "none".
var ErrDisabled = &Error{Code: CodeMemoryDisabled, Message: "memory is disabled (memory.backend = \"none\" in config.toml)"}
