// Package client is the asking end of the local socket (hosts/local) for
// the prompt path, with few imports: the CLI's recall and hook use it, and
// so does the small hook client cmd/scriptorium-hook, whose whole cost is
// its process start. It names builds (Build, BuildOf), checks the socket
// is the user's own, sends one recall and takes the answer only when it
// is well formed and names the same workspace and build.
package client

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"scriptorium/engine/result/prompt"
	"scriptorium/workspace"
)

// SocketName is the socket's name in the runtime directory.
const SocketName = "engine.sock"

// MaxPath is the longest socket path the kernel takes (sun_path).
const MaxPath = 104

// MaxAnswerBytes bounds what the client reads of one answer; a larger one
// is not taken (the caller answers itself).
const MaxAnswerBytes = 16 << 20

// SocketPath is the socket of the workspace at memDir.
func SocketPath(memDir string) string {
	return workspace.RuntimePath(memDir, SocketName)
}

// RealRoot is the absolute path of a memory dir with symlinks resolved,
// so that two spellings of one directory compare equal.
func RealRoot(memDir string) (string, error) {
	abs, err := filepath.Abs(memDir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// OwnSocket reports whether path is a socket owned by this user.
func OwnSocket(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSocket == 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// recallRequest is the server's request (hosts/local) as a recall sends
// it: the search query stays empty.
type recallRequest struct {
	Build       string          `json:"build"`
	Op          string          `json:"op"`
	WorkspaceID string          `json:"workspace_id"`
	Root        string          `json:"root"`
	Query       struct{}        `json:"query"`
	Recall      *prompt.Request `json:"recall"`
}

// recallResponse is the part of the server's answer a recall reads.
type recallResponse struct {
	OK          bool           `json:"ok"`
	Build       string         `json:"build"`
	WorkspaceID string         `json:"workspace_id"`
	Root        string         `json:"root"`
	Recall      *prompt.Result `json:"recall"`
}

// Recall asks the long-lived process of the workspace at memDir, if it is
// of build, for a recall. ok is false whenever it did not answer cleanly
// within timeout; the caller then recalls itself.
func Recall(memDir, build string, req prompt.Request, timeout time.Duration) (prompt.Result, bool) {
	path := SocketPath(memDir)
	if build == "" || len(path) >= MaxPath || !OwnSocket(path) {
		return prompt.Result{}, false
	}
	root, err := RealRoot(memDir)
	if err != nil {
		return prompt.Result{}, false
	}
	id, err := workspace.ReadID(memDir)
	if err != nil {
		return prompt.Result{}, false
	}
	c, err := dial(path, timeout)
	if err != nil {
		return prompt.Result{}, false
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(recallRequest{Build: build, Op: "recall", WorkspaceID: id, Root: root, Recall: &req}); err != nil {
		return prompt.Result{}, false
	}
	var resp recallResponse
	if err := json.NewDecoder(io.LimitReader(c, MaxAnswerBytes)).Decode(&resp); err != nil {
		return prompt.Result{}, false
	}
	if !resp.OK || resp.Build != build || resp.WorkspaceID != id || resp.Root != root || resp.Recall == nil || !validRecall(*resp.Recall, req) {
		return prompt.Result{}, false
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
func validRecall(res prompt.Result, req prompt.Request) bool {
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
