package model

import (
	"fmt"
	"time"
)

// The error codes a provider reports; they are a subset of the engine's
// closed set of codes.
const (
	// CodeUnavailable: the model could not be reached or is overloaded
	// (network error, timeout, 408, 429, 5xx). Retryable.
	CodeUnavailable = "MODEL_UNAVAILABLE"
	// CodeAuth: the provider refused the credentials (401, 403).
	CodeAuth = "MODEL_AUTH"
	// CodeConfig: the settings or the request are wrong (missing model,
	// base URL or key, unknown provider, 400, 404, other 4xx).
	CodeConfig = "MODEL_CONFIG"
	// CodeOutputInvalid: a successful answer that cannot be decoded or has
	// no text, or text without the JSON object the caller needs.
	CodeOutputInvalid = "MODEL_OUTPUT_INVALID"
)

// Error is every failure of this package.
type Error struct {
	Code      string // one of the Code constants
	Retryable bool   // whether the same request may succeed later
	Message   string // for people; never contains the API key
	// Status is the HTTP status of the provider's answer, 0 if there was
	// none.
	Status int
	// RetryAfter is the provider's Retry-After hint on 429 and 503
	// answers, 0 if it gave none.
	RetryAfter time.Duration
	Err        error // the underlying cause, if any
}

// Error returns the code and message.
func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Unwrap returns the underlying cause, so errors.Is(err,
// context.DeadlineExceeded) works.
func (e *Error) Unwrap() error { return e.Err }
