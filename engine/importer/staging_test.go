package importer

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/scale"
	"scriptorium/workspace"
)

// dumpStore returns every row of a sessions.db's nodes and sessions, in
// order, as text: what an import stored, whatever the file's pages.
func dumpStore(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out strings.Builder
	for _, q := range []string{`SELECT * FROM sessions ORDER BY seq`, `SELECT * FROM nodes ORDER BY seq`} {
		rows, err := db.Query(q)
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
			fmt.Fprintf(&out, "%q\n", vals)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}

func nodeCount(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM nodes`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// walHeader reports that a database file says it uses the write-ahead
// log (bytes 18 and 19 of its header are 2).
func walHeader(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := make([]byte, 20)
	if _, err := f.ReadAt(h, 0); err != nil {
		t.Fatal(err)
	}
	return h[18] == 2 && h[19] == 2
}

// genFolder writes transcripts of about mib MiB each made by gen, one
// per seed, into a new folder.
func genFolder(t *testing.T, mib int64, gen func(w io.Writer, size int64, seed uint64) (int64, int, error), seeds ...uint64) string {
	t.Helper()
	dir := t.TempDir()
	for _, s := range seeds {
		var b bytes.Buffer
		if _, _, err := gen(&b, mib<<20, s); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, fmt.Sprintf("session-%d.jsonl", s)), b.Bytes())
	}
	return dir
}

// TestStagingImport_SameStore: a first import, written to its staging
// file without the write-ahead log (sessions.Options.Unpublished), stores
// the same rows as the same import into an existing sessions.db, and the
// sessions.db it publishes uses the write-ahead log, as every other does.
func TestStagingImport_SameStore(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"session.jsonl", "agent-5e0c41aa.jsonl", "crlf.jsonl"} {
		write(t, filepath.Join(dir, "fixtures", f), fixture(t, "transcript", "claudecode", "testdata", f))
	}
	for i, gen := range []func(io.Writer, int64, uint64) (int64, int, error){scale.ClaudeCodeTranscript, scale.ClaudeCodeTextHeavy} {
		var b bytes.Buffer
		if _, _, err := gen(&b, 6<<20, scale.ClaudeCodeSeed+uint64(i)); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "gen", fmt.Sprintf("%p.jsonl", gen)), b.Bytes())
	}

	fresh := t.TempDir()
	if _, err := importDir(t, fresh, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	existing := t.TempDir()
	st, err := sessions.Open(workspace.SessionsDB(existing), nil) // an empty store, in WAL mode
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := importDir(t, existing, dir, Options{}); err != nil {
		t.Fatal(err)
	}
	a, b := dumpStore(t, workspace.SessionsDB(fresh)), dumpStore(t, workspace.SessionsDB(existing))
	if a != b {
		t.Errorf("the staged import stored other rows (%d bytes of dump) than the one into sessions.db (%d)", len(a), len(b))
	}
	if n := nodeCount(t, workspace.SessionsDB(fresh)); n < 1000 {
		t.Errorf("only %d nodes", n)
	}
	if !walHeader(t, workspace.SessionsDB(fresh)) {
		t.Error("the published sessions.db does not use the write-ahead log")
	}
	assertNoStaging(t, fresh)
}

// Environment of the child that TestImport_Killed kills: it imports the
// folder named by childKillEnv into the state dir childStateEnv names,
// says "stored" once the first file is in the import's transaction, and
// waits to be killed.
const childKillEnv = "SCRIPTORIUM_IMPORT_KILL_CHILD"

func killChild(dir, state string) int {
	in, err := List(dir, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = Import(context.Background(), state, in, Options{Progress: stallAfterFirst{}})
	fmt.Fprintln(os.Stderr, "import ended:", err)
	return 1
}

// stallAfterFirst says when the first file is stored, and then holds the
// import there.
type stallAfterFirst struct{}

func (stallAfterFirst) Read(int) {}
func (stallAfterFirst) File(File) {
	fmt.Println("stored")
	select {}
}
func (stallAfterFirst) Committing() {}

// TestImport_Killed: an import killed after it stored a file (its pages
// on disk: 12 MiB of kept text, more than SQLite's cache) leaves nothing:
// a first import no sessions.db (and its staging file goes with the next
// import), an import into a sessions.db the rows that were there, intact.
func TestImport_Killed(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 24 MiB of transcripts")
	}
	folder := genFolder(t, 12, scale.ClaudeCodeTextHeavy, 1, 2)
	small := t.TempDir()
	write(t, filepath.Join(small, "s.jsonl"), fixture(t, "transcript", "claudecode", "testdata", "session.jsonl"))

	kill := func(t *testing.T, state string) {
		t.Helper()
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), childKillEnv+"="+folder, childStateEnv+"="+state)
		child.Stderr = os.Stderr
		out, err := child.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		said := make(chan string, 1)
		go func() {
			l, _ := bufio.NewReader(out).ReadString('\n')
			said <- l
		}()
		select {
		case l := <-said:
			if l != "stored\n" {
				t.Errorf("child said %q", l)
			}
		case <-time.After(3 * time.Minute):
			t.Error("the child stored nothing in 3 minutes")
		}
		_ = child.Process.Signal(syscall.SIGKILL)
		_ = child.Wait()
	}

	t.Run("first import", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		kill(t, state)
		if _, err := os.Stat(workspace.SessionsDB(state)); !os.IsNotExist(err) {
			t.Fatalf("sessions.db after a killed first import: %v", err)
		}
		if m, _ := filepath.Glob(filepath.Join(state, stagingPrefix+"*")); len(m) == 0 {
			t.Error("no staging file: the child stored nothing on disk, so the test proves nothing")
		}
		res, err := importDir(t, state, small, Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertNoStaging(t, state)
		if got := nodeCount(t, workspace.SessionsDB(state)); got != res.Imported {
			t.Errorf("%d nodes stored, the next import stored %d", got, res.Imported)
		}
	})
	t.Run("into sessions.db", func(t *testing.T) {
		state := t.TempDir()
		if _, err := importDir(t, state, small, Options{}); err != nil {
			t.Fatal(err)
		}
		db := workspace.SessionsDB(state)
		before := dumpStore(t, db)
		kill(t, state)
		if fi, err := os.Stat(db + "-wal"); err != nil || fi.Size() < 1<<20 {
			t.Errorf("the killed import's write-ahead log: %v, %v: it stored nothing on disk", fi, err)
		}
		st, err := sessions.Open(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		if after := dumpStore(t, db); after != before {
			t.Errorf("the killed import changed sessions.db:\n%.300s\nwas\n%.300s", after, before)
		}
	})
}
