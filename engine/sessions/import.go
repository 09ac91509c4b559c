package sessions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"scriptorium/workspace/archive"
)

// maxLineBytes bounds one JSONL line. Reading stops at the first longer
// line: past it there may be no line end at all (import /dev/zero).
const maxLineBytes = 64 << 20

// maxBadLines bounds the bad lines reported for one file; reading stops
// there, since a file this wrong is probably not a turns file at all.
const maxBadLines = 1000

// importLine is the JSONL turn format of SPEC §7. Fields not listed here are
// ignored.
type importLine struct {
	Session        string  `json:"session"`
	Provider       string  `json:"provider"`
	ID             string  `json:"id"`
	Parent         *string `json:"parent"`
	Role           string  `json:"role"`
	Content        string  `json:"content"`
	SpeakerID      string  `json:"speaker_id"`
	SpeakerDisplay string  `json:"speaker_display"`
	Time           string  `json:"time"`
	Tier           string  `json:"tier"`
	Group          bool    `json:"group"`
	Synthetic      bool    `json:"synthetic"`
	// Title and Project, optional, say what the transcript importers keep
	// as metadata (MetaTitle, MetaProject): the chat's name and a coding
	// session's working directory, by which the writer names its files.
	Title   string `json:"title"`
	Project string `json:"project"`
}

// record is one valid line (or handed-over Node), ready to store: its
// line (1-based; a Node's position in its slice) and the index of its file
// in the batch.
type record struct {
	line int
	file int
	node Node
	// keep says the node's file is a chat export (ImportBatch.AddChatNodes):
	// a stored node with the same key keeps what was stored.
	keep bool
}

// problem is a LineError at the record's line.
func (r record) problem(format string, args ...any) LineError {
	return LineError{Line: r.line, File: r.file, Turn: r.key(), Message: fmt.Sprintf(format, args...)}
}

func (r record) key() Key { return r.node.Key() }

func (r record) parentKey() Key { return r.node.SessionKey().Node(r.node.Parent) }

// ImportResult is what Import stored.
type ImportResult struct {
	// Imported is the number of nodes newly stored.
	Imported int `json:"imported"`
	// Sessions is the number of distinct sessions (provider and session id)
	// that got new nodes.
	Sessions int `json:"sessions"`
	// Duplicate is the number of lines that repeat, field for field, a node
	// already stored or an earlier line of the file: they add nothing.
	Duplicate int `json:"duplicate"`
	// Forgotten is the number of lines for nodes the owner forgot: they add
	// nothing either, whatever they hold, so re-importing a transcript never
	// brings forgotten text back.
	Forgotten int `json:"forgotten"`
	// Changed is the number of chat turns (ImportBatch.AddChatNodes) whose
	// node is stored already with different fields (an edited message, a
	// renamed sender, a parent that changed when a message was deleted):
	// the stored node is kept as it was, since archives are append-only.
	Changed int `json:"changed"`
	// Retiered is the number of stored chat turns, not yet written, that
	// took the tier the import gave them (the owner named a sender as
	// owner or paired after a first import): nothing else of them changed.
	Retiered int `json:"retiered"`
	// TierKept is the number of stored chat turns whose tier the import
	// would change but that the writer has archived already: they keep
	// their tier (a pending one is promoted by the owner). They are
	// counted in Changed too.
	TierKept int `json:"tier_kept"`
}

// Import appends the JSONL turns read from r. Blank lines are skipped; a
// UTF-8 byte order mark before the first line is ignored. Every bad line is
// reported with its number in an *ImportError, and then nothing of the file
// is stored: the whole file is one transaction. A node is identified by
// (provider, session, id). A line that repeats a stored node exactly is a
// duplicate and adds nothing, so importing the same file twice stores it
// once; the same key with any field different is a bad line. A parent may
// appear anywhere in the file or already be in the store; it is looked up
// in the line's own provider and session.
//
// Import decides here what the writer will be able to archive, so that a
// session never fails later for good: see the package documentation for
// what is normalised, what is mapped and what is refused.
//
// Defaults: provider "openprogram", tier "owner". Times are required and
// are stored in UTC at second precision. Errors other than *ImportError
// (a read error, a database error) do not repeat the word "import": the
// caller names the operation. Import is an ImportBatch of one file.
func (s *Store) Import(r io.Reader) (ImportResult, error) {
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddJSONL(r); err != nil {
		return ImportResult{}, err
	}
	return b.Commit()
}

func importError(bad []LineError) *ImportError {
	sort.SliceStable(bad, func(i, j int) bool {
		if bad[i].File != bad[j].File {
			return bad[i].File < bad[j].File
		}
		return bad[i].Line < bad[j].Line
	})
	return &ImportError{Lines: bad}
}

// parsed is what parseImport read.
type parsed struct {
	recs []record
	// known holds the key of every line that decoded far enough to have
	// one, valid or not, so that a child of a bad line is not reported a
	// second time as an orphan.
	known map[Key]bool
	bad   []LineError
	// stopped is set when reading ended before the end of the input: a
	// line over the length limit, or too many bad lines.
	stopped bool
}

// parseImport reads every line and validates what can be checked without
// the store. Only a read error is returned as an error.
func parseImport(r io.Reader, limit int) (parsed, error) {
	p := parsed{known: map[Key]bool{}}
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, eof, err := readLine(br, limit)
		if err != nil {
			return parsed{}, fmt.Errorf("read line %d: %w", lineNo, err)
		}
		if tooLong {
			p.bad = append(p.bad, LineError{Line: lineNo, Message: fmt.Sprintf(
				"line is longer than %s, the limit for one turn; stopped reading here (is this a JSONL turns file?)", byteSize(limit))})
			p.stopped = true
			return p, nil
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.Trim(line, " \t\r")) > 0 {
			rec, problems := parseLine(line, p.known)
			for _, msg := range problems {
				p.bad = append(p.bad, LineError{Line: lineNo, Message: msg})
			}
			if len(problems) == 0 {
				rec.line = lineNo
				p.recs = append(p.recs, rec)
			}
			if len(p.bad) >= maxBadLines && !eof {
				p.bad = append(p.bad, LineError{Line: lineNo, Message: fmt.Sprintf(
					"more than %d bad lines; stopped reading after this one (is this a JSONL turns file?)", maxBadLines)})
				p.stopped = true
				return p, nil
			}
		}
		if eof {
			return p, nil
		}
	}
}

// byteSize formats a limit for a message: "64 MiB (67108864 bytes)".
func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readLine returns the next line without its LF. As soon as a line exceeds
// limit bytes it returns tooLong without reading further, so that an
// endless line (a device, a binary file without newlines) cannot keep it
// reading.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong, eof bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > limit {
			return nil, true, false, nil
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), false, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return line, false, true, nil
		default:
			return nil, false, false, err
		}
	}
}

// parseLine decodes and validates one non-blank line.
func parseLine(line []byte, known map[Key]bool) (record, []string) {
	// encoding/json would silently turn invalid UTF-8 into U+FFFD, which
	// breaks the byte-exact promise: refuse instead.
	if !utf8.Valid(line) {
		return record{}, []string{"line is not valid UTF-8"}
	}
	if t := bytes.TrimLeft(line, " \t\r"); len(t) == 0 || t[0] != '{' {
		return record{}, []string{"line is not a JSON object"}
	}
	var in importLine
	if err := json.Unmarshal(line, &in); err != nil {
		return record{}, []string{jsonProblem(err)}
	}
	n := Node{ID: in.ID, Session: in.Session, Provider: in.Provider, Role: in.Role, Content: in.Content,
		SpeakerID: in.SpeakerID, SpeakerDisplay: in.SpeakerDisplay, Tier: in.Tier, Group: in.Group, Synthetic: in.Synthetic}
	if in.Parent != nil {
		n.Parent = *in.Parent
	}
	if meta := lineMetadata(in); meta != nil {
		n.Metadata = meta
	}
	t, timeProblem := parseTime(in.Time)
	n.Time = t
	return checkNode(n, timeProblem, known)
}

// lineMetadata is a line's title and project as node metadata; nil when
// it has neither.
func lineMetadata(in importLine) json.RawMessage {
	m := map[string]string{}
	if in.Title != "" {
		m[MetaTitle] = in.Title
	}
	if in.Project != "" {
		m[MetaProject] = in.Project
	}
	if len(m) == 0 {
		return nil
	}
	data, _ := json.Marshal(m) // strings only: cannot fail
	return data
}

// checkNode validates one turn, read from a line or handed over as a Node,
// and returns it ready to store: defaults applied, the display name
// normalised, the time at second precision. The problems come in a fixed
// order, the time's (timeProblem, found by the caller) last. The key of a
// turn that has one is added to known, valid or not.
func checkNode(n Node, timeProblem string, known map[Key]bool) (record, []string) {
	if n.Provider == "" {
		n.Provider = DefaultProvider
	}
	if n.ID != "" {
		known[n.Key()] = true
	}
	var problems []string
	add := func(p string) {
		if p != "" {
			problems = append(problems, p)
		}
	}
	add(checkSession(n.Session))
	add(checkProvider(n.Provider))
	add(checkID("id", n.ID))
	if n.Parent != "" {
		add(checkID("parent", n.Parent))
		if n.Parent == n.ID {
			add("node is its own parent")
		}
	}
	add(checkRole(n.Role))
	add(checkNoNUL("content", n.Content))
	add(checkSpeakerID(n.SpeakerID))
	switch n.Tier {
	case "":
		n.Tier = TierOwner
	case TierOwner, TierPaired, TierUnpaired:
	default:
		add(fmt.Sprintf("unknown tier %q (want owner, paired or unpaired)", n.Tier))
	}
	meta, p := checkMetadata(n.Metadata)
	add(p)
	add(timeProblem)
	if len(problems) > 0 {
		return record{}, problems
	}
	// The archive shows a display name as a label half: one line, no
	// brackets or colons, at most 64 characters. Storing it that way means
	// every reader sees the name the archive will show.
	n.SpeakerDisplay = archive.NormalizeLabelPart(n.SpeakerDisplay)
	n.Metadata, n.Thread, n.Written = meta, "", ""
	return record{node: n}, nil
}

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q must be a %s, not %s", te.Field, te.Type, te.Value)
	}
	return "bad JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

// dedupeFile drops exact repeats of a node within the file, counting them,
// and reports a key that appears again with different fields.
func dedupeFile(recs []record, bad []LineError) ([]record, int, []LineError) {
	// The first of each key, by its index in out: a record is too large a
	// map value (each would be allocated apart).
	first := make(map[Key]int, len(recs))
	out := make([]record, 0, len(recs))
	dups := 0
	for _, r := range recs {
		i, seen := first[r.key()]
		if !seen {
			first[r.key()] = len(out)
			out = append(out, r)
			continue
		}
		prev := out[i]
		if f := differingField(prev.node, r.node); f != "" {
			bad = append(bad, r.problem("duplicate id %q in session %s: %s differs from line %d",
				r.node.ID, sessionName(r.node.SessionKey()), f, prev.line))
		} else {
			dups++
		}
	}
	return out, dups, bad
}

// sessionName names a session in a message: "s1" (provider openprogram).
func sessionName(k SessionKey) string {
	return fmt.Sprintf("%q (provider %s)", k.Session, k.norm().Provider)
}

// differingField names the first stored field in which a and b differ, or
// returns "". Metadata and the thread are not compared: they belong to the
// store.
func differingField(a, b Node) string {
	switch {
	case a.Session != b.Session:
		return "session"
	case a.Provider != b.Provider:
		return "provider"
	case a.Parent != b.Parent:
		return "parent"
	case a.Role != b.Role:
		return "role"
	case a.Content != b.Content:
		return "content"
	case a.SpeakerID != b.SpeakerID:
		return "speaker_id"
	case a.SpeakerDisplay != b.SpeakerDisplay:
		return "speaker_display"
	case !a.Time.Equal(b.Time):
		return "time"
	case a.Tier != b.Tier:
		return "tier"
	case a.Group != b.Group:
		return "group"
	case a.Synthetic != b.Synthetic:
		return "synthetic"
	}
	return ""
}
