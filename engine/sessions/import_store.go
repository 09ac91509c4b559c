package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"scriptorium/workspace/archive"
)

// The store half of an import: what the lines mean against the nodes and
// sessions already stored, naming new sessions, cycles and insertion.

// sessionPlan is a session the import stores nodes in.
type sessionPlan struct {
	seq    int64 // 0 for a session the import creates
	thread string
}

// importPlan is what checkAgainstStore decided.
type importPlan struct {
	fresh []record // turns to store now
	// held are turns whose parent is neither stored nor in the file, and
	// their descendants in the file: a later file of the batch may bring
	// the parent (ImportBatch.Commit decides).
	held       []record
	duplicates int          // turns that repeat a stored node exactly
	forgotten  int          // turns for stored nodes the owner forgot
	changed    int          // chat turns that differ from their stored node, which is kept
	tierKept   int          // chat turns of those whose stored node was written with another tier
	retier     []retierNode // stored chat nodes, not yet written, that take a new tier
	sessions   map[SessionKey]*sessionPlan
	bad        []LineError
}

// storedNode is a node found in the store and its seq.
type storedNode struct {
	Node
	seq int64
}

// checkAgainstStore compares one file's turns (or, with final set, the
// turns held back until the batch's end) with what is stored, names the
// threads of new sessions and checks that the writer can archive every new
// node. It runs inside the import transaction so that no other writer can
// change the answer before the insert. known reports the keys of bad lines,
// whose children are not reported again. Nodes with a seq above lastSeq
// were stored by this batch, from an earlier file.
//
// A turn whose parent is missing is held (a later file may bring it) or,
// with final set, reported. Turns that cannot be stored even in a doomed
// transaction (on a parent chain that loops or leads to a bad line, in a
// session that could not be named) are left out of fresh: their problem is
// reported, and nothing of the batch will be committed.
func checkAgainstStore(ctx context.Context, tx *sql.Tx, recs []record, known func(Key) bool, lastSeq int64, final bool) (*importPlan, error) {
	plan := &importPlan{sessions: map[SessionKey]*sessionPlan{}}
	// The ids to look up, per session, in file order of the sessions: the
	// turns' and their parents', a parent that is a turn of the file once
	// (in a chat, nearly every parent is the turn before).
	var order []SessionKey
	wanted := map[SessionKey][]string{}
	inFile := make(map[Key]bool, len(recs))
	for _, r := range recs {
		sk := r.node.SessionKey()
		if _, ok := wanted[sk]; !ok {
			order = append(order, sk)
		}
		wanted[sk] = append(wanted[sk], r.node.ID)
		inFile[r.key()] = true
	}
	for _, r := range recs {
		if r.node.Parent != "" && !inFile[r.parentKey()] {
			sk := r.node.SessionKey()
			wanted[sk] = append(wanted[sk], r.node.Parent)
		}
	}
	stored := map[Key]storedNode{}
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

	// blocked marks the turns that cannot be stored now, and why; their
	// descendants in the file follow them (classify).
	blocked := map[Key]block{}
	fresh := make([]record, 0, len(recs)) // a record is large: grow it once
	for _, r := range recs {
		n := r.node
		if old, ok := stored[r.key()]; ok {
			if old.Forgotten() {
				plan.forgotten++
				continue
			}
			if r.keep {
				plan.keepStored(old, n, lastSeq)
				continue
			}
			switch f := differingField(old.Node, n); {
			case f == "":
				plan.duplicates++
			case old.seq > lastSeq:
				plan.bad = append(plan.bad, r.problem("duplicate id %q in session %s: %s differs from the same id in another file of this import",
					n.ID, sessionName(n.SessionKey()), f))
			default:
				plan.bad = append(plan.bad, r.problem("id %q is already stored in session %s with a different %s",
					n.ID, sessionName(n.SessionKey()), f))
			}
			continue
		}
		fresh = append(fresh, r)
		if n.Parent == "" {
			continue
		}
		pk := r.parentKey()
		if _, ok := stored[pk]; ok || inFile[pk] {
			continue
		}
		switch {
		case known(pk): // a bad line's key, already reported
			blocked[r.key()] = blockDrop
		case final:
			plan.bad = append(plan.bad, r.problem("parent %q not found in session %s, in the file or the store",
				n.Parent, sessionName(n.SessionKey())))
			blocked[r.key()] = blockDrop
		default:
			blocked[r.key()] = blockHold
		}
	}
	for _, c := range findCycles(fresh) {
		plan.bad = append(plan.bad, c.problem)
		blocked[c.key] = blockDrop
	}
	fresh = classify(fresh, blocked, plan)

	providerBad, err := checkNewProviders(ctx, tx, fresh)
	if err != nil {
		return nil, err
	}
	plan.bad = append(plan.bad, providerBad...)
	threadBad, err := nameNewSessions(ctx, tx, fresh, plan)
	if err != nil {
		return nil, err
	}
	plan.bad = append(plan.bad, threadBad...)
	plan.fresh = make([]record, 0, len(fresh))
	for _, r := range fresh {
		sp := plan.sessions[r.node.SessionKey()]
		if sp == nil {
			continue // its session could not be named; already reported
		}
		plan.fresh = append(plan.fresh, r)
		n := r.node
		n.Thread = sp.thread
		rec := archive.Record{SourceID: n.SourceID(), Role: n.Role, SpeakerID: n.SpeakerID,
			SpeakerDisplay: n.SpeakerDisplay, Time: n.Time, Content: n.Content}
		if err := rec.Validate(); err != nil {
			// A safety net: the checks above are meant to refuse all of this.
			plan.bad = append(plan.bad, r.problem("the writer could not archive this turn: %v", err))
		}
	}
	return plan, nil
}

// block is why a turn cannot be stored now.
type block int8

const (
	blockNone block = iota
	blockHold       // its parent may come in a later file
	blockDrop       // it can never be stored: its problem is reported
)

// classify returns the turns of fresh that can be stored now, adding the
// held ones to plan.held. A turn follows its parent in the file: the child
// of a held turn is held, the child of a dropped one dropped.
func classify(fresh []record, blocked map[Key]block, plan *importPlan) []record {
	if len(blocked) == 0 {
		return fresh
	}
	byKey := make(map[Key]int, len(fresh))
	for i, r := range fresh {
		byKey[r.key()] = i
	}
	const unknown block = -1
	state := make([]block, len(fresh))
	for i := range state {
		state[i] = unknown
	}
	for i := range fresh {
		// Walk up to a turn whose state is known (or a root, or a parent
		// outside the file, which is stored), then settle the whole path.
		var path []int
		verdict := blockNone
		for j := i; ; {
			if state[j] != unknown {
				verdict = state[j]
				break
			}
			if b, ok := blocked[fresh[j].key()]; ok {
				verdict = b
				path = append(path, j)
				break
			}
			path = append(path, j)
			p, ok := byKey[fresh[j].parentKey()]
			if fresh[j].node.Parent == "" || !ok || len(path) > len(fresh) {
				break
			}
			j = p
		}
		for _, j := range path {
			state[j] = verdict
		}
	}
	out := fresh[:0:0]
	for i, r := range fresh {
		switch state[i] {
		case blockNone:
			out = append(out, r)
		case blockHold:
			plan.held = append(plan.held, r)
		}
	}
	return out
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
			bad = append(bad, r.problem("provider %q cannot be a directory name on every system: "+
				"use letters, digits and %s, not starting or ending with '.'", p, portableNameChars))
			continue
		}
		k := archive.FoldKey(p)
		if other, ok := folded[k]; ok && other != p {
			bad = append(bad, r.problem("provider %q differs from provider %q only by case or Unicode form; "+
				"they would share one directory: spell it %q", p, other, other))
			continue
		}
		folded[k] = p
	}
	return bad, nil
}

// nameNewSessions gives every new session of fresh its thread name in
// plan: the first of threadCandidates that no other session of the
// provider, stored or new, holds (compared by archive.FoldKey).
func nameNewSessions(ctx context.Context, tx *sql.Tx, fresh []record, plan *importPlan) ([]LineError, error) {
	taken := map[string]bool{} // provider + "\x00" + FoldKey(thread), for this file
	var bad []LineError
	for _, r := range fresh {
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
			bad = append(bad, r.problem("session %s: every archive thread name it could have is taken by another session", sessionName(sk)))
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
	return `SELECT ` + nodeColumns + `, n.seq FROM nodes n JOIN sessions s ON s.seq = n.session
 WHERE n.session = ?1 AND n.id IN (` + placeholders + `)`
}

// storedNodes adds the stored nodes of session seq among ids to out.
func storedNodes(ctx context.Context, tx *sql.Tx, seq int64, ids []string, out map[Key]storedNode) error {
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
				var sn storedNode
				node, err := scanNode(seqScanner{rows, &sn.seq})
				if err != nil {
					return fmt.Errorf("look up nodes: %w", err)
				}
				sn.Node = node
				out[node.Key()] = sn
			}
			return rows.Err()
		}(); err != nil {
			return err
		}
	}
	return nil
}

// cycleMember is a node on a parent chain that loops, and its report.
type cycleMember struct {
	key     Key
	problem LineError
}

// findCycles reports new nodes whose parent chain loops. Stored nodes can
// never be part of a loop: they are immutable and were acyclic when stored.
func findCycles(fresh []record) []cycleMember {
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
	var bad []cycleMember
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
					bad = append(bad, cycleMember{c, byKey[c].problem("node %q is its own ancestor (the parent chain loops)", c.ID)})
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
