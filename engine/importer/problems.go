package importer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
)

// violationCode is the code of every violation an import reports.
const violationCode = "bad_line"

// parseViolation is a file the parsers refused, or that could not be read.
func parseViolation(path string, err error) errcode.Violation {
	var te *transcript.Error
	if errors.As(err, &te) {
		msg := te.Message
		if te.Record != "" {
			msg = "record " + te.Record + ": " + msg
		}
		if strings.HasPrefix(te.File, path+"/") {
			path = te.File // a file of an export (a Slack day file): its line is in it
		}
		return errcode.Violation{Code: violationCode, Path: path, Line: te.Line, Message: msg}
	}
	return errcode.Violation{Code: violationCode, Path: path, Message: err.Error()}
}

// trace maps the store's problems back to their files: a JSONL file's own
// line, or the parsed turn (and, where the format has one, the line that
// holds it).
func (im *run) trace(ie *sessions.ImportError) []errcode.Violation {
	out := make([]errcode.Violation, 0, len(ie.Lines))
	for _, l := range ie.Lines {
		if l.File < 0 || l.File >= len(im.added) {
			out = append(out, errcode.Violation{Code: violationCode, Path: "-", Line: l.Line, Message: l.Message})
			continue
		}
		f := im.added[l.File]
		row, _ := formatOf(f.Format)
		if row.parse == nil {
			out = append(out, errcode.Violation{Code: violationCode, Path: f.Path, Line: l.Line, Message: l.Message})
			continue
		}
		v := errcode.Violation{Code: violationCode, Path: f.Path,
			Message: fmt.Sprintf("turn %q of session %q: %s", l.Turn.ID, l.Turn.Session, l.Message)}
		if row.lineOf != nil && f.Path != "-" {
			v.Line = row.lineOf(f.Path, l.Turn.ID)
		}
		out = append(out, v)
	}
	return out
}

// reject is the INVALID_ARGUMENT of a malformed input.
func reject(v []errcode.Violation) error {
	files := map[string]bool{}
	for _, x := range v {
		files[x.Path] = true
	}
	return &errcode.Error{Code: errcode.InvalidArgument, Violations: v,
		Message: fmt.Sprintf("%d problem(s) in %d file(s); nothing was imported", len(v), len(files))}
}

// lineOfUUID finds the line of a Claude Code file that carries uuid, or 0.
// It runs only on the rare path of a refused turn, so reading the file
// again is fine.
func lineOfUUID(path, uuid string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	needle := []byte(`"uuid":"` + uuid + `"`)
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if bytes.Contains(line, needle) {
			return n
		}
		if err != nil {
			return 0
		}
	}
}
