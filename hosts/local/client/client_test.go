package client

import (
	"strings"
	"testing"

	"scriptorium/engine/result/prompt"
)

// TestValidRecall: an answer the client would hand on as its own must be
// a recall: in budget, fenced once, every item cited and in the text.
func TestValidRecall(t *testing.T) {
	text := "<memory-context>\n- [topics/a.md#^0000000a] bees\n</memory-context>\n"
	good := prompt.Result{Text: text, Budget: 100, Items: []prompt.Item{{Path: "topics/a.md", Text: "- [topics/a.md#^0000000a] bees"}}}
	good.Tokens = 12 // o200k_base tokens of text
	if !validRecall(good, prompt.Request{}) || !validRecall(prompt.Result{Items: []prompt.Item{}, Budget: 1000}, prompt.Request{}) {
		t.Fatal("a good answer refused")
	}
	bad := func(f func(*prompt.Result)) prompt.Result {
		r := good
		r.Items = append([]prompt.Item(nil), good.Items...)
		f(&r)
		return r
	}
	for name, r := range map[string]prompt.Result{
		"nil items":      bad(func(r *prompt.Result) { r.Items = nil }),
		"over budget":    bad(func(r *prompt.Result) { r.Budget = r.Tokens - 1 }),
		"other budget":   bad(func(r *prompt.Result) { r.Budget = 999 }),
		"unfenced":       bad(func(r *prompt.Result) { r.Text = strings.TrimPrefix(r.Text, "<memory-context>\n") }),
		"two fences":     bad(func(r *prompt.Result) { r.Text += "</memory-context>\n" }),
		"no tokens":      bad(func(r *prompt.Result) { r.Tokens = 0 }),
		"over a byte":    bad(func(r *prompt.Result) { r.Tokens, r.Budget = len(r.Text)+1, 1000 }),
		"item elsewhere": bad(func(r *prompt.Result) { r.Items[0].Path = "/etc/passwd" }),
		"item not in it": bad(func(r *prompt.Result) { r.Items[0].Text = "other" }),
		"items no text":  bad(func(r *prompt.Result) { r.Text, r.Tokens = "", 0 }),
	} {
		req := prompt.Request{}
		if name == "other budget" {
			req.Budget = 100
		}
		if validRecall(r, req) {
			t.Errorf("%s: accepted", name)
		}
	}
}
