package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"scriptorium/engine/importer"
	"scriptorium/termsafe"
)

// progressMinBytes is the input size from which import shows a progress
// bar: below it the import is over before a bar would be read.
const progressMinBytes = 8 << 20

// progressEvery bounds how often the bar is redrawn.
const progressEvery = 100 * time.Millisecond

// progressWidth is the bar's width in cells; with its label the line stays
// within an 80-column terminal.
const progressWidth = 40

// importProgress draws a one-line progress bar on stderr while import
// reads and stores its files (it is the import service's
// importer.Progress). It draws only on a terminal and only for large
// input, so scripts, pipes and --json output never see it; a nil
// *importProgress (the common case) does nothing.
type importProgress struct {
	w     io.Writer
	total int64

	mu    sync.Mutex
	read  int64
	drawn time.Time
}

// newImportProgress returns the progress of reading the inputs, or nil
// when no bar should be drawn.
func newImportProgress(inv *invocation, in importer.Inputs) *importProgress {
	f, ok := termsafe.Unwrap(inv.stderr).(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	total := in.Size() // -1 for stdin, which has no size to measure against
	if total < progressMinBytes {
		return nil
	}
	return &importProgress{w: f, total: total}
}

// Read counts n more bytes read towards the bar.
func (p *importProgress) Read(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.read += int64(n)
	if now := time.Now(); now.Sub(p.drawn) >= progressEvery {
		p.drawn = now
		frac := min(float64(p.read)/float64(p.total), 1)
		fmt.Fprintf(p.w, "\r%s %3.0f%% reading %d of %d MiB", progressBar(frac), 100*frac, p.read>>20, p.total>>20)
	}
}

// File is a file read and stored: the bar counts bytes, not files.
func (p *importProgress) File(importer.File) {}

// progressBar draws frac (0..1) as a bar of block characters. A plain
// redrawn line needs no terminal program, so it cannot disturb the
// terminal the way a full-screen component could.
func progressBar(frac float64) string {
	n := int(frac * progressWidth)
	return "[" + strings.Repeat("█", n) + strings.Repeat("░", progressWidth-n) + "]"
}

// Committing replaces the bar with the one step that has no progress to
// show: the commit of the transaction that stored every file.
func (p *importProgress) Committing() {
	if p == nil {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[Kcommitting the import…")
}

// done clears the line, so the result prints on a clean one.
func (p *importProgress) done() {
	if p == nil {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
}
