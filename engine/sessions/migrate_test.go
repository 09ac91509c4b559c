package sessions

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// testdata/v1.sessions.db was written by the version-1 code (node ids
// unique across the file), before node identity became (provider, session,
// id). It holds:
//
//	openprogram/s1               p1 ─ p2 ─ p3 ┬ a1 ─ a2 / └ b1 ─ b2 ─ b3
//	telegram/tg-100              tg-1 ─ tg-2 ─ tg-3 (tool) ─ tg-4 (synthetic);
//	                             tg-1 has extra metadata and the display "Ann\nSmith"
//	openprogram/agent:main:main  c1 ─ c2 (a name the old writer could store on Linux)
//	openprogram/Chat, /chat      k1, k2 (names that fold together)
//	openprogram/a>b              g1 (a name the old writer could never store)
//
// with markers ws-1 on p2 p3 b1 tg-1 tg-2 c1 and ws-2 on p1 a1.
const v1Fixture = "testdata/v1.sessions.db"

// copyFixture copies the old-format database into a fresh directory.
func copyFixture(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(v1Fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantV1Node is what a node of the fixture must look like after migration.
type wantV1Node struct {
	key           Key
	parent        string
	role, written string
	thread        string
}

var v1Want = func() []wantV1Node {
	op, tg := DefaultProvider, "telegram"
	return []wantV1Node{
		{Key{op, "s1", "p1"}, "", "user", "ws-2", "s1"},
		{Key{op, "s1", "p2"}, "p1", "assistant", "ws-1", "s1"},
		{Key{op, "s1", "p3"}, "p2", "user", "ws-1", "s1"},
		{Key{op, "s1", "a1"}, "p3", "user", "ws-2", "s1"},
		{Key{op, "s1", "a2"}, "a1", "assistant", "", "s1"},
		{Key{op, "s1", "b1"}, "p3", "user", "ws-1", "s1"},
		{Key{op, "s1", "b2"}, "b1", "assistant", "", "s1"},
		{Key{op, "s1", "b3"}, "b2", "user", "", "s1"},
		{Key{tg, "tg-100", "tg-1"}, "", "user", "ws-1", "tg-100"},
		{Key{tg, "tg-100", "tg-2"}, "tg-1", "assistant", "ws-1", "tg-100"},
		{Key{tg, "tg-100", "tg-3"}, "tg-2", "tool", "", "tg-100"},
		{Key{tg, "tg-100", "tg-4"}, "tg-3", "user", "", "tg-100"},
		{Key{op, "agent:main:main", "c1"}, "", "user", "ws-1", "agent:main:main"},
		{Key{op, "agent:main:main", "c2"}, "c1", "assistant", "", "agent:main:main"},
		{Key{op, "Chat", "k1"}, "", "user", "", "Chat"},
		{Key{op, "chat", "k2"}, "", "user", "", "chat~" + nameHash("chat")[:8]},
		{Key{op, "a>b", "g1"}, "", "user", "", "a%3Eb"},
	}
}()

func TestMigrate_V1FixtureKeepsEverything(t *testing.T) {
	path := copyFixture(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open old db: %v", err)
	}
	defer s.Close()
	checkMigratedFixture(t, s)

	// Pending work is what it was: branch A of s1 owes a2 to ws-1 (p1 and
	// a1 carry ws-2, the walk stops at p3), branch B owes b2, b3.
	for tip, want := range map[string]string{"a2": "a1,a2", "b3": "b2,b3"} {
		turns, err := s.PendingTurns(Key{DefaultProvider, "s1", tip}, "ws-1")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(ids(turns), ","); got != want {
			t.Errorf("pending on %s = %s, want %s", tip, got, want)
		}
	}
	// The migrated store takes new nodes, including an id the old schema
	// could not hold twice, and re-importing an old node is a duplicate.
	res := importResult(t, s, jsonl(
		turn{Session: "s2", ID: "p1", Role: "user", Content: "another chat's p1"},
		turn{Session: "s1", ID: "b4", Parent: "b3", Role: "assistant", Content: "more", Time: "2026-08-10T13:00:00Z"},
		turn{Session: "s1", ID: "p1", Role: "user", Content: "text of p1"},
	))
	if res != (ImportResult{Imported: 2, Sessions: 2, Duplicate: 1}) {
		t.Errorf("import after migration = %+v", res)
	}
	if n, err := s.Node(Key{DefaultProvider, "s1", "b3"}); err != nil || n.Written != "" {
		t.Errorf("b3 after import: %+v, %v", n, err)
	}
	// The has_children trigger works on the new table: b3 is no tip now.
	branches, err := s.Branches(SessionKey{DefaultProvider, "s1"})
	if err != nil || len(branches) != 2 || branches[0].Tip.ID != "b4" {
		t.Errorf("branches after import = %+v, %v", branches, err)
	}
}

func checkMigratedFixture(t *testing.T, s *Store) {
	t.Helper()
	var version, rows int
	if err := s.db.QueryRow(`SELECT max(version), count(*) FROM schema_migrations`).Scan(&version, &rows); err != nil {
		t.Fatal(err)
	}
	if version != len(migrations) || rows != len(migrations) {
		t.Errorf("schema_migrations: version %d in %d rows, want %d", version, rows, len(migrations))
	}
	var total int
	if err := s.db.QueryRow(`SELECT count(*) FROM nodes`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if total != len(v1Want) {
		t.Errorf("%d nodes, want %d", total, len(v1Want))
	}
	for _, w := range v1Want {
		n, err := s.Node(w.key)
		if err != nil {
			t.Errorf("node %s lost: %v", w.key, err)
			continue
		}
		if n.Parent != w.parent || n.Role != w.role || n.Written != w.written || n.Thread != w.thread ||
			n.Content != "text of "+w.key.ID && w.key.Session == "s1" {
			t.Errorf("node %s = parent %q role %q written %q thread %q content %q; want %+v",
				w.key, n.Parent, n.Role, n.Written, n.Thread, n.Content, w)
		}
	}
	tg1, _ := s.Node(Key{"telegram", "tg-100", "tg-1"})
	if string(tg1.Metadata) != `{"origin":"telegram","n":[1,2],"memory_written_scriptorium":"ws-1"}` ||
		tg1.SpeakerDisplay != "Ann Smith" || tg1.SpeakerID != "u456" || tg1.Tier != TierPaired || !tg1.Group ||
		tg1.Time != time.Date(2026, 8, 11, 9, 0, 0, 0, time.UTC) || tg1.Content != "hello from telegram" {
		t.Errorf("tg-1 = %+v (metadata %s)", tg1, tg1.Metadata)
	}
	if tg4, _ := s.Node(Key{"telegram", "tg-100", "tg-4"}); !tg4.Synthetic {
		t.Errorf("tg-4 lost its synthetic flag")
	}
	if c1, _ := s.Node(Key{DefaultProvider, "agent:main:main", "c1"}); c1.Content != "colon session\r\nline two" {
		t.Errorf("c1 content = %q", c1.Content)
	}
	if g1, _ := s.Node(Key{DefaultProvider, "a>b", "g1"}); g1.SpeakerDisplay != "(Bob) x" {
		t.Errorf("g1 display = %q, want normalised", g1.SpeakerDisplay)
	}
	// Parent links are the same seq links as before: every parent_seq
	// points at the node named by parent, in the same session.
	var bad int
	if err := s.db.QueryRow(`SELECT count(*) FROM nodes c LEFT JOIN nodes p ON p.seq = c.parent_seq
		WHERE c.parent IS NOT NULL AND (p.seq IS NULL OR p.id <> c.parent OR p.session <> c.session)`).Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d broken parent links, %v", bad, err)
	}
	var tips string
	if err := s.db.QueryRow(`SELECT group_concat(id, ',') FROM (SELECT id FROM nodes WHERE has_children = 0 ORDER BY seq)`).Scan(&tips); err != nil {
		t.Fatal(err)
	}
	if tips != "a2,b3,tg-4,c2,k1,k2,g1" {
		t.Errorf("tips = %s", tips)
	}
	sess, err := s.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	if len(sess) != 6 {
		t.Errorf("%d sessions, want 6: %+v", len(sess), sess)
	}
	for _, ss := range sess {
		if ss.Key() == (SessionKey{DefaultProvider, "s1"}) &&
			(ss.Nodes != 8 || ss.FirstTime != time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC) || ss.LastTime != time.Date(2026, 8, 10, 13, 0, 0, 0, time.UTC)) {
			t.Errorf("s1 summary = %+v", ss)
		}
	}
	if rows, err := s.db.Query(`PRAGMA foreign_key_check`); err != nil {
		t.Fatal(err)
	} else {
		if rows.Next() {
			t.Error("foreign key violations after migration")
		}
		rows.Close()
	}
	var integrity string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity_check = %q, %v", integrity, err)
	}
}

// A second open of a migrated file changes nothing.
func TestMigrate_SecondOpenIsNoOp(t *testing.T) {
	path := copyFixture(t)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := dumpDB(t, s.db)
	s.Close()
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if after := dumpDB(t, s.db); !reflect.DeepEqual(before, after) {
		t.Errorf("second open changed the database:\nbefore %v\nafter  %v", before, after)
	}
	checkMigratedFixture(t, s)
}

// dumpDB returns the schema and every row of every table, for comparison.
func dumpDB(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out []string
	rows, err := db.Query(`SELECT name, coalesce(sql, '') FROM sqlite_master ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, text)
		if strings.HasPrefix(text, "CREATE TABLE") {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `" ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(table, vals))
		}
		rows.Close()
	}
	return out
}

// openAll opens path from n goroutines at once, each with its own Store
// (its own connections, so they race like processes).
func openAll(t *testing.T, path string, n int) {
	t.Helper()
	start := make(chan struct{})
	errs := make([]error, n)
	stores := make([]*Store, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			stores[i], errs[i] = Open(path, nil)
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("opener %d: %v", i, err)
		}
	}
	for _, s := range stores {
		s.Close()
	}
}

func migrationRows(t *testing.T, path string) []int {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.db.Query(`SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func allVersions() []int {
	var out []int
	for v := 1; v <= len(migrations); v++ {
		out = append(out, v)
	}
	return out
}

func TestMigrate_ConcurrentOpenOfNewFile(t *testing.T) {
	for round := range 20 {
		path := filepath.Join(t.TempDir(), "sessions.db")
		openAll(t, path, 8)
		if got := migrationRows(t, path); !reflect.DeepEqual(got, allVersions()) {
			t.Fatalf("round %d: migrations %v, want each once", round, got)
		}
	}
}

func TestMigrate_ConcurrentOpenOfOldFile(t *testing.T) {
	for round := range 10 {
		path := copyFixture(t)
		openAll(t, path, 6)
		s, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkMigratedFixture(t, s)
		s.Close()
		if t.Failed() {
			t.Fatalf("round %d failed", round)
		}
	}
}

// Separate processes opening one old file at once: one migrates, the others
// wait for it and find nothing to do.
func TestMigrate_ConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for round := range 3 {
		for _, fresh := range []bool{false, true} {
			var path string
			if fresh {
				path = filepath.Join(t.TempDir(), "sessions.db")
			} else {
				path = copyFixture(t)
			}
			const procs = 4
			cmds := make([]*exec.Cmd, procs)
			outs := make([]strings.Builder, procs)
			for i := range cmds {
				cmd := exec.Command(exe, "-test.run=^TestHelperOpenProcess$", "-test.count=1")
				cmd.Env = append(os.Environ(), "SESSIONS_HELPER_OPEN="+path)
				cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
				cmds[i] = cmd
			}
			for _, cmd := range cmds {
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
			}
			// This process joins the race too.
			s, openErr := Open(path, nil)
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("round %d: process %d: %v\n%s", round, i, err, outs[i].String())
				}
			}
			if openErr != nil {
				t.Fatalf("round %d: in-process open: %v", round, openErr)
			}
			if !fresh {
				checkMigratedFixture(t, s)
			}
			s.Close()
			if got := migrationRows(t, path); !reflect.DeepEqual(got, allVersions()) {
				t.Fatalf("round %d: migrations %v, want each once", round, got)
			}
		}
	}
}

// TestHelperOpenProcess is the child of TestMigrate_ConcurrentProcesses.
func TestHelperOpenProcess(t *testing.T) {
	path := os.Getenv("SESSIONS_HELPER_OPEN")
	if path == "" {
		t.Skip("only run as a child process")
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if _, err := s.Sessions(); err != nil {
		t.Fatalf("Sessions: %v", err)
	}
	s.Close()
}

// A failing migration leaves the old file as it was.
func TestMigrate_FailureRollsBack(t *testing.T) {
	path := copyFixture(t)
	before := func() []string {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return dumpDB(t, db)
	}
	want := before()
	saved := migrations[1].fn
	migrations[1].fn = func(ctx context.Context, tx *sql.Tx) error {
		if err := saved(ctx, tx); err != nil {
			return err
		}
		return fmt.Errorf("injected failure")
	}
	_, err := Open(path, nil)
	migrations[1].fn = saved
	if err == nil || !strings.Contains(err.Error(), "apply migration 2: injected failure") {
		t.Fatalf("Open = %v, want the injected failure", err)
	}
	if got := before(); !reflect.DeepEqual(got, want) {
		t.Errorf("failed migration changed the file")
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkMigratedFixture(t, s)
}
