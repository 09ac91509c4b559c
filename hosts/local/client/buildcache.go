package client

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"scriptorium/workspace"
)

// BuildCacheName is the file in a workspace's runtime directory that
// remembers BuildOf of the CLI the hook client last asked for.
const BuildCacheName = "hook-cli-build"

// BuildOfCached is BuildOf(exe), remembered in runtimeDir for as long as
// exe is the same file: same path, device, inode, size, modification and
// change times (a rebuilt or reinstalled CLI changes at least one). The
// hook client names the CLI's build on every prompt, and reading it from
// the executable (its build info and ELF note, parsed twice) was 7% of
// the client's CPU (BENCHMARKS.md, round five of the resident prompt
// path). A stale or unreadable cache only costs the read; the file is
// rewritten best effort, without fsync.
func BuildOfCached(exe, runtimeDir string) string {
	sig, ok := fileSig(exe)
	if !ok {
		return BuildOf(exe)
	}
	path := filepath.Join(runtimeDir, BuildCacheName)
	if data, err := os.ReadFile(path); err == nil {
		if head, build, ok := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\n"); ok && head == sig && build != "" {
			return build
		}
	}
	build := BuildOf(exe)
	if build != "" && !strings.Contains(build, "\n") {
		if os.MkdirAll(runtimeDir, workspace.PrivateDir) == nil {
			_ = workspace.WriteFileBestEffort(runtimeDir, path, []byte(sig+"\n"+build+"\n"))
		}
	}
	return build
}

// fileSig is one line naming the file at path as it is now (path, device,
// inode, size, modification and, on Linux, change times in ns); false when it cannot
// be read or the path holds a line break.
func fileSig(path string) (string, bool) {
	fi, err := os.Stat(path)
	if err != nil || strings.ContainsAny(path, "\n\r") {
		return "", false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("v1 %d %d %d %d %d %q", st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano(), ctimeNS(st), path), true
}
