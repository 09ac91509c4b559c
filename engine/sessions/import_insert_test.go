package sessions

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace/archive"
)

// perRowInsertQuery and insertNodesPerRow are the insert before the
// multi-row one: a statement per node, parent_seq by a subquery, seq left
// to SQLite. The test compares the stores the two leave.
const perRowInsertQuery = `INSERT INTO nodes(session, id, parent, parent_seq, role, content, speaker_id, speaker_display, time, tier, grp, synthetic, metadata, has_children)
		VALUES (?, ?, nullif(?, ''), (SELECT seq FROM nodes WHERE session = ? AND id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func insertNodesPerRow(ctx context.Context, tx *sql.Tx, recs []record, sessions map[SessionKey]*sessionPlan) ([]int64, error) {
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
				return nil, err
			}
			continue
		}
		if err := tx.QueryRowContext(ctx, insertSessionQuery, sk.Provider, sk.Session, plan.thread,
			archive.FoldKey(plan.thread), sp.first, sp.last).Scan(&plan.seq); err != nil {
			return nil, err
		}
	}
	parents := map[Key]bool{}
	for _, r := range recs {
		if r.node.Parent != "" {
			parents[r.parentKey()] = true
		}
	}
	for _, r := range recs {
		n := r.node
		seq := sessions[n.SessionKey()].seq
		if _, err := tx.ExecContext(ctx, perRowInsertQuery, seq, n.ID, n.Parent, seq, n.Parent, n.Role, n.Content,
			n.SpeakerID, n.SpeakerDisplay, formatTime(n.Time), n.Tier, n.Group, n.Synthetic, string(n.Metadata),
			parents[r.key()]); err != nil {
			return nil, fmt.Errorf("store node %s (line %d): %w", n.Key(), r.line, err)
		}
	}
	return nil, nil
}

// insertTestChats returns n turns of three interleaved chats (two
// providers), with branches, owner turns with names, metadata, synthetic
// turns and replies to turns far back.
func insertTestChats(n int) []Node {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var out []Node
	last := map[string]int{}
	for i := range n {
		chat := []string{"c1", "c2", "c3"}[i%3]
		provider := "telegram"
		if chat == "c3" {
			provider = DefaultProvider
		}
		nd := Node{Provider: provider, Session: chat, ID: strconv.Itoa(i + 1), Role: RoleUser,
			Content: fmt.Sprintf("turn %d of %s", i, chat), SpeakerID: "u" + strconv.Itoa(i%4),
			Time: at.Add(time.Duration(i*7%50) * time.Minute), Tier: TierUnpaired, Group: chat != "c2"}
		if p, ok := last[chat]; ok {
			nd.Parent = strconv.Itoa(p)
			if i%11 == 0 && p > 9 {
				nd.Parent = strconv.Itoa(p - 9) // a branch off an older turn
			}
		}
		switch i % 5 {
		case 0:
			nd.Tier, nd.SpeakerDisplay = TierOwner, "Ana"
		case 1:
			nd.Role, nd.Metadata = RoleAssistant, json.RawMessage(`{"title":"Chat `+chat+`","reply_to":"1"}`)
		case 2:
			nd.Synthetic = true
		}
		last[chat] = i + 1
		out = append(out, nd)
	}
	return out
}

// TestInsertNodes_SameAsPerRow: chats imported in chunks of every size
// around the insert's group (one batch, pending turns counted, a second
// batch continuing some chats and adding a root to another, then a
// re-import) leave sessions.db
// exactly as the per-row insert under the pending_counts_insert trigger
// does: schema, every row and column of every table (the cached counts
// included).
func TestInsertNodes_SameAsPerRow(t *testing.T) {
	nodes := insertTestChats(700)
	var other []Node // a chat the second batch does not touch
	for _, n := range insertTestChats(20) {
		n.Session = "c4" + n.Session
		other = append(other, n)
	}
	run := func(insert func(context.Context, *sql.Tx, []record, map[SessionKey]*sessionPlan) ([]int64, error), suspend bool) []string {
		t.Helper()
		insertNodesFunc, suspendCounts = insert, suspend
		defer func() { insertNodesFunc, suspendCounts = insertNodes, true }()
		s := mustOpen(t)
		counted := func() {
			t.Helper()
			got, err := s.PendingTurnTotal("ws")
			want, err2 := s.countAll("ws")
			if err != nil || err2 != nil || got != want {
				t.Fatalf("pending turns: cached %d (%v), counted %d (%v)", got, err, want, err2)
			}
		}
		import1 := func(part []Node, sizes []int) ImportResult {
			b := s.BeginImport(context.Background())
			defer b.Rollback()
			for i := 0; len(part) > 0; i++ {
				k := min(sizes[i%len(sizes)], len(part))
				if err := b.AddChatNodes(part[:k]); err != nil {
					t.Fatal(err)
				}
				part = part[k:]
			}
			res, err := b.Commit()
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if res := import1(append(other, nodes[:400]...), []int{1, 31, 32, 33, 7, 64, 65, 100}); res.Imported != 420 {
			t.Fatalf("first batch %+v", res)
		}
		counted() // pending_counts holds every session's count
		// A new root in a stored session: no stored node gains a child.
		root := other[0]
		root.ID, root.Parent = "root2", ""
		if res := import1(append([]Node{root}, nodes...), []int{250, 3}); res.Imported != 301 || res.Duplicate != 400 {
			t.Fatalf("second batch %+v", res)
		}
		before := dumpDB(t, s.db)
		if res := import1(nodes, []int{700}); res.Imported != 0 {
			t.Fatalf("re-import %+v", res)
		}
		if after := dumpDB(t, s.db); !reflect.DeepEqual(before, after) {
			for i := range min(len(before), len(after)) {
				if before[i] != after[i] {
					t.Fatalf("a re-import (suspend %v) changed sessions.db: row %d\n%s\n%s", suspend, i, before[i], after[i])
				}
			}
			t.Fatalf("a re-import (suspend %v) changed sessions.db: %d rows, then %d", suspend, len(before), len(after))
		}
		counted()
		return append(before, dumpDB(t, s.db)...)
	}
	// schema_migrations holds when each store was created.
	without := func(rows []string) (out []string) {
		for _, r := range rows {
			if !strings.HasPrefix(r, "schema_migrations[") {
				out = append(out, r)
			}
		}
		return out
	}
	want, got := without(run(insertNodesPerRow, false)), without(run(insertNodes, true))
	if len(want) < 700 {
		t.Fatalf("only %d rows dumped", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("row %d:\n got %s\nwant %s", i, got[i], want[i])
			}
		}
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
}

// TestInsertNodes_ErrorNamesTheNode: a row SQLite refuses in the middle of
// a group is reported with its own key and line, as the per-row insert
// did, and fails the insert.
func TestInsertNodes_ErrorNamesTheNode(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "sessions.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var recs []record
	for i, n := range insertTestChats(70) {
		if i == 40 {
			n.Tier = "bogus" // refused by the tier CHECK
		}
		n.Metadata = json.RawMessage("{}")
		recs = append(recs, record{line: i + 1, node: n})
	}
	plans := map[SessionKey]*sessionPlan{}
	for _, r := range recs {
		plans[r.node.SessionKey()] = &sessionPlan{thread: r.node.Session}
	}
	_, err = insertNodes(ctx, tx, recs, plans)
	if err == nil || !strings.Contains(err.Error(), "store node") || !strings.Contains(err.Error(), "(line 41)") ||
		!strings.Contains(err.Error(), "CHECK") {
		t.Fatalf("insertNodes = %v, want node 41's CHECK failure", err)
	}
}

// BenchmarkStoreChat is the store's cost per turn of a chat import: 20,000
// short turns of three chats handed over in chunks of 5,000, into a fresh
// sessions.db each time. per-row is the insert before this one, under the
// pending_counts_insert trigger; multi-row-trigger the multi-row insert
// with the trigger left in place. Report: ns per turn.
func BenchmarkStoreChat(b *testing.B) {
	nodes := insertTestChats(20000)
	for _, bc := range []struct {
		name    string
		insert  func(context.Context, *sql.Tx, []record, map[SessionKey]*sessionPlan) ([]int64, error)
		suspend bool
	}{
		{"multi-row", insertNodes, true},
		{"per-row", insertNodesPerRow, false},
		{"multi-row-trigger", insertNodes, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			insertNodesFunc, suspendCounts = bc.insert, bc.suspend
			defer func() { insertNodesFunc, suspendCounts = insertNodes, true }()
			for range b.N {
				b.StopTimer()
				s := mustOpen(b)
				b.StartTimer()
				imp := s.BeginImport(context.Background())
				for part := nodes; len(part) > 0; part = part[min(5000, len(part)):] {
					if err := imp.AddChatNodes(part[:min(5000, len(part))]); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := imp.Commit(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				s.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(nodes)), "ns/turn")
		})
	}
}

// TestInsertNodes_FailedBatchKeepsTriggers: a batch that stored nodes with
// the insert triggers suspended and then failed leaves sessions.db as it
// was, triggers included, and they work afterwards.
func TestInsertNodes_FailedBatchKeepsTriggers(t *testing.T) {
	s := mustOpen(t)
	nodes := insertTestChats(90)
	if _, err := addChat(t, s, nodes[:30]); err != nil {
		t.Fatal(err)
	}
	before := dumpDB(t, s.db)
	b := s.BeginImport(context.Background())
	if err := b.AddChatNodes(nodes[30:60]); err != nil {
		t.Fatal(err)
	}
	bad := nodes[60]
	bad.Role = ""
	if err := b.AddChatNodes([]Node{bad}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err == nil {
		t.Fatal("a batch with a bad turn committed")
	}
	if after := dumpDB(t, s.db); !reflect.DeepEqual(before, after) {
		t.Fatal("a failed batch changed sessions.db")
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN ('nodes_has_children', 'pending_counts_insert')`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d insert triggers (%v)", n, err)
	}
}
