package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/importer"
)

// TestImport_ProgressOnlyOnTerminals: the bar is never drawn into a pipe,
// a buffer or for stdin, so --json output and scripts never see it.
func TestImport_ProgressOnlyOnTerminals(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(big, bytes.Repeat([]byte("\n"), progressMinBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, stderr := range []io.Writer{&bytes.Buffer{}, f} {
		if p := newImportProgress(&invocation{stderr: stderr}, importer.Inputs{Items: []importer.Input{{Path: big, Size: progressMinBytes + 1}}}); p != nil {
			t.Errorf("a bar for %T, which is no terminal", stderr)
		}
	}
	// A nil progress draws nothing (and does not panic).
	var p *importProgress
	p.Read(3)
	p.Committing()
	p.done()
}

// TestImport_ProgressBar: the bar fills with the fraction read and keeps
// its width.
func TestImport_ProgressBar(t *testing.T) {
	var out bytes.Buffer
	p := &importProgress{w: &out, total: 100}
	p.Read(50)
	if !strings.Contains(out.String(), " 50% reading") {
		t.Errorf("drawn %q", out.String())
	}
	for _, frac := range []float64{0, 0.5, 1} {
		if n := len([]rune(progressBar(frac))); n != progressWidth+2 {
			t.Errorf("bar at %v is %d cells", frac, n)
		}
	}
	p.done()
	if !strings.HasSuffix(out.String(), "\r\x1b[K") {
		t.Errorf("done does not clear the line: %q", out.String())
	}
}
