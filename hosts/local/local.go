// Package local lets a one-shot CLI search ask a long-lived process of the
// same workspace (serve, the daemon or the TUI) instead of opening the
// workspace itself: the long-lived engine has its snapshot in memory, its
// index open and an inotify watch that makes even the stat walk
// unnecessary, so the answer costs a query, not a walk of every file.
//
// The channel is a Unix socket in the workspace's runtime directory,
// .scriptorium/runtime/engine.sock, mode 0600. Both ends check the other
// is the same user (the file's owner; the peer's credentials), and the
// same build of the program (the request names it; a server of another
// build refuses). Anything unexpected — no socket, a stale one, another
// build, a slow or failing server, an error answer — makes the client
// report "not answered", and the CLI does the search itself, so every
// error message and exit status stays the CLI's own.
//
// The socket file alone proves little: a state dir moved while its server
// runs carries the socket along (the server still reads the old path), and
// a socket can be hard-linked into another workspace. So the request names
// the client's workspace (its id and real path) and build, the server
// answers only for the workspace it serves, as it is on disk now, and
// names it in the answer, and the client takes an answer only when it
// names the same workspace and build, is within MaxAnswerBytes, holds no
// more results than the query's limit and every result is well formed.
package local

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofrs/flock"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/hosts/local/client"
	"scriptorium/workspace"
)

// SocketName is the socket's name in the runtime directory.
const SocketName = client.SocketName

// maxPath is the longest socket path the kernel takes (sun_path).
const maxPath = client.MaxPath

// MaxRequestBytes bounds what the server reads of one request: a query is
// a few words and filters.
const MaxRequestBytes = 64 << 10

// MaxAnswerBytes bounds what the client reads of one answer; a larger one
// is not taken (the CLI searches itself).
const MaxAnswerBytes = client.MaxAnswerBytes

// SocketPath is the socket of the workspace at memDir.
func SocketPath(memDir string) string { return client.SocketPath(memDir) }

type request struct {
	Build       string             `json:"build"`
	Op          string             `json:"op"`
	WorkspaceID string             `json:"workspace_id"`
	Root        string             `json:"root"` // the memory dir's real path
	Query       result.SearchQuery `json:"query"`
	Recall      *recall.Request    `json:"recall,omitempty"` // op "recall"
}

type response struct {
	OK          bool                `json:"ok"`
	Build       string              `json:"build"`
	WorkspaceID string              `json:"workspace_id"`
	Root        string              `json:"root"`
	Report      engine.SearchReport `json:"report"`
	Recall      *recall.Result      `json:"recall,omitempty"` // op "recall"
}

// realRoot is the absolute path of a memory dir with symlinks resolved.
func realRoot(memDir string) (string, error) { return client.RealRoot(memDir) }

// Build names the code this program was built from (client.Build), so
// that a client takes answers only from a server that answers exactly as
// it would.
func Build() string { return client.Build() }

// thisBuild is Build, replaced in tests (a test binary carries no VCS
// stamp).
var thisBuild = Build

// Server answers the searches of one workspace on its socket.
type Server struct {
	path string
	root string // the real path of the workspace served
	// lock, beside the socket, says who owns it: only its holder removes a
	// stale socket and listens, so two servers never unlink each other's.
	lock     *flock.Flock
	mu       sync.Mutex
	ln       net.Listener // nil until the server owns the socket
	done     chan struct{}
	answered atomic.Int64
	ready    atomic.Bool // the engine has read the workspace and opened its index
}

// Answered is how many searches the server has answered (for tests).
func (s *Server) Answered() int64 { return s.answered.Load() }

// Serve starts answering searches for e on the workspace's socket. Of the
// servers of one workspace (serve, daemon) exactly one owns the socket: the
// holder of its lock file. Another waits and takes the socket over when
// the owner exits (Serving says which). Serve returns nil where the socket
// cannot be made at all: an unknown build, a path too long for a socket.
func Serve(ctx context.Context, e *engine.Engine) *Server {
	build := thisBuild()
	path := SocketPath(e.Root())
	root, err := realRoot(e.Root())
	if build == "" || len(path) >= maxPath || err != nil {
		return nil
	}
	s := &Server{path: path, root: root, lock: flock.New(path + ".lock"), done: make(chan struct{})}
	if !s.takeOver(ctx, e, build) {
		go s.wait(ctx, e, build)
	}
	return s
}

// ownerPoll is how often a waiting server tries for the socket's lock.
const ownerPoll = 200 * time.Millisecond

// wait tries for the socket until it owns it, ctx ends or s is closed.
func (s *Server) wait(ctx context.Context, e *engine.Engine, build string) {
	t := time.NewTicker(ownerPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			return
		case <-t.C:
			if s.takeOver(ctx, e, build) {
				return
			}
		}
	}
}

// takeOver makes s the socket's owner if its lock is free: only then is a
// socket left in the way stale (its owner died or exited), so it is
// removed and s listens.
func (s *Server) takeOver(ctx context.Context, e *engine.Engine, build string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return false
	default:
	}
	if ok, err := s.lock.TryLock(); err != nil || !ok {
		return false
	}
	// A live socket without a lock holder is a server of a build before
	// the lock: leave it alone, and try again later.
	if c, err := net.DialTimeout("unix", s.path, 200*time.Millisecond); err == nil {
		c.Close()
		_ = s.lock.Unlock()
		return false
	}
	_ = os.Remove(s.path) // a stale socket of a server that is gone
	ln, err := net.Listen("unix", s.path)
	if err != nil {
		_ = s.lock.Unlock()
		return false
	}
	if err := os.Chmod(s.path, 0o600); err != nil {
		ln.Close()
		_ = os.Remove(s.path)
		_ = s.lock.Unlock()
		return false
	}
	s.ln = ln
	// Read the workspace now, not on the first question: until then a
	// question is refused at once (the CLI answers it), instead of making
	// the CLI wait out its timeout behind the first read of a large
	// workspace.
	go func() {
		if _, err := e.SearchReport(ctx, result.SearchQuery{Text: "warm", Limit: 1, Method: vectors.MethodBM25}); err == nil {
			s.ready.Store(true)
		}
	}()
	go s.accept(ctx, e, build, ln)
	return true
}

// Serving reports whether s owns the workspace's socket now.
func (s *Server) Serving() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ln != nil
}

// Ready reports whether the server owns the socket and answers questions.
func (s *Server) Ready() bool { return s.Serving() && s.ready.Load() }

// Close stops the server. An owner removes its socket and then lets go of
// the lock, so a waiting server finds the way clear.
func (s *Server) Close() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.done:
		return
	default:
	}
	close(s.done)
	if s.ln != nil {
		s.ln.Close()
		_ = os.Remove(s.path)
		s.ln = nil
		_ = s.lock.Unlock()
	}
}

func (s *Server) accept(ctx context.Context, e *engine.Engine, build string, ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go s.answer(ctx, e, build, c)
	}
}

func (s *Server) answer(ctx context.Context, e *engine.Engine, build string, c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	if !sameUser(c) {
		return
	}
	// A request is a few words and filters: a longer one is cut off here
	// and fails to decode, so no client holds the server's memory.
	var req request
	if err := json.NewDecoder(io.LimitReader(c, MaxRequestBytes)).Decode(&req); err != nil {
		return
	}
	var resp response
	if s.ready.Load() && req.Build == build && req.Op == "recall" && req.Recall != nil && s.serves(e, req) {
		resp = s.recall(ctx, e, build, *req.Recall)
	} else if s.ready.Load() && req.Build == build && req.Op == "search" && s.serves(e, req) {
		if rep, err := e.SearchReport(ctx, req.Query); err == nil {
			if rep.Results == nil {
				rep.Results = []result.SearchResult{}
			}
			resp = response{OK: true, Build: build, WorkspaceID: e.WorkspaceID(), Root: s.root, Report: rep}
			s.answered.Add(1)
		}
	}
	_ = json.NewEncoder(c).Encode(resp)
}

// serves reports whether req asks about the workspace this server serves,
// as it is on disk now: the engine reads s.root, which may since have been
// moved away or hold another workspace.
func (s *Server) serves(e *engine.Engine, req request) bool {
	if req.Root != s.root || req.WorkspaceID != e.WorkspaceID() {
		return false
	}
	id, err := workspace.ReadID(s.root)
	return err == nil && id == e.WorkspaceID()
}

// Search asks the workspace's long-lived process, if there is one of this
// build, for a search. ok is false whenever it did not answer.
func Search(memDir string, q result.SearchQuery, timeout time.Duration) (engine.SearchReport, bool) {
	build := thisBuild()
	path := SocketPath(memDir)
	if build == "" || len(path) >= maxPath || !ownSocket(path) {
		return engine.SearchReport{}, false
	}
	root, err := realRoot(memDir)
	if err != nil {
		return engine.SearchReport{}, false
	}
	id, err := workspace.ReadID(memDir)
	if err != nil {
		return engine.SearchReport{}, false
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return engine.SearchReport{}, false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	if err := json.NewEncoder(c).Encode(request{Build: build, Op: "search", WorkspaceID: id, Root: root, Query: q}); err != nil {
		return engine.SearchReport{}, false
	}
	var resp response
	if err := json.NewDecoder(io.LimitReader(c, MaxAnswerBytes)).Decode(&resp); err != nil {
		return engine.SearchReport{}, false
	}
	if !resp.OK || resp.Build != build || resp.WorkspaceID != id || resp.Root != root || !validReport(resp.Report, q) {
		return engine.SearchReport{}, false
	}
	return resp.Report, true
}

// validReport reports whether rep is a search answer the CLI can print as
// its own: a results list within the query's limit, each result of a known
// kind with a workspace path, anchor and ref of that kind, and a source
// naming its speaker fields (printing reads them).
func validReport(rep engine.SearchReport, q result.SearchQuery) bool {
	limit := q.Limit
	if limit <= 0 {
		limit = index.DefaultLimit
	}
	if rep.Results == nil || len(rep.Results) > limit {
		return false
	}
	for _, r := range rep.Results {
		clean := r.Path != "" && path.Clean(r.Path) == r.Path && !strings.HasPrefix(r.Path, "../") && r.Ref != ""
		switch r.Kind {
		case "topic":
			if !clean || !strings.HasPrefix(r.Path, "topics/") || !strings.HasPrefix(r.Anchor, "^") {
				return false
			}
		case "source":
			if !clean || !strings.HasPrefix(r.Path, "sources/") || !strings.HasPrefix(r.Anchor, "source-") ||
				r.SpeakerID == nil || r.SpeakerDisplay == nil || r.SpeakerLabel == nil || r.SpeakerTrusted == nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ownSocket reports whether path is a socket owned by this user.
func ownSocket(path string) bool { return client.OwnSocket(path) }
