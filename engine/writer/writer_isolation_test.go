package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
)

// wiSessions imports three sessions of two turns each: a, b and c.
func wiSessions(t *testing.T, state string) {
	t.Helper()
	for _, s := range []string{"a", "b", "c"} {
		wtImport(t, state, wtChain("",
			wtTurn{Session: s, ID: s + "1", Role: "user", Content: "Session " + s + " says the kettle is blue."},
			wtTurn{Session: s, ID: s + "2", Role: "assistant", Content: "Noted for session " + s + "."},
		)...)
	}
}

// wiPoisonModel answers like the well-behaved fake model, except for a
// batch holding a turn of session poison, which gets answer instead.
func wiPoisonModel(poison string, answer func() (string, error)) *wtModel {
	return &wtModel{answer: func(_ int, req model.Request) (string, error) {
		srcs := wtSources(req.Messages[0].Content)
		for _, s := range srcs {
			if strings.HasPrefix(s.Ref, "openprogram/"+poison+"/") {
				return answer()
			}
		}
		return wtCitingEdits(srcs), nil
	}}
}

// wiWritten reports, per session, whether both its turns are archived,
// cited and marked written.
func wiWritten(t *testing.T, state, ws string) map[string]bool {
	t.Helper()
	frames, cites := wtFrames(t, state), wtCitations(t, state)
	st := wtStore(t, state)
	out := map[string]bool{}
	for _, s := range []string{"a", "b", "c"} {
		ok := len(wtMarked(t, st, ws, s+"1", s+"2")) == 2
		for _, id := range []string{s + "1", s + "2"} {
			ref := "openprogram/" + s + "/" + id
			_, archived := frames[ref]
			ok = ok && archived && cites[ref] == 1
		}
		out[s] = ok
	}
	return out
}

// TestWrite_PoisonedSessionIsIsolated: a session whose batch fails for
// good (the model's answer is not an edit list, or its edits are
// rejected) is recorded with its reason, every other session is still
// written, and the run's error names the failed session. Once the model
// behaves, the next run writes it and the record goes.
func TestWrite_PoisonedSessionIsIsolated(t *testing.T) {
	cases := []struct {
		name   string
		answer func() (string, error)
		code   errcode.Code
	}{
		{"model output invalid", func() (string, error) { return "I would rather not.", nil }, errcode.ModelOutputInvalid},
		{"rejected edits", func() (string, error) {
			return `{"edits":[{"op":"create","path":"../escape.md","content":"x"}]}`, nil
		}, errcode.Rejected},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			state := filepath.Join(t.TempDir(), "state")
			wiSessions(t, state)
			e := wtOpen(t, state, wiPoisonModel("b", tc.answer))
			ws := wtWorkspaceID(t, e)
			res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
			if err == nil {
				t.Fatal("write with a poisoned session succeeded")
			}
			ee := errcode.As(err)
			if ee.Code != tc.code || ee.Retryable() || !strings.Contains(ee.Message, "openprogram/b") {
				t.Errorf("write error %s %q, want %s naming openprogram/b", ee.Code, ee.Message, tc.code)
			}
			if res.Batches != 2 {
				t.Errorf("batches %d, want 2 (sessions a and c)", res.Batches)
			}
			if got := wiWritten(t, state, ws); !got["a"] || got["b"] || !got["c"] {
				t.Errorf("written after the poisoned run: %v, want a and c only", got)
			}
			ftVerifyClean(t, e)
			wiCheckFailed(t, e, map[string]errcode.Code{"openprogram/b": tc.code})

			// The model recovers: the next run writes b and clears the record.
			e2 := wtOpen(t, state, &wtModel{})
			if _, err := writer.Write(ctx, e2, writer.WriteOptions{Force: true}); err != nil {
				t.Fatalf("rerun: %v", err)
			}
			if got := wiWritten(t, state, ws); !got["a"] || !got["b"] || !got["c"] {
				t.Errorf("written after the rerun: %v, want all", got)
			}
			wiCheckFailed(t, e2, nil)
			ftVerifyClean(t, e2)
		})
	}
}

// TestWrite_RetryableFailureStopsTheRun: an unreachable model affects
// every session, so the run stops at the first one as before and nothing
// is recorded against a session.
func TestWrite_RetryableFailureStopsTheRun(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wiSessions(t, state)
	m := wiPoisonModel("a", func() (string, error) {
		return "", &model.Error{Code: model.CodeUnavailable, Message: "connection refused"}
	})
	e := wtOpen(t, state, m)
	ws := wtWorkspaceID(t, e)
	_, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if ftCode(err) != errcode.ModelUnavailable {
		t.Fatalf("write: %v, want MODEL_UNAVAILABLE", err)
	}
	if n := len(m.requests()); n != 1 {
		t.Errorf("the model was asked %d times, want once: the run goes on after a retryable failure", n)
	}
	if got := wiWritten(t, state, ws); got["a"] || got["b"] || got["c"] {
		t.Errorf("written: %v, want nothing", got)
	}
	wiCheckFailed(t, e, nil)
}

// TestWrite_DamagedArchiveIsIsolated: a thread whose archive cannot be
// appended to (a v2 archive with a corrupt frame, a directory or a
// symlink where the archive should be) fails only its own session; the
// other session is written.
func TestWrite_DamagedArchiveIsIsolated(t *testing.T) {
	const bad = "sources/openprogram/_v2/a.md"
	cases := []struct {
		name   string
		damage func(t *testing.T, full string)
	}{
		{"corrupt frame", func(t *testing.T, full string) {
			data, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(string(data), "<!-- source-id:")
			if i < 0 {
				t.Fatalf("no frame in %s:\n%s", bad, data)
			}
			data = append(data[:i:i], append([]byte("<!-- source-id: garbage -->\n"), data[i+len("<!-- source-id:"):]...)...)
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory", func(t *testing.T, full string) {
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(full, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlink", func(t *testing.T, full string) {
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere.md"), full); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			state := filepath.Join(t.TempDir(), "state")
			// Session a is written once, so its archive exists; then it gets
			// a new turn, its archive is damaged, and b arrives.
			wtImport(t, state, wtChain("", wtTurn{Session: "a", ID: "a1", Role: "user", Content: "The kettle is blue."})...)
			e := wtOpen(t, state, nil)
			if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
				t.Fatalf("first write: %v", err)
			}
			wtImport(t, state,
				wtTurn{Session: "a", ID: "a2", Parent: "a1", Role: "user", Content: "The teapot is green.", Time: wtTime(5)},
				wtTurn{Session: "b", ID: "b1", Role: "user", Content: "I drive a blue Volvo.", Time: wtTime(6)})
			tc.damage(t, filepath.Join(state, "memory", filepath.FromSlash(bad)))
			ws := wtWorkspaceID(t, e)

			_, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
			if err == nil || errcode.As(err).Retryable() || !strings.Contains(err.Error(), "openprogram/a") {
				t.Errorf("write: %v, want a final error naming openprogram/a", err)
			}
			st := wtStore(t, state)
			if got := wtMarked(t, st, ws, "a2", "b1"); !slices.Equal(got, []string{"b1"}) {
				t.Errorf("marked written: %v, want b1 only", got)
			}
			if ftRead(t, state, "sources/openprogram/_v2/b.md") == "" || wtCitations(t, state)["openprogram/b/b1"] == 0 {
				t.Errorf("session b was not archived and cited")
			}
			wiCheckFailed(t, e, map[string]errcode.Code{"openprogram/a": errcode.As(err).Code})
		})
	}
}

// TestWrite_DirectoryWhereANewArchiveGoes: a directory standing where a
// new thread's archive would be created is refused before the install's
// commit point. Renaming onto it used to fail past that point, leaving a
// journal no open could roll forward: the workspace would not open again.
func TestWrite_DirectoryWhereANewArchiveGoes(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("", wtTurn{Session: "a", ID: "a1", Role: "user", Content: "The kettle is blue."})...)
	wtImport(t, state, wtChain("", wtTurn{Session: "b", ID: "b1", Role: "user", Content: "The gate squeaks."})...)
	dir := filepath.Join(state, "memory", "sources", "openprogram", "_v2", "a.md")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	ws := wtWorkspaceID(t, e)
	_, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if ftCode(err) != errcode.Rejected || !strings.Contains(err.Error(), "directory") {
		t.Errorf("write: %v, want REJECTED naming the directory", err)
	}
	if got := wtMarked(t, wtStore(t, state), ws, "a1", "b1"); !slices.Equal(got, []string{"b1"}) {
		t.Errorf("marked written: %v, want b1 only", got)
	}
	e.Close()
	stages, _ := filepath.Glob(filepath.Join(state, "memory", ".scriptorium", "runtime", "tx-*"))
	if len(stages) != 0 {
		t.Errorf("install stages left behind: %v", stages)
	}
	e2 := wtOpen(t, state, nil) // fails the test if the workspace cannot open
	wiCheckFailed(t, e2, map[string]errcode.Code{"openprogram/a": errcode.Rejected})
}

// wiCheckFailed checks the writer status's failed sessions, as status
// reports them, against want ("provider/session" -> code).
func wiCheckFailed(t *testing.T, e *engine.Engine, want map[string]errcode.Code) {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fs := st.Writer.FailedSessions
	if fs == nil {
		t.Fatal("status writer.failed_sessions is nil, want a list")
	}
	got := map[string]errcode.Code{}
	for _, f := range fs {
		got[f.Provider+"/"+f.Session] = f.Code
		if f.Message == "" || f.At == "" {
			t.Errorf("failed session %+v has no message or time", f)
		}
	}
	if len(got) != len(want) {
		t.Errorf("failed sessions %+v, want %v", fs, want)
	}
	for k, c := range want {
		if got[k] != c {
			t.Errorf("failed session %s: code %q, want %q (all: %+v)", k, got[k], c, fs)
		}
	}
}
