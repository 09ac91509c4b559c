package prompt

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/workspace"
)

// TestUpdateHookStatus_RewritesOnlyAChange: a change that leaves the file's
// bytes as they are (the index-state note of every prompt answered from a
// fresh index) does not rewrite it; a real change, a damaged file and a
// missing one are written.
func TestUpdateHookStatus_RewritesOnlyAChange(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(workspace.MemoryDir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	path := HookPath(dir)
	ino := func() uint64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	now := time.Date(2026, 12, 4, 17, 0, 0, 0, time.UTC)
	fresh := func(st *HookStatus, _ string) { st.StaleIndexAt = "" }
	UpdateHookStatus(dir, now, fresh) // missing: written
	first := ino()
	UpdateHookStatus(dir, now.Add(time.Minute), fresh)
	if ino() != first {
		t.Fatal("an update that changed nothing rewrote the file")
	}
	RecordHook(dir, now, "UserPromptSubmit", nil)
	if ino() == first {
		t.Fatal("a success was not written")
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"last_event": "UserPromptSubmit"`) {
		t.Fatalf("status file: %s", data)
	}
	if err := os.WriteFile(path, []byte("{damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	UpdateHookStatus(dir, now, fresh)
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), "{\n") {
		t.Fatalf("a damaged file was not replaced: %q", data)
	}
}
