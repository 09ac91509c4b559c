// Package local lets a one-shot CLI search ask a long-lived process of the
// same workspace (serve or the daemon) instead of opening the
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
package local

import (
	"bufio"
	"context"
	"debug/elf"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"scriptorium/engine"
)

// SocketName is the socket's name in the runtime directory.
const SocketName = "engine.sock"

// maxPath is the longest socket path the kernel takes (sun_path).
const maxPath = 104

// SocketPath is the socket of the workspace at memDir.
func SocketPath(memDir string) string {
	return filepath.Join(memDir, ".scriptorium", "runtime", SocketName)
}

type request struct {
	Build string             `json:"build"`
	Op    string             `json:"op"`
	Query engine.SearchQuery `json:"query"`
}

type response struct {
	OK     bool                `json:"ok"`
	Report engine.SearchReport `json:"report"`
}

// Build names this build of the program: the Go build ID of the running
// executable (from its ELF note), which changes with any change of the
// code or the toolchain. "" when it cannot be read (then no socket is
// used: two builds must not be confused). The CLI and the daemon or
// serve it talks to are the same binary; the TUI is another and does not
// serve.
func Build() string {
	buildOnce.Do(func() { buildID = readBuildID() })
	return buildID
}

var (
	buildOnce sync.Once
	buildID   string
)

func readBuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	data, err := sec.Data()
	// The note: name size, descriptor size, type (4 bytes each), the name
	// "Go\x00\x00", then the build ID.
	if err != nil || len(data) < 16 || string(data[12:16]) != "Go\x00\x00" {
		return ""
	}
	n := int(f.ByteOrder.Uint32(data[4:8]))
	if 16+n > len(data) || n == 0 {
		return ""
	}
	return "go-buildid:" + string(data[16:16+n])
}

// thisBuild is Build, replaced in tests (a test binary carries no VCS
// stamp).
var thisBuild = Build

// Server answers the searches of one workspace on its socket.
type Server struct {
	ln       net.Listener
	path     string
	answered atomic.Int64
	ready    atomic.Bool // the engine has read the workspace and opened its index
}

// Answered is how many searches the server has answered (for tests).
func (s *Server) Answered() int64 { return s.answered.Load() }

// Serve starts answering searches for e on the workspace's socket. It
// returns nil (and serves nothing) where the socket cannot be made: an
// unknown build, a path too long for a socket, another live server.
func Serve(ctx context.Context, e *engine.Engine) *Server {
	build := thisBuild()
	path := SocketPath(e.Root())
	if build == "" || len(path) >= maxPath {
		return nil
	}
	if c, err := net.DialTimeout("unix", path, 200*time.Millisecond); err == nil {
		c.Close()
		return nil // another process of this workspace already answers
	}
	_ = os.Remove(path) // a stale socket of a process that died
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil
	}
	s := &Server{ln: ln, path: path}
	// Read the workspace now, not on the first question: until then a
	// question is refused at once (the CLI answers it), instead of making
	// the CLI wait out its timeout behind the first read of a large
	// workspace.
	go func() {
		if _, err := e.SearchReport(ctx, engine.SearchQuery{Text: "warm", Limit: 1, Method: engine.MethodBM25}); err == nil {
			s.ready.Store(true)
		}
	}()
	go s.accept(ctx, e, build)
	return s
}

// Ready reports whether the server answers questions yet.
func (s *Server) Ready() bool { return s != nil && s.ready.Load() }

// Close stops the server and removes its socket.
func (s *Server) Close() {
	if s == nil {
		return
	}
	s.ln.Close()
	_ = os.Remove(s.path)
}

func (s *Server) accept(ctx context.Context, e *engine.Engine, build string) {
	for {
		c, err := s.ln.Accept()
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
	var req request
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&req); err != nil {
		return
	}
	var resp response
	if s.ready.Load() && req.Build == build && req.Op == "search" {
		if rep, err := e.SearchReport(ctx, req.Query); err == nil {
			resp = response{OK: true, Report: rep}
			s.answered.Add(1)
		}
	}
	_ = json.NewEncoder(c).Encode(resp)
}

// Search asks the workspace's long-lived process, if there is one of this
// build, for a search. ok is false whenever it did not answer.
func Search(memDir string, q engine.SearchQuery, timeout time.Duration) (engine.SearchReport, bool) {
	build := thisBuild()
	path := SocketPath(memDir)
	if build == "" || len(path) >= maxPath || !ownSocket(path) {
		return engine.SearchReport{}, false
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return engine.SearchReport{}, false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(timeout))
	if err := json.NewEncoder(c).Encode(request{Build: build, Op: "search", Query: q}); err != nil {
		return engine.SearchReport{}, false
	}
	var resp response
	if err := json.NewDecoder(bufio.NewReader(c)).Decode(&resp); err != nil || !resp.OK {
		return engine.SearchReport{}, false
	}
	if resp.Report.Results == nil {
		resp.Report.Results = []engine.SearchResult{}
	}
	return resp.Report, true
}

// ownSocket reports whether path is a socket owned by this user.
func ownSocket(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSocket == 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
