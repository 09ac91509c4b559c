package local

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/recall"
	"scriptorium/render"
)

// TestRecall_AnsweredByTheServer: a recall through the socket is the
// function's own answer on the server's engine, byte for byte, and a
// server of another build is not asked.
func TestRecall_AnsweredByTheServer(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	state := shortState(t)
	e := openWith(t, state, "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	srv := Serve(context.Background(), e)
	if srv == nil {
		t.Fatal("no server")
	}
	defer srv.Close()
	for start := time.Now(); !srv.Ready(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the server never got ready")
		}
	}
	req := recall.Request{Prompt: "where are the bees?", Budget: 200, Cwd: "/src/x"}
	got, ok := Recall(e.Root(), req, time.Second)
	if !ok {
		t.Fatal("the server did not answer")
	}
	want, err := recall.Recall(context.Background(), e, req)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) || !strings.Contains(got.Text, "bees") || srv.Answered() != 1 {
		t.Fatalf("socket answer %s, function %s (answered %d)", g, w, srv.Answered())
	}
	thisBuild = func() string { return "build B" }
	if _, ok := Recall(e.Root(), req, time.Second); ok {
		t.Error("a server of another build answered")
	}
}

// TestValidRecall: an answer the client would hand on as its own must be
// a recall: in budget, fenced once, every item cited and in the text.
func TestValidRecall(t *testing.T) {
	text := "<memory-context>\n- [topics/a.md#^0000000a] bees\n</memory-context>\n"
	good := recall.Result{Text: text, Budget: 100, Items: []recall.Item{{Path: "topics/a.md", Text: "- [topics/a.md#^0000000a] bees"}}}
	good.Tokens = render.CountTokens(text)
	if !validRecall(good, recall.Request{}) || !validRecall(recall.Result{Items: []recall.Item{}, Budget: 1000}, recall.Request{}) {
		t.Fatal("a good answer refused")
	}
	bad := func(f func(*recall.Result)) recall.Result {
		r := good
		r.Items = append([]recall.Item(nil), good.Items...)
		f(&r)
		return r
	}
	for name, r := range map[string]recall.Result{
		"nil items":      bad(func(r *recall.Result) { r.Items = nil }),
		"over budget":    bad(func(r *recall.Result) { r.Budget = r.Tokens - 1 }),
		"other budget":   bad(func(r *recall.Result) { r.Budget = 999 }),
		"unfenced":       bad(func(r *recall.Result) { r.Text = strings.TrimPrefix(r.Text, "<memory-context>\n") }),
		"two fences":     bad(func(r *recall.Result) { r.Text += "</memory-context>\n" }),
		"no tokens":      bad(func(r *recall.Result) { r.Tokens = 0 }),
		"over a byte":    bad(func(r *recall.Result) { r.Tokens, r.Budget = len(r.Text)+1, 1000 }),
		"item elsewhere": bad(func(r *recall.Result) { r.Items[0].Path = "/etc/passwd" }),
		"item not in it": bad(func(r *recall.Result) { r.Items[0].Text = "other" }),
		"items no text":  bad(func(r *recall.Result) { r.Text, r.Tokens = "", 0 }),
	} {
		req := recall.Request{}
		if name == "other budget" {
			req.Budget = 100
		}
		if validRecall(r, req) {
			t.Errorf("%s: accepted", name)
		}
	}
}
