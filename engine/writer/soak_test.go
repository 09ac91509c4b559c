package writer_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/engine/sessions"
	"scriptorium/engine/sleep"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// TestSoak_InProcess is the in-process half of the concurrency soak, for
// the race detector (go test -race): goroutines share one long-lived engine
// (as the TUI and the MCP server do) while others open their own engine for
// every call (as CLI processes do), and all of them import, write, update,
// search, promote, reject, forget, sleep and read for a bounded time.
// Refusals a race explains are allowed (CONFLICT and LOCK_BUSY are retried;
// NOT_FOUND and INVALID_ARGUMENT for a pending source another goroutine
// took, or a turn not archived yet); anything else fails. Afterwards
// verify is clean, nothing is pending and every imported turn is archived
// exactly once as a frame, or, if forgotten, is at most one tombstone (none
// when it was forgotten before the writer archived it) and never a frame. 4 goroutines for
// 3 s (at least one round of every verb each); SCRIPTORIUM_SOAK=1: 8 for
// 60 s.
func TestSoak_InProcess(t *testing.T) {
	workers, dur := 4, 3*time.Second
	if os.Getenv("SCRIPTORIUM_SOAK") == "1" {
		workers, dur = 8, 60*time.Second
	}
	state := ftEmpty(t, map[string]string{"topics/core.md": "# Core\n\nThe owner counts herons. ^c0000001\n"})
	ctx, cancel := context.WithTimeout(context.Background(), dur+2*time.Minute)
	defer cancel()
	shared := ftOpen(t, state)
	open := func() (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: state, Interactive: true, Distiller: writer.Distiller{}})
	}
	var mu sync.Mutex
	imported, forgotten := map[string]bool{}, map[string]bool{}
	counts := map[string]int{}
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w) + 11))
			session := fmt.Sprintf("chat-%d", w)
			parent, n, notes := "", 0, 0
			var mine []string
			verbs := []string{"import", "import", "write", "update", "search", "promote", "reject", "forget", "sleep", "read"}
			var round []string
			for step := 0; step < len(verbs) || time.Now().Before(deadline); step++ {
				if len(round) == 0 {
					for _, i := range rng.Perm(len(verbs)) {
						round = append(round, verbs[i])
					}
				}
				verb := round[0]
				round = round[1:]
				if step == 0 {
					verb = "import"
				}
				// Odd goroutines use the shared engine, even ones a fresh one
				// per call.
				e := shared
				if w%2 == 0 {
					var err error
					if e, err = open(); err != nil {
						errs <- fmt.Errorf("goroutine %d: open: %w", w, err)
						return
					}
				}
				err := soakStep(ctx, e, state, verb, rng, w, session, &parent, &n, &notes, &mine, func(ref string, forgot bool) {
					mu.Lock()
					defer mu.Unlock()
					if forgot {
						forgotten[ref] = true
					} else {
						imported[ref] = true
					}
				})
				if e != shared {
					e.Close()
				}
				if err != nil {
					errs <- fmt.Errorf("goroutine %d: %s: %w", w, verb, err)
					return
				}
				mu.Lock()
				counts[verb]++
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	t.Logf("verbs: %v", counts)
	if err := soakRetry(ctx, func() error { _, err := writer.Write(ctx, shared, writer.WriteOptions{Force: true}); return err }); err != nil {
		t.Fatal(err)
	}
	ftVerifyClean(t, shared)
	if n := sessions.PendingTurnCount(workspace.SessionsDB(state), shared.WorkspaceID()); n != 0 {
		t.Errorf("%d turns pending after the soak", n)
	}
	frames, tombs := map[string]int{}, map[string]int{}
	_ = filepath.WalkDir(filepath.Join(state, "memory", "sources"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		fs, err := archive.ParseV2(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		for _, f := range fs {
			if f.Forgotten {
				tombs[f.SourceID]++
			} else {
				frames[f.SourceID]++
			}
		}
		return nil
	})
	var ids []string
	for id := range imported {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		// A turn forgotten before the writer archived it leaves nothing;
		// one forgotten after leaves its tombstone. Never its text.
		if forgotten[id] && (tombs[id] > 1 || frames[id] != 0) || !forgotten[id] && (frames[id] != 1 || tombs[id] != 0) {
			t.Errorf("%s (forgotten %v): %d frames and %d tombstones", id, forgotten[id], frames[id], tombs[id])
		}
	}
	for id := range frames {
		if !imported[id] {
			t.Errorf("%s archived but never imported", id)
		}
	}
}

// soakRetry retries fn while it fails with a retryable engine error.
func soakRetry(ctx context.Context, fn func() error) error {
	for attempt := 1; ; attempt++ {
		err := fn()
		var ee *errcode.Error
		if err == nil || !errors.As(err, &ee) || !ee.Retryable() || ctx.Err() != nil {
			return err
		}
		time.Sleep(time.Duration(attempt%5) * 10 * time.Millisecond)
	}
}

// raceRefusal reports whether err is a refusal a race between the
// goroutines explains.
func raceRefusal(err error) bool {
	c := ftCode(err)
	return c == errcode.NotFound || c == errcode.InvalidArgument
}

func soakStep(ctx context.Context, e *engine.Engine, state, verb string, rng *rand.Rand, w int, session string,
	parent *string, n, notes *int, mine *[]string, record func(ref string, forgot bool)) error {
	switch verb {
	case "import":
		var b strings.Builder
		var refs []string
		for i := 0; i < 2; i++ {
			id := fmt.Sprintf("w%d-m%03d", w, *n)
			*n++
			fmt.Fprintf(&b, `{"session":%q,"id":%q,"parent":%q,"role":"user","speaker_id":"u1","speaker_display":"Craig","tier":"owner","content":"Craig counts heron %s.","time":%q}`+"\n",
				session, id, *parent, id, time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(w*100000+*n)*time.Second).Format(time.RFC3339))
			*parent = id
			refs = append(refs, "openprogram/"+session+"/"+id)
		}
		if rng.Intn(2) == 0 {
			id := fmt.Sprintf("g%d-%03d", w, *n)
			fmt.Fprintf(&b, `{"session":"group","id":%q,"role":"user","speaker_id":"x%d","speaker_display":"Stranger","tier":"unpaired","group":true,"content":"Stranger %s says the herons left.","time":%q}`+"\n",
				id, w, id, time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC).Add(time.Duration(w*100000+*n)*time.Second).Format(time.RFC3339))
			record("openprogram/group/"+id, false)
		}
		for _, r := range refs {
			record(r, false)
		}
		st, err := sessions.Open(workspace.SessionsDB(state), nil)
		if err != nil {
			return err
		}
		defer st.Close()
		if _, err := st.Import(strings.NewReader(b.String())); err != nil {
			return err
		}
		*mine = append(*mine, refs...)
	case "write":
		return soakRetry(ctx, func() error { _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); return err })
	case "update":
		p := fmt.Sprintf("topics/soak/w%d.md", w)
		content := fmt.Sprintf("Goroutine %d note %d about herons. ^%08x\n", w, *notes, w<<20|*notes+1)
		op := ftAppendEdit(p, content)
		if *notes == 0 {
			op = result.Edit{Op: "create", Path: p, Content: ptr(fmt.Sprintf("# Goroutine %d\n\n", w) + content)}
		}
		err := soakRetry(ctx, func() error {
			rev, err := e.Revision()
			if err != nil {
				return err
			}
			_, err = e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{op}})
			return err
		})
		if err == nil {
			*notes++
		}
		return err
	case "search":
		_, err := e.Search(ctx, result.SearchQuery{Text: "herons"})
		return err
	case "promote", "reject":
		ps, err := review.Pending(ctx, e)
		if err != nil || len(ps) == 0 {
			return err
		}
		ref := ps[rng.Intn(len(ps))].Ref
		err = soakRetry(ctx, func() error {
			if verb == "promote" {
				_, err := e.Promote(ctx, []string{ref})
				return err
			}
			_, err := review.Reject(ctx, e, []string{ref}, "soak")
			return err
		})
		if raceRefusal(err) {
			return nil
		}
		return err
	case "forget":
		if len(*mine) == 0 {
			return nil
		}
		ref := (*mine)[rng.Intn(len(*mine))]
		err := soakRetry(ctx, func() error {
			_, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{ref}}, false)
			return err
		})
		if raceRefusal(err) {
			return nil
		}
		if err == nil {
			record(ref, true)
		}
		return err
	case "sleep":
		return soakRetry(ctx, func() error {
			_, err := sleep.Sleep(ctx, e, sleep.SleepOptions{ModelName: "offline"})
			return err
		})
	case "read":
		if _, err := e.Status(ctx); err != nil {
			return err
		}
		if _, err := e.Get(ctx, fmt.Sprintf("openprogram/%s/w%d-m000", session, w)); err != nil && ftCode(err) != errcode.NotFound {
			return err
		}
		if _, err := e.Verify(ctx); err != nil {
			return err
		}
		return soakRetry(ctx, func() error { _, err := e.Core(ctx); return err })
	}
	return nil
}

func ptr(s string) *string { return &s }

func ftAppendEdit(p, c string) result.Edit { return result.Edit{Op: "append", Path: p, Content: &c} }
