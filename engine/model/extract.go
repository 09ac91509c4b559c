package model

import (
	"encoding/json"
	"strings"
)

// maxExtractStarts bounds how many '{' positions ExtractJSONObject tries,
// so prose full of braces costs linear time, not quadratic.
const maxExtractStarts = 64

// ExtractJSONObject finds the JSON object in a model's answer. The answer
// may be exactly one object, or hold it in a ```json (or bare ```) fence,
// or surround it with prose. It returns the object's text as the model
// wrote it, or a MODEL_OUTPUT_INVALID *Error when there is none. When
// several candidates exist the first wins, fenced ones before unfenced.
func ExtractJSONObject(text string) (string, error) {
	if obj, ok := asObject(text); ok {
		return obj, nil
	}
	for _, body := range fences(text) {
		if obj, ok := asObject(body); ok {
			return obj, nil
		}
	}
	// Prose around one object: from the first '{' to the last '}'.
	if i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}'); i >= 0 && j > i {
		if obj, ok := asObject(text[i : j+1]); ok {
			return obj, nil
		}
	}
	// Several objects or stray braces: the first '{' that starts a
	// complete object.
	for start, tries := 0, 0; tries < maxExtractStarts; tries++ {
		i := strings.IndexByte(text[start:], '{')
		if i < 0 {
			break
		}
		start += i
		dec := json.NewDecoder(strings.NewReader(text[start:]))
		var raw json.RawMessage
		if dec.Decode(&raw) == nil {
			return text[start : start+int(dec.InputOffset())], nil
		}
		start++
	}
	return "", &Error{Code: CodeOutputInvalid, Message: "the model's answer holds no JSON object: " + snippet([]byte(text))}
}

// asObject reports whether s, trimmed, is exactly one JSON object.
func asObject(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !json.Valid([]byte(s)) {
		return "", false
	}
	return s, true
}

// fences returns the bodies of the ``` fenced blocks in text, in order.
// The info string after the opening fence (json, JSON, jsonc…) is skipped;
// an unclosed fence runs to the end of the text.
func fences(text string) []string {
	var out []string
	for {
		open := strings.Index(text, "```")
		if open < 0 {
			return out
		}
		rest := text[open+3:]
		nl := strings.IndexByte(rest, '\n')
		if nl < 0 {
			return out
		}
		info := strings.TrimSpace(rest[:nl])
		body := rest[nl+1:]
		// A fence whose info string is itself the object ("```{...}```")
		// is not a fence we understand; keep looking after it.
		if strings.ContainsAny(info, "{}") {
			text = rest
			continue
		}
		end := strings.Index(body, "```")
		if end < 0 {
			return append(out, body)
		}
		out = append(out, body[:end])
		text = body[end+3:]
	}
}
