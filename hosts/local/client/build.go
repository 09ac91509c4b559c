package client

import (
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
)

// Build names the code this program was built from, so that a client
// takes answers only from a server that answers exactly as it would.
//
// The CLI and the TUI are two binaries, so the executable's own Go build
// ID (its ELF note) cannot match between them. A build stamped from a
// clean commit (vcs.modified=false) is named instead by its revision, Go
// version, main module and build settings: the CLI and TUI built from one
// commit with one toolchain and flags link the same engine code, and the
// same go.mod fixes every dependency's version. Any other build (a dirty
// tree, go run, -buildvcs=false) falls back to the executable's build ID,
// which changes with any change of the code; then only the same binary
// (the CLI's daemon or serve) answers. "" when neither can be read: no
// socket is used, two builds must not be confused.
func Build() string {
	buildOnce.Do(func() {
		if bi, ok := debug.ReadBuildInfo(); ok {
			if id := sourceBuild(bi); id != "" {
				buildID = id
				return
			}
		}
		if exe, err := os.Executable(); err == nil {
			buildID = elfBuildID(exe)
		}
	})
	return buildID
}

var (
	buildOnce sync.Once
	buildID   string
)

// BuildOf is Build of the program in the file exe, read without running
// it: the small hook client asks the socket in the name of the CLI it
// would otherwise run, so the answer is the one that CLI would print.
func BuildOf(exe string) string {
	if bi, err := buildinfo.ReadFile(exe); err == nil {
		if id := sourceBuild(bi); id != "" {
			return id
		}
	}
	return elfBuildID(exe)
}

// elfBuildID is "go-buildid:" and the Go build ID of the executable exe
// (its ELF note), "" when it has none.
func elfBuildID(exe string) string {
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

// sourceBuild names a build stamped from a clean commit by what decides
// its code: the revision, the Go version, the main module and every build
// setting (tags, flags, GOOS/GOARCH…). "" for a build that is not.
func sourceBuild(bi *debug.BuildInfo) string {
	var rev, modified string
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", bi.GoVersion, bi.Main.Path, bi.Main.Version)
	for _, st := range bi.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.modified":
			modified = st.Value
		}
		fmt.Fprintf(h, "%s=%s\x00", st.Key, st.Value)
	}
	if rev == "" || modified != "false" {
		return ""
	}
	return "go-source:" + hex.EncodeToString(h.Sum(nil))[:32]
}
