package sessions

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// maxLineBytes bounds one JSONL line; a longer line is reported, not stored.
const maxLineBytes = 64 << 20

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
}

// record is one valid line, ready to store.
type record struct {
	line int
	node Node
}

// Import appends the JSONL turns read from r and returns how many nodes were
// newly stored. Blank lines are skipped; a UTF-8 byte order mark before the
// first line is ignored. Every bad line is reported with its number in an
// *ImportError, and then nothing of the file is stored: the whole file is
// one transaction. A line that repeats an already stored node exactly is a
// no-op, so importing the same file twice stores it once; the same id with
// any field different is a bad line. A parent may appear anywhere in the
// file or already be in the store, and must belong to the same session.
//
// Defaults: provider "openprogram", tier "owner". Times are required and
// are stored in UTC at second precision.
func (s *Store) Import(r io.Reader) (int, error) {
	recs, known, bad, err := parseImport(r)
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	recs, bad = dedupeFile(recs, bad)

	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("import: begin: %w", err)
	}
	defer tx.Rollback()

	fresh, moreBad, err := checkAgainstStore(ctx, tx, recs, known)
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	bad = append(bad, moreBad...)
	bad = append(bad, findCycles(fresh)...)
	if len(bad) > 0 {
		sort.SliceStable(bad, func(i, j int) bool { return bad[i].Line < bad[j].Line })
		return 0, &ImportError{Lines: bad}
	}
	if err := insertNodes(ctx, tx, topoOrder(fresh)); err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("import: commit: %w", err)
	}
	return len(fresh), nil
}

// parseImport reads every line and validates what can be checked without
// the store. known holds the id of every line that decoded far enough to
// have one, valid or not, so that a child of a bad line is not reported a
// second time as an orphan.
func parseImport(r io.Reader) (recs []record, known map[string]bool, bad []LineError, err error) {
	known = map[string]bool{}
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, tooLong, eof, err := readLine(br, maxLineBytes)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("read line %d: %w", lineNo, err)
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		switch {
		case tooLong:
			bad = append(bad, LineError{lineNo, fmt.Sprintf("line is longer than %d bytes", maxLineBytes)})
		case len(bytes.Trim(line, " \t\r")) > 0:
			rec, problems := parseLine(line, lineNo, known)
			for _, p := range problems {
				bad = append(bad, LineError{lineNo, p})
			}
			if len(problems) == 0 {
				recs = append(recs, rec)
			}
		}
		if eof {
			return recs, known, bad, nil
		}
	}
}

// readLine returns the next line without its LF. A line over limit bytes
// is consumed but not kept.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong, eof bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(bytes.TrimSuffix(chunk, []byte("\n"))) > limit {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), tooLong, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return line, tooLong, true, nil
		default:
			return nil, false, false, err
		}
	}
}

// parseLine decodes and validates one non-blank line.
func parseLine(line []byte, lineNo int, known map[string]bool) (record, []string) {
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
	if in.ID != "" {
		known[in.ID] = true
	}
	var problems []string
	add := func(p string) {
		if p != "" {
			problems = append(problems, p)
		}
	}
	provider := in.Provider
	if provider == "" {
		provider = DefaultProvider
	}
	add(checkName("session", in.Session))
	add(checkName("provider", provider))
	add(checkID("id", in.ID))
	parent := ""
	if in.Parent != nil && *in.Parent != "" {
		parent = *in.Parent
		add(checkID("parent", parent))
		if parent == in.ID {
			add("node is its own parent")
		}
	}
	add(checkRole(in.Role))
	add(checkNoNUL("content", in.Content))
	add(checkNoNUL("speaker_id", in.SpeakerID))
	add(checkNoNUL("speaker_display", in.SpeakerDisplay))
	tier := in.Tier
	switch tier {
	case "":
		tier = TierOwner
	case TierOwner, TierPaired, TierUnpaired:
	default:
		add(fmt.Sprintf("unknown tier %q (want owner, paired or unpaired)", in.Tier))
	}
	t, p := parseTime(in.Time)
	add(p)
	if len(problems) > 0 {
		return record{}, problems
	}
	return record{line: lineNo, node: Node{
		ID: in.ID, Session: in.Session, Provider: provider, Parent: parent,
		Role: in.Role, Content: in.Content, SpeakerID: in.SpeakerID, SpeakerDisplay: in.SpeakerDisplay,
		Time: t, Tier: tier, Group: in.Group, Synthetic: in.Synthetic, Metadata: json.RawMessage("{}"),
	}}, nil
}

func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q must be a %s, not %s", te.Field, te.Type, te.Value)
	}
	return "bad JSON: " + strings.TrimPrefix(err.Error(), "json: ")
}

func parseTime(s string) (time.Time, string) {
	if s == "" {
		return time.Time{}, "missing time"
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Sprintf("bad time %q: want RFC 3339, e.g. 2026-08-10T12:00:00Z", s)
	}
	t = t.UTC().Truncate(time.Second)
	if t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, fmt.Sprintf("bad time %q: year out of range", s)
	}
	return t, ""
}

// checkID accepts ids that can sit inside a source-id and its HTML comment
// (SPEC §3.1): no whitespace or control characters, and no "--", which
// would end the comment.
func checkID(field, v string) string {
	switch {
	case v == "":
		return "missing " + field
	case len(v) > 512:
		return field + " is longer than 512 bytes"
	case strings.Contains(v, "--"):
		return fmt.Sprintf("%s %q contains \"--\"", field, v)
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError {
			return fmt.Sprintf("%s %q contains whitespace or a control character", field, v)
		}
	}
	return ""
}

// checkName additionally requires a safe path segment: the session id is
// the archive's thread name and the provider its directory (SPEC §3.1).
func checkName(field, v string) string {
	if p := checkID(field, v); p != "" {
		return p
	}
	switch {
	case len(v) > 200:
		return field + " is longer than 200 bytes"
	case v == "." || strings.Contains(v, ".."):
		return fmt.Sprintf("%s %q is not a safe path segment", field, v)
	case strings.ContainsAny(v, `/\`):
		return fmt.Sprintf("%s %q contains a slash", field, v)
	}
	return ""
}

func checkRole(v string) string {
	if v == "" {
		return "missing role"
	}
	if len(v) > 32 {
		return "role is longer than 32 bytes"
	}
	for i, r := range v {
		lower := r >= 'a' && r <= 'z'
		if !lower && (i == 0 || !(r >= '0' && r <= '9' || r == '_' || r == '-')) {
			return fmt.Sprintf("bad role %q: want lower-case letters such as user, assistant, tool, system", v)
		}
	}
	return ""
}

func checkNoNUL(field, v string) string {
	if strings.IndexByte(v, 0) >= 0 {
		return field + " contains a NUL character (U+0000), which the store does not accept"
	}
	return ""
}

// dedupeFile drops exact repeats of a node within the file and reports an
// id that appears again with different fields.
func dedupeFile(recs []record, bad []LineError) ([]record, []LineError) {
	first := map[string]record{}
	out := recs[:0]
	for _, r := range recs {
		prev, seen := first[r.node.ID]
		if !seen {
			first[r.node.ID] = r
			out = append(out, r)
			continue
		}
		if f := differingField(prev.node, r.node); f != "" {
			bad = append(bad, LineError{r.line, fmt.Sprintf("duplicate id %q: %s differs from line %d", r.node.ID, f, prev.line)})
		}
	}
	return out, bad
}

// differingField names the first stored field in which a and b differ, or
// returns "". Metadata is not compared: it belongs to the store.
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

// checkAgainstStore compares the file with what is stored and returns the
// records that are new. It runs inside the import transaction so that no
// other writer can change the answer before the insert.
func checkAgainstStore(ctx context.Context, tx *sql.Tx, recs []record, known map[string]bool) ([]record, []LineError, error) {
	var wanted []string // node ids and parent ids to look up
	var sessionIDs []string
	seenSession := map[string]bool{}
	for _, r := range recs {
		wanted = append(wanted, r.node.ID)
		if r.node.Parent != "" {
			wanted = append(wanted, r.node.Parent)
		}
		if !seenSession[r.node.Session] {
			seenSession[r.node.Session] = true
			sessionIDs = append(sessionIDs, r.node.Session)
		}
	}
	stored, err := storedNodes(ctx, tx, wanted)
	if err != nil {
		return nil, nil, err
	}
	providers, err := storedProviders(ctx, tx, sessionIDs)
	if err != nil {
		return nil, nil, err
	}

	inFile := make(map[string]Node, len(recs))
	for _, r := range recs {
		inFile[r.node.ID] = r.node
	}
	var fresh []record
	var bad []LineError
	fileProvider := map[string]record{} // session -> first new record naming it
	for _, r := range recs {
		n := r.node
		if old, ok := stored[n.ID]; ok {
			if f := differingField(old, n); f != "" {
				bad = append(bad, LineError{r.line, fmt.Sprintf("id %q is already stored with a different %s", n.ID, f)})
			}
			continue // identical: a no-op
		}
		fresh = append(fresh, r)

		if sp, ok := providers[n.Session]; ok {
			if sp != n.Provider {
				bad = append(bad, LineError{r.line, fmt.Sprintf("session %q is stored with provider %q, not %q", n.Session, sp, n.Provider)})
			}
		} else if f, seen := fileProvider[n.Session]; !seen {
			fileProvider[n.Session] = r
		} else if f.node.Provider != n.Provider {
			bad = append(bad, LineError{r.line, fmt.Sprintf("session %q has provider %q on line %d, not %q", n.Session, f.node.Provider, f.line, n.Provider)})
		}

		if n.Parent == "" {
			continue
		}
		p, ok := inFile[n.Parent]
		if !ok {
			p, ok = stored[n.Parent]
		}
		switch {
		case !ok && !known[n.Parent]: // a bad line's id was already reported
			bad = append(bad, LineError{r.line, fmt.Sprintf("parent %q not found in the file or the store", n.Parent)})
		case ok && p.Session != n.Session:
			bad = append(bad, LineError{r.line, fmt.Sprintf("parent %q belongs to session %q, not %q", n.Parent, p.Session, n.Session)})
		}
	}
	return fresh, bad, nil
}

// lookupChunk bounds the number of bound variables per IN (...) query.
const lookupChunk = 500

// inChunks runs fn over ids in chunks, with a "?, ?, …" placeholder list.
func inChunks(ids []string, fn func(placeholders string, args []any) error) error {
	for len(ids) > 0 {
		n := min(len(ids), lookupChunk)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		if err := fn(strings.TrimSuffix(strings.Repeat("?, ", n), ", "), args); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// nodesByIDQuery selects the nodes whose ids fill the placeholders.
func nodesByIDQuery(placeholders string) string {
	return `SELECT ` + nodeColumns + ` FROM nodes n JOIN sessions s ON s.id = n.session WHERE n.id IN (` + placeholders + `)`
}

// storedNodes returns the stored nodes among ids, by id.
func storedNodes(ctx context.Context, tx *sql.Tx, ids []string) (map[string]Node, error) {
	out := map[string]Node{}
	err := inChunks(ids, func(ph string, args []any) error {
		rows, err := tx.QueryContext(ctx, nodesByIDQuery(ph), args...)
		if err != nil {
			return fmt.Errorf("look up nodes: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			n, err := scanNode(rows)
			if err != nil {
				return fmt.Errorf("look up nodes: %w", err)
			}
			out[n.ID] = n
		}
		return rows.Err()
	})
	return out, err
}

// storedProviders returns the provider of each stored session among ids.
func storedProviders(ctx context.Context, tx *sql.Tx, ids []string) (map[string]string, error) {
	out := map[string]string{}
	err := inChunks(ids, func(ph string, args []any) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, provider FROM sessions WHERE id IN (`+ph+`)`, args...)
		if err != nil {
			return fmt.Errorf("look up sessions: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var id, provider string
			if err := rows.Scan(&id, &provider); err != nil {
				return fmt.Errorf("look up sessions: %w", err)
			}
			out[id] = provider
		}
		return rows.Err()
	})
	return out, err
}

// findCycles reports new nodes whose parent chain loops. Stored nodes can
// never be part of a loop: they are immutable and were acyclic when stored.
func findCycles(fresh []record) []LineError {
	byID := make(map[string]record, len(fresh))
	for _, r := range fresh {
		byID[r.node.ID] = r
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[string]int, len(fresh))
	var bad []LineError
	for _, r := range fresh {
		var path []string
		id := r.node.ID
		for {
			cur, ok := byID[id]
			if !ok || state[id] == done {
				break
			}
			if state[id] == onPath {
				// Report every node of the loop, from where it closes.
				i := 0
				for path[i] != id {
					i++
				}
				for _, c := range path[i:] {
					bad = append(bad, LineError{byID[c].line, fmt.Sprintf("node %q is its own ancestor (the parent chain loops)", c)})
				}
				break
			}
			state[id] = onPath
			path = append(path, id)
			id = cur.node.Parent
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return bad
}

// topoOrder returns the records with every parent before its children,
// otherwise in file order, so that node seq increases along every path.
func topoOrder(fresh []record) []record {
	byID := make(map[string]int, len(fresh))
	for i, r := range fresh {
		byID[r.node.ID] = i
	}
	placed := make([]bool, len(fresh))
	out := make([]record, 0, len(fresh))
	for i := range fresh {
		// Collect the unplaced ancestors within the file, then place them
		// root first.
		var chain []int
		for j, ok := i, true; ok && !placed[j]; j, ok = byID[fresh[j].node.Parent] {
			chain = append(chain, j)
			placed[j] = true
		}
		for k := len(chain) - 1; k >= 0; k-- {
			out = append(out, fresh[chain[k]])
		}
	}
	return out
}

const (
	upsertSessionQuery = `INSERT INTO sessions(id, provider, first_time, last_time) VALUES (?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET first_time = min(first_time, excluded.first_time), last_time = max(last_time, excluded.last_time)`
	// The nodes_has_children trigger marks the parent; the parent's seq is
	// looked up here so walks can follow integer keys.
	insertNodeQuery = `INSERT INTO nodes(id, session, parent, parent_seq, role, content, speaker_id, speaker_display, time, tier, grp, synthetic)
		VALUES (?1, ?2, nullif(?3, ''), (SELECT seq FROM nodes WHERE id = ?3), ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`
)

// insertNodes stores new records, which must come parents first.
func insertNodes(ctx context.Context, tx *sql.Tx, recs []record) error {
	type span struct{ provider, first, last string }
	spans := map[string]*span{}
	var order []string
	for _, r := range recs {
		ts := formatTime(r.node.Time)
		sp, ok := spans[r.node.Session]
		if !ok {
			spans[r.node.Session] = &span{r.node.Provider, ts, ts}
			order = append(order, r.node.Session)
			continue
		}
		sp.first, sp.last = min(sp.first, ts), max(sp.last, ts)
	}
	for _, id := range order {
		sp := spans[id]
		if _, err := tx.ExecContext(ctx, upsertSessionQuery, id, sp.provider, sp.first, sp.last); err != nil {
			return fmt.Errorf("store session %q: %w", id, err)
		}
	}

	insert, err := tx.PrepareContext(ctx, insertNodeQuery)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer insert.Close()
	for _, r := range recs {
		n := r.node
		if _, err := insert.ExecContext(ctx, n.ID, n.Session, n.Parent, n.Role, n.Content,
			n.SpeakerID, n.SpeakerDisplay, formatTime(n.Time), n.Tier, n.Group, n.Synthetic); err != nil {
			return fmt.Errorf("store node %q (line %d): %w", n.ID, r.line, err)
		}
	}
	return nil
}
