package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// maxResponseBytes bounds a provider's answer; a larger one is invalid.
const maxResponseBytes = 32 << 20

// httpClient is the transport half shared by the providers.
type httpClient struct {
	client   *http.Client
	timeout  time.Duration
	provider string
}

// post sends body as JSON to url and returns the body of a 2xx answer.
// Failures are classified into *Error; errorMessage extracts the provider's
// own explanation from an error body. secret is redacted from messages.
func (h httpClient) post(ctx context.Context, url string, header http.Header, body any,
	errorMessage func([]byte) string, secret string) ([]byte, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, &Error{Code: CodeConfig, Message: "encode request: " + err.Error(), Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, &Error{Code: CodeConfig, Message: "build request: " + err.Error(), Err: err}
	}
	for k, vs := range header {
		httpReq.Header[k] = vs
	}
	resp, err := h.client.Do(httpReq)
	if err != nil {
		return nil, h.transportError(ctx, err, secret)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, h.transportError(ctx, err, secret)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		if len(data) > maxResponseBytes {
			return nil, &Error{Code: CodeOutputInvalid, Status: resp.StatusCode,
				Message: fmt.Sprintf("%s: answer larger than %d bytes", h.provider, maxResponseBytes)}
		}
		return data, nil
	}
	return nil, h.statusError(resp, data, errorMessage, secret)
}

// transportError classifies a failure to get an answer at all: always
// retryable, since the same request may well get through later.
func (h httpClient) transportError(ctx context.Context, err error, secret string) *Error {
	msg := redact(err.Error(), secret)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg = "no answer in time: " + msg
	case errors.Is(ctx.Err(), context.Canceled):
		msg = "request canceled: " + msg
	}
	return &Error{Code: CodeUnavailable, Retryable: true, Message: h.provider + ": " + msg, Err: err}
}

// statusError classifies a non-2xx answer.
func (h httpClient) statusError(resp *http.Response, body []byte, errorMessage func([]byte) string, secret string) *Error {
	detail := errorMessage(body)
	if detail == "" {
		detail = snippet(body)
	}
	e := &Error{Status: resp.StatusCode}
	code := resp.StatusCode
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		e.Code = CodeAuth
		detail += " (check the API key in model.api_key_env)"
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500:
		e.Code, e.Retryable = CodeUnavailable, true
		e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"))
	case code == http.StatusNotFound:
		e.Code = CodeConfig
		detail += " (check model.name and model.base_url)"
	default: // other 4xx, and 1xx/3xx that should never reach us
		e.Code = CodeConfig
	}
	e.Message = redact(fmt.Sprintf("%s: HTTP %d: %s", h.provider, code, strings.TrimSpace(detail)), secret)
	return e
}

// retryAfter parses a Retry-After header: delay seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d.Round(time.Second)
		}
	}
	return 0
}

// snippet is a short, printable excerpt of an unexpected body.
func snippet(body []byte) string {
	const limit = 200
	s := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, string(body))
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "empty body"
	}
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}

// invalidOutput reports a 2xx answer the provider's format does not allow.
func invalidOutput(provider, format string, args ...any) *Error {
	return &Error{Code: CodeOutputInvalid, Message: provider + ": " + fmt.Sprintf(format, args...)}
}
