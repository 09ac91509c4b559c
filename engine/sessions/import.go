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
	"strconv"
	"strings"
	"time"
	"unicode"
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
}

// record is one valid line, ready to store.
type record struct {
	line int
	node Node
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
// caller names the operation.
func (s *Store) Import(r io.Reader) (ImportResult, error) {
	p, err := parseImport(r, maxLineBytes)
	if err != nil {
		return ImportResult{}, err
	}
	recs, dups, bad := dedupeFile(p.recs, p.bad)
	if p.stopped {
		// The file was not read to its end: checking the rest against the
		// store would only report parents and ids of unread lines.
		return ImportResult{}, importError(bad)
	}

	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: see dsn
	if err != nil {
		return ImportResult{}, fmt.Errorf("begin transaction: %w", err)
	}
	defer tx.Rollback()

	plan, err := checkAgainstStore(ctx, tx, recs, p.known)
	if err != nil {
		return ImportResult{}, err
	}
	bad = append(bad, plan.bad...)
	bad = append(bad, findCycles(plan.fresh)...)
	if len(bad) > 0 {
		return ImportResult{}, importError(bad)
	}
	if err := insertNodes(ctx, tx, topoOrder(plan.fresh), plan.sessions); err != nil {
		return ImportResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return ImportResult{}, fmt.Errorf("commit: %w", err)
	}
	touched := map[SessionKey]bool{}
	for _, r := range plan.fresh {
		touched[r.node.SessionKey()] = true
	}
	return ImportResult{Imported: len(plan.fresh), Sessions: len(touched), Duplicate: dups + plan.duplicates,
		Forgotten: plan.forgotten}, nil
}

func importError(bad []LineError) *ImportError {
	sort.SliceStable(bad, func(i, j int) bool { return bad[i].Line < bad[j].Line })
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
			p.bad = append(p.bad, LineError{lineNo, fmt.Sprintf(
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
				p.bad = append(p.bad, LineError{lineNo, msg})
			}
			if len(problems) == 0 {
				rec.line = lineNo
				p.recs = append(p.recs, rec)
			}
			if len(p.bad) >= maxBadLines && !eof {
				p.bad = append(p.bad, LineError{lineNo, fmt.Sprintf(
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
	provider := in.Provider
	if provider == "" {
		provider = DefaultProvider
	}
	if in.ID != "" {
		known[Key{provider, in.Session, in.ID}] = true
	}
	var problems []string
	add := func(p string) {
		if p != "" {
			problems = append(problems, p)
		}
	}
	add(checkSession(in.Session))
	add(checkProvider(provider))
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
	add(checkSpeakerID(in.SpeakerID))
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
	return record{node: Node{
		ID: in.ID, Session: in.Session, Provider: provider, Parent: parent,
		Role: in.Role, Content: in.Content, SpeakerID: in.SpeakerID,
		// The archive shows a display name as a label half: one line, no
		// brackets or colons, at most 64 characters. Storing it that way
		// means every reader sees the name the archive will show.
		SpeakerDisplay: archive.NormalizeLabelPart(in.SpeakerDisplay),
		Time:           t, Tier: tier, Group: in.Group, Synthetic: in.Synthetic, Metadata: json.RawMessage("{}"),
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
// (SPEC §3.1): no whitespace or control characters, no "--", which would
// end the comment, and no '>'.
func checkID(field, v string) string {
	switch {
	case v == "":
		return "missing " + field
	case len(v) > 512:
		return field + " is longer than 512 bytes"
	case strings.Contains(v, "--"):
		return fmt.Sprintf("%s %q contains \"--\", which cannot appear in a source-id", field, v)
	case strings.Contains(v, ">"):
		return fmt.Sprintf("%s %q contains '>', which cannot appear in a source-id", field, v)
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError {
			return fmt.Sprintf("%s %q contains whitespace or a control character", field, v)
		}
	}
	return ""
}

// checkSession accepts any session id a chat may use, up to 200 bytes and
// without control characters: a session id that is not a portable file
// name is given an escaped thread name (see threadName), not refused.
func checkSession(v string) string {
	switch {
	case v == "":
		return "missing session"
	case len(v) > maxThreadBytes:
		return fmt.Sprintf("session is longer than %d bytes", maxThreadBytes)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Sprintf("session %q contains a control character (%U)", v, r)
		}
	}
	return ""
}

// checkProvider refuses what cannot be a provider name at all; whether the
// name is portable is checked against the store (checkNewProviders), which
// keeps accepting a provider it already holds.
func checkProvider(v string) string {
	if p := checkID("provider", v); p != "" {
		return p
	}
	switch {
	case len(v) > 100:
		return "provider is longer than 100 bytes"
	case strings.ContainsAny(v, `/\`):
		return fmt.Sprintf("provider %q contains a slash", v)
	}
	return ""
}

// checkSpeakerID refuses speaker ids the archive could not label: the id is
// stored raw (the archive encodes it), but its label half must show
// something and it must stay on one line.
func checkSpeakerID(v string) string {
	if v == "" {
		return ""
	}
	if len(v) > 512 {
		return "speaker_id is longer than 512 bytes"
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Sprintf("speaker_id %q contains a control character (%U)", v, r)
		}
	}
	if archive.NormalizeLabelPart(v) == "" {
		return fmt.Sprintf("speaker_id %q has no visible characters", v)
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

// dedupeFile drops exact repeats of a node within the file, counting them,
// and reports a key that appears again with different fields.
func dedupeFile(recs []record, bad []LineError) ([]record, int, []LineError) {
	first := map[Key]record{}
	out := recs[:0:0]
	dups := 0
	for _, r := range recs {
		prev, seen := first[r.key()]
		if !seen {
			first[r.key()] = r
			out = append(out, r)
			continue
		}
		if f := differingField(prev.node, r.node); f != "" {
			bad = append(bad, LineError{r.line, fmt.Sprintf("duplicate id %q in session %s: %s differs from line %d",
				r.node.ID, sessionName(r.node.SessionKey()), f, prev.line)})
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

// sessionPlan is a session the import stores nodes in.
type sessionPlan struct {
	seq    int64 // 0 for a session the import creates
	thread string
}

// importPlan is what checkAgainstStore decided.
type importPlan struct {
	fresh      []record // lines to store
	duplicates int      // lines that repeat a stored node exactly
	forgotten  int      // lines for stored nodes the owner forgot
	sessions   map[SessionKey]*sessionPlan
	bad        []LineError
}

// checkAgainstStore compares the file with what is stored, names the
// threads of new sessions and checks that the writer can archive every new
// node. It runs inside the import transaction so that no other writer can
// change the answer before the insert.
func checkAgainstStore(ctx context.Context, tx *sql.Tx, recs []record, known map[Key]bool) (*importPlan, error) {
	plan := &importPlan{sessions: map[SessionKey]*sessionPlan{}}
	// The ids to look up, per session, in file order of the sessions.
	var order []SessionKey
	wanted := map[SessionKey][]string{}
	for _, r := range recs {
		sk := r.node.SessionKey()
		if _, ok := wanted[sk]; !ok {
			order = append(order, sk)
		}
		wanted[sk] = append(wanted[sk], r.node.ID)
		if r.node.Parent != "" {
			wanted[sk] = append(wanted[sk], r.node.Parent)
		}
	}
	stored := map[Key]Node{}
	for _, sk := range order {
		sp, err := storedSession(ctx, tx, sk)
		if err != nil {
			return nil, err
		}
		if sp == nil {
			continue
		}
		plan.sessions[sk] = sp
		if err := storedNodes(ctx, tx, sp.seq, wanted[sk], stored); err != nil {
			return nil, err
		}
	}

	inFile := make(map[Key]bool, len(recs))
	for _, r := range recs {
		inFile[r.key()] = true
	}
	for _, r := range recs {
		n := r.node
		if old, ok := stored[r.key()]; ok {
			if old.Forgotten() {
				plan.forgotten++
				continue
			}
			if f := differingField(old, n); f != "" {
				plan.bad = append(plan.bad, LineError{r.line, fmt.Sprintf("id %q is already stored in session %s with a different %s",
					n.ID, sessionName(n.SessionKey()), f)})
			} else {
				plan.duplicates++
			}
			continue
		}
		plan.fresh = append(plan.fresh, r)
		if n.Parent == "" {
			continue
		}
		pk := r.parentKey()
		if _, ok := stored[pk]; !ok && !inFile[pk] && !known[pk] { // a bad line's key was already reported
			plan.bad = append(plan.bad, LineError{r.line, fmt.Sprintf("parent %q not found in session %s, in the file or the store",
				n.Parent, sessionName(n.SessionKey()))})
		}
	}

	providerBad, err := checkNewProviders(ctx, tx, plan.fresh)
	if err != nil {
		return nil, err
	}
	plan.bad = append(plan.bad, providerBad...)
	threadBad, err := nameNewSessions(ctx, tx, plan)
	if err != nil {
		return nil, err
	}
	plan.bad = append(plan.bad, threadBad...)
	for _, r := range plan.fresh {
		sp := plan.sessions[r.node.SessionKey()]
		if sp == nil {
			continue // its session could not be named; already reported
		}
		n := r.node
		n.Thread = sp.thread
		rec := archive.Record{SourceID: n.SourceID(), Role: n.Role, SpeakerID: n.SpeakerID,
			SpeakerDisplay: n.SpeakerDisplay, Time: n.Time, Content: n.Content}
		if err := rec.Validate(); err != nil {
			// A safety net: the checks above are meant to refuse all of this.
			plan.bad = append(plan.bad, LineError{r.line, fmt.Sprintf("the writer could not archive this turn: %v", err)})
		}
	}
	return plan, nil
}

// storedSession returns the stored session sk, or nil.
func storedSession(ctx context.Context, tx *sql.Tx, sk SessionKey) (*sessionPlan, error) {
	sp := &sessionPlan{}
	err := tx.QueryRowContext(ctx, `SELECT seq, thread FROM sessions WHERE provider = ? AND id = ?`, sk.Provider, sk.Session).Scan(&sp.seq, &sp.thread)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("look up session %s: %w", sessionName(sk), err)
	}
	return sp, nil
}

// checkNewProviders refuses a provider the store does not hold yet when its
// name is not portable, or when it differs from a stored or earlier one
// only by case or Unicode form: the two would share one sources/ directory
// on a case-insensitive file system.
func checkNewProviders(ctx context.Context, tx *sql.Tx, fresh []record) ([]LineError, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT provider FROM sessions`)
	if err != nil {
		return nil, fmt.Errorf("look up providers: %w", err)
	}
	have := map[string]bool{}
	folded := map[string]string{} // FoldKey -> the spelling in use
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			rows.Close()
			return nil, fmt.Errorf("look up providers: %w", err)
		}
		have[p] = true
		folded[archive.FoldKey(p)] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("look up providers: %w", err)
	}
	var bad []LineError
	for _, r := range fresh {
		p := r.node.Provider
		if have[p] {
			continue
		}
		if !portableName(p) {
			bad = append(bad, LineError{r.line, fmt.Sprintf("provider %q cannot be a directory name on every system: "+
				"use letters, digits and %s, not starting or ending with '.'", p, portableNameChars)})
			continue
		}
		k := archive.FoldKey(p)
		if other, ok := folded[k]; ok && other != p {
			bad = append(bad, LineError{r.line, fmt.Sprintf("provider %q differs from provider %q only by case or Unicode form; "+
				"they would share one directory: spell it %q", p, other, other)})
			continue
		}
		folded[k] = p
	}
	return bad, nil
}

// nameNewSessions gives every new session of plan its thread name: the
// first of threadCandidates that no other session of the provider, stored
// or new, holds (compared by archive.FoldKey).
func nameNewSessions(ctx context.Context, tx *sql.Tx, plan *importPlan) ([]LineError, error) {
	taken := map[string]bool{} // provider + "\x00" + FoldKey(thread), for this file
	var bad []LineError
	for _, r := range plan.fresh {
		sk := r.node.SessionKey()
		if _, ok := plan.sessions[sk]; ok {
			continue
		}
		thread := ""
		for _, c := range threadCandidates(sk.Session) {
			k := archive.FoldKey(c)
			if taken[sk.Provider+"\x00"+k] {
				continue
			}
			var n int
			if err := tx.QueryRowContext(ctx, threadTakenQuery, sk.Provider, k).Scan(&n); err != nil {
				return nil, fmt.Errorf("look up thread names: %w", err)
			}
			if n == 0 {
				thread = c
				taken[sk.Provider+"\x00"+k] = true
				break
			}
		}
		if thread == "" {
			bad = append(bad, LineError{r.line, fmt.Sprintf("session %s: every archive thread name it could have is taken by another session", sessionName(sk))})
			plan.sessions[sk] = nil
			continue
		}
		plan.sessions[sk] = &sessionPlan{thread: thread}
	}
	return bad, nil
}

// threadTakenQuery counts the sessions of a provider holding a thread key.
const threadTakenQuery = `SELECT count(*) FROM sessions WHERE provider = ? AND thread_key = ?`

// lookupChunk bounds the number of bound variables per IN (...) query.
const lookupChunk = 500

// nodesInSessionQuery selects the nodes of one session (?1) whose ids fill
// the placeholders.
func nodesInSessionQuery(placeholders string) string {
	return `SELECT ` + nodeColumns + ` FROM nodes n JOIN sessions s ON s.seq = n.session
 WHERE n.session = ?1 AND n.id IN (` + placeholders + `)`
}

// storedNodes adds the stored nodes of session seq among ids to out.
func storedNodes(ctx context.Context, tx *sql.Tx, seq int64, ids []string, out map[Key]Node) error {
	for len(ids) > 0 {
		n := min(len(ids), lookupChunk)
		args := make([]any, 0, n+1)
		args = append(args, seq)
		ph := make([]string, n)
		for i, id := range ids[:n] {
			args = append(args, id)
			ph[i] = "?" + strconv.Itoa(i+2)
		}
		ids = ids[n:]
		if err := func() error {
			rows, err := tx.QueryContext(ctx, nodesInSessionQuery(strings.Join(ph, ", ")), args...)
			if err != nil {
				return fmt.Errorf("look up nodes: %w", err)
			}
			defer rows.Close()
			for rows.Next() {
				node, err := scanNode(rows)
				if err != nil {
					return fmt.Errorf("look up nodes: %w", err)
				}
				out[node.Key()] = node
			}
			return rows.Err()
		}(); err != nil {
			return err
		}
	}
	return nil
}

// findCycles reports new nodes whose parent chain loops. Stored nodes can
// never be part of a loop: they are immutable and were acyclic when stored.
func findCycles(fresh []record) []LineError {
	byKey := make(map[Key]record, len(fresh))
	for _, r := range fresh {
		byKey[r.key()] = r
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[Key]int, len(fresh))
	var bad []LineError
	for _, r := range fresh {
		var path []Key
		k := r.key()
		for {
			cur, ok := byKey[k]
			if !ok || state[k] == done {
				break
			}
			if state[k] == onPath {
				// Report every node of the loop, from where it closes.
				i := 0
				for path[i] != k {
					i++
				}
				for _, c := range path[i:] {
					bad = append(bad, LineError{byKey[c].line, fmt.Sprintf("node %q is its own ancestor (the parent chain loops)", c.ID)})
				}
				break
			}
			state[k] = onPath
			path = append(path, k)
			if cur.node.Parent == "" {
				break
			}
			k = cur.parentKey()
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
	byKey := make(map[Key]int, len(fresh))
	for i, r := range fresh {
		byKey[r.key()] = i
	}
	placed := make([]bool, len(fresh))
	out := make([]record, 0, len(fresh))
	for i := range fresh {
		// Collect the unplaced ancestors within the file, then place them
		// root first.
		var chain []int
		for j, ok := i, true; ok && !placed[j]; {
			chain = append(chain, j)
			placed[j] = true
			if fresh[j].node.Parent == "" {
				break
			}
			j, ok = byKey[fresh[j].parentKey()]
		}
		for k := len(chain) - 1; k >= 0; k-- {
			out = append(out, fresh[chain[k]])
		}
	}
	return out
}

const (
	insertSessionQuery = `INSERT INTO sessions(provider, id, thread, thread_key, first_time, last_time)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING seq`
	widenSessionQuery = `UPDATE sessions SET first_time = min(first_time, ?2), last_time = max(last_time, ?3) WHERE seq = ?1`
	// The nodes_has_children trigger marks the parent; the parent's seq is
	// looked up in the node's own session so walks can follow integer keys.
	insertNodeQuery = `INSERT INTO nodes(session, id, parent, parent_seq, role, content, speaker_id, speaker_display, time, tier, grp, synthetic)
		VALUES (?1, ?2, nullif(?3, ''), (SELECT seq FROM nodes WHERE session = ?1 AND id = ?3), ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`
)

// insertNodes stores new records, which must come parents first, creating
// or widening their sessions.
func insertNodes(ctx context.Context, tx *sql.Tx, recs []record, sessions map[SessionKey]*sessionPlan) error {
	type span struct{ first, last string }
	spans := map[SessionKey]*span{}
	var order []SessionKey
	for _, r := range recs {
		ts := formatTime(r.node.Time)
		sk := r.node.SessionKey()
		sp, ok := spans[sk]
		if !ok {
			spans[sk] = &span{ts, ts}
			order = append(order, sk)
			continue
		}
		sp.first, sp.last = min(sp.first, ts), max(sp.last, ts)
	}
	for _, sk := range order {
		sp, plan := spans[sk], sessions[sk]
		if plan.seq != 0 {
			if _, err := tx.ExecContext(ctx, widenSessionQuery, plan.seq, sp.first, sp.last); err != nil {
				return fmt.Errorf("store session %s: %w", sessionName(sk), err)
			}
			continue
		}
		if err := tx.QueryRowContext(ctx, insertSessionQuery, sk.Provider, sk.Session, plan.thread,
			archive.FoldKey(plan.thread), sp.first, sp.last).Scan(&plan.seq); err != nil {
			return fmt.Errorf("store session %s: %w", sessionName(sk), err)
		}
	}

	insert, err := tx.PrepareContext(ctx, insertNodeQuery)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer insert.Close()
	for _, r := range recs {
		n := r.node
		if _, err := insert.ExecContext(ctx, sessions[n.SessionKey()].seq, n.ID, n.Parent, n.Role, n.Content,
			n.SpeakerID, n.SpeakerDisplay, formatTime(n.Time), n.Tier, n.Group, n.Synthetic); err != nil {
			return fmt.Errorf("store node %s (line %d): %w", n.Key(), r.line, err)
		}
	}
	return nil
}
