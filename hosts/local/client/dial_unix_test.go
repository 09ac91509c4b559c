//go:build unix

package client

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// listen serves a unix socket in a short temporary dir (sun_path is
// short) with serve for each connection.
func listen(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); serve(c) }()
		}
	}()
	return path
}

// TestDial: the plain-syscall connection sends, reads the answer to its
// end, and is close-on-exec (the hook client may exec the CLI next).
func TestDial(t *testing.T) {
	path := listen(t, func(c net.Conn) {
		line, _ := bufio.NewReader(c).ReadString('\n')
		io.WriteString(c, "you said "+line)
	})
	c, err := dial(path, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if flags, err := unix.FcntlInt(c.Fd(), syscall.F_GETFD, 0); err != nil || flags&syscall.FD_CLOEXEC == 0 {
		t.Errorf("the socket is not close-on-exec: flags %#x, %v", flags, err)
	}
	if _, err := io.WriteString(c, "recall\n"); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "you said recall\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if _, err := dial(filepath.Join(filepath.Dir(path), "none.sock"), time.Second); err == nil {
		t.Error("dialled a socket that does not exist")
	}
}

// TestDial_Deadline: a server that never answers holds the client no
// longer than its timeout, counted from the dial, across reads.
func TestDial_Deadline(t *testing.T) {
	path := listen(t, func(c net.Conn) {
		io.WriteString(c, "a") // one byte, then silence
		time.Sleep(10 * time.Second)
	})
	start := time.Now()
	c, err := dial(path, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := io.ReadAll(c)
	if took := time.Since(start); !errors.Is(err, os.ErrDeadlineExceeded) || string(got) != "a" || took > 3*time.Second {
		t.Fatalf("read %q, %v after %v; want the timeout", got, err, took)
	}
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a read past the deadline: %v", err)
	}
}
