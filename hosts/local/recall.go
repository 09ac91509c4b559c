package local

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"time"

	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/workspace"

	"scriptorium/engine"
)

// The prompt path asks the long-lived process too: a recall is a search
// and a read of the hit blocks, which a resident engine has in memory.

// recall answers a recall request from the server's engine.
func (s *Server) recall(ctx context.Context, e *engine.Engine, build string, req recall.Request) response {
	res, err := recall.Recall(ctx, e, req)
	if err != nil {
		return response{}
	}
	s.answered.Add(1)
	return response{OK: true, Build: build, WorkspaceID: e.WorkspaceID(), Root: s.root, Recall: &res,
		Report: engine.SearchReport{Results: []result.SearchResult{}}}
}

// Recall asks the workspace's long-lived process, if there is one of this
// build, for a recall. ok is false whenever it did not answer; the caller
// then recalls itself.
func Recall(memDir string, req recall.Request, timeout time.Duration) (recall.Result, bool) {
	build := thisBuild()
	path := SocketPath(memDir)
	if build == "" || len(path) >= maxPath || !ownSocket(path) {
		return recall.Result{}, false
	}
	root, err := realRoot(memDir)
	if err != nil {
		return recall.Result{}, false
	}
	id, err := workspace.ReadID(memDir)
	if err != nil {
		return recall.Result{}, false
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return recall.Result{}, false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	if err := json.NewEncoder(c).Encode(request{Build: build, Op: "recall", WorkspaceID: id, Root: root, Recall: &req}); err != nil {
		return recall.Result{}, false
	}
	var resp response
	if err := json.NewDecoder(io.LimitReader(c, MaxAnswerBytes)).Decode(&resp); err != nil {
		return recall.Result{}, false
	}
	if !resp.OK || resp.Build != build || resp.WorkspaceID != id || resp.Root != root || resp.Recall == nil || !validRecall(*resp.Recall, req) {
		return recall.Result{}, false
	}
	return *resp.Recall, true
}

// validRecall reports whether res is a recall the caller can hand on as its
// own: within the budget asked for (or a configured one), its text fenced
// once and holding every item, no item without a workspace citation.
//
// The token count is checked for consistency (at least one token, at most
// one per byte), not recounted: the answer comes from this very build of
// the owner's process over the owner's socket, which counted it with the
// same function, and recounting loaded the tokenizer's 200k-entry
// vocabulary into every client: 40% of a resident recall's client process
// (BENCHMARKS.md, issue 26).
func validRecall(res recall.Result, req recall.Request) bool {
	if res.Items == nil || res.Budget <= 0 || (req.Budget > 0 && res.Budget != req.Budget) || res.Tokens > res.Budget {
		return false
	}
	if res.Text == "" {
		return len(res.Items) == 0 && res.Tokens == 0
	}
	if !strings.HasPrefix(res.Text, "<memory-context>\n") || !strings.HasSuffix(res.Text, "</memory-context>\n") ||
		strings.Count(res.Text, "</memory-context>") != 1 || res.Tokens < 1 || res.Tokens > len(res.Text) {
		return false
	}
	for _, it := range res.Items {
		if !strings.HasPrefix(it.Path, "topics/") && !strings.HasPrefix(it.Path, "sources/") || !strings.Contains(res.Text, it.Text) {
			return false
		}
	}
	return true
}
