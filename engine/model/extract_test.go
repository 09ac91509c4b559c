package model

import (
	"strings"
	"testing"
)

func TestExtractJSONObject_Cases(t *testing.T) {
	const obj = `{"edits":[{"op":"append","path":"topics/a.md","content":"x } { \" y"}]}`
	cases := []struct {
		name, text, want string
	}{
		{"bare", obj, obj},
		{"whitespace", "\n\t " + obj + "\n", obj},
		{"json_fence", "```json\n" + obj + "\n```", obj},
		{"fence_with_prose", "Here are the edits:\n\n```json\n" + obj + "\n```\nLet me know.", obj},
		{"bare_fence", "```\n" + obj + "\n```", obj},
		{"upper_fence", "```JSON\r\n" + obj + "\r\n```", obj},
		{"unclosed_fence", "```json\n" + obj + "\n", obj},
		{"prose_around", "Sure! " + obj + " Hope this helps.", obj},
		{"braces_in_prose_before", "I used {curly} notation. " + obj, obj},
		{"two_objects_first_wins", `{"a":1} and then {"b":2}`, `{"a":1}`},
		{"fence_preferred", `Example: {"x":1}` + "\n```json\n" + obj + "\n```", obj},
		{"non_object_fence_skipped", "```python\nprint(1)\n```\n```json\n" + obj + "\n```", obj},
		{"one_line_fence", "```json " + obj + "```", obj},
		{"nested", `{"a":{"b":{"c":[1,2,{"d":null}]}}}`, `{"a":{"b":{"c":[1,2,{"d":null}]}}}`},
		{"unicode", `说明：{"content":"密钥\u2028可以"}。`, `{"content":"密钥\u2028可以"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExtractJSONObject(tc.text)
			if err != nil {
				t.Fatalf("ExtractJSONObject: %v", err)
			}
			if got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestExtractJSONObject_None(t *testing.T) {
	for _, text := range []string{
		"",
		"I could not find anything to change.",
		`["not", "an", "object"]`,
		`{"unterminated": [1, 2`,
		"```json\n{broken}\n```",
		strings.Repeat("{", 100000), // must stay fast
		`"just a string"`,
	} {
		_, err := ExtractJSONObject(text)
		e := asError(t, err)
		if e.Code != CodeOutputInvalid || e.Retryable {
			t.Errorf("ExtractJSONObject(%.40q) error %+v, want non-retryable %s", text, e, CodeOutputInvalid)
		}
	}
}

// FuzzExtractJSONObject checks that any answer either yields a substring
// of itself that is one valid JSON object, or a MODEL_OUTPUT_INVALID error.
func FuzzExtractJSONObject(f *testing.F) {
	f.Add("```json\n{\"edits\":[]}\n```")
	f.Add(`prose {"a":"}"} more {`)
	f.Fuzz(func(t *testing.T, text string) {
		got, err := ExtractJSONObject(text)
		if err != nil {
			if e := asError(t, err); e.Code != CodeOutputInvalid {
				t.Fatalf("error code %s", e.Code)
			}
			return
		}
		if !strings.Contains(text, got) {
			t.Fatalf("result %q is not part of the answer", got)
		}
		if _, ok := asObject(got); !ok || got != strings.TrimSpace(got) {
			t.Fatalf("result %q is not exactly one JSON object", got)
		}
	})
}
