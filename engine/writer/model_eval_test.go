package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/engine/writer/writereval"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// Issue 22 §2: one harness measures both writers. The model writer runs
// the real `write --force` against writereval's scripted OpenAI-compatible
// server and is scored by the same writereval.Score as the offline
// distiller (TestWrite_LabelledSet), beside the offline writer's figures
// on the same conversations.
//
// No model is reachable here: the recorded answers under
// testdata/distill/model-responses were written by hand, in the exact
// shape the prompt asks for, for a few dev conversations; two of them are
// answers a model can get wrong (a citation of a source that does not
// exist, an answer that is not an edit list), which the writer refuses
// for their session without storing anything.
//
//	go test ./engine/writer -run TestModelWriter -v     # the figures
//	SCRIPTORIUM_EVAL_MODEL_ENDPOINT=http://localhost:11434/v1 \
//	SCRIPTORIUM_EVAL_MODEL_NAME=qwen2.5:14b go test ./engine/writer -run TestModelWriter_Live -v -timeout 0

var modelResponsesDir = filepath.Join(distillSetDir, "model-responses")

// replayWritten are the conversations whose recorded answers are
// installed; replayRefused those whose answers validation refuses, with
// the code each session fails with.
var (
	replayWritten = []string{"06-code-ledgerline-flaky.txt", "11-chat-bike-gears.txt",
		"13-group-flat3b.txt", "14-code-ledgerline-config.txt"}
	replayRefused = map[string]errcode.Code{
		"10-chat-japan.txt": errcode.Rejected,           // cites a source-id that does not exist
		"12-chat-books.txt": errcode.ModelOutputInvalid, // prose and a truncated object, no edit list
	}
)

// replayFloors are what the hand-written answers must keep scoring on
// the written conversations (they are fixed bytes, so a drop means the
// scorer or the writer's handling of an answer changed): the issue's
// targets, but for chat: one block of 31 (Ben's four weeks of paternity
// leave) is a fact the set's annotators did not keep, 3.2%.
var replayFloors = struct{ coverage, precision, size, chat float64 }{coverage: 0.85, precision: 0.75, size: 0.40, chat: 0.04}

func TestModelWriter_Replayed(t *testing.T) {
	ctx := context.Background()
	dev := enginetest.LoadDistillSet(t, distillSetDir, "dev")
	all := append([]string(nil), replayWritten...)
	for f := range replayRefused {
		all = append(all, f)
	}
	set, err := writereval.Subset(dev, all...)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := writereval.NewServer(writereval.ServerOptions{Dir: modelResponsesDir, Dump: os.Getenv(writereval.EnvDump)})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "state")
	set.Import(t, state)
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(writereval.ModelConfig(srv.URL+"/v1", "hand-written")), 0o644); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	res, werr := writer.Write(ctx, e, writer.WriteOptions{Force: true})
	for _, m := range srv.Misses() {
		t.Error(m)
	}
	if t.Failed() {
		// The hash covers the prompt and the memory it shows (the files
		// earlier answers made, their order): any change to what the
		// writer sends misses every later recording.
		t.Fatal("if the writer's prompt or what it shows the model changed, regenerate the hand-written answers: " +
			"testdata/distill/model-responses/hand/regen.sh (see its README)")
	}
	if u := srv.Unused(); len(u) > 0 {
		t.Errorf("recordings no request asked for: %v", u)
	}

	// The two refused sessions: the run goes on, reports each by name and
	// code, and stores nothing of theirs (no archive, no block, no marker).
	t.Logf("write: %+v; refused: %v", res, werr)
	if res.Batches != len(replayWritten) {
		t.Errorf("%d batches written, want %d", res.Batches, len(replayWritten))
	}
	if werr == nil {
		t.Fatal("write succeeded: the refused answers were installed")
	}
	unresolved := false
	for _, v := range errcode.As(werr).Violations {
		unresolved = unresolved || v.Code == "unresolved_source"
	}
	if !unresolved {
		t.Errorf("the write's error %v has no unresolved_source violation", werr)
	}
	frames := wtFrames(t, state)
	st, err := e.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]errcode.Code{}
	for _, f := range st.Writer.FailedSessions {
		failed[f.Provider+"/"+f.Session] = f.Code
	}
	wsID := wtWorkspaceID(t, e)
	store := wtStore(t, state)
	for _, c := range set.Convs {
		code, refused := replayRefused[c.File]
		name := c.Provider + "/" + c.Session
		if got := failed[name]; got != code {
			t.Errorf("%s: status says failed %q, want %q", c.File, got, code)
		}
		if refused && !strings.Contains(errcode.As(werr).Message, name+" ("+string(code)) {
			t.Errorf("the write's error does not name %s with %s: %v", name, code, werr)
		}
		archived, marked := 0, 0
		for _, tt := range c.Turns {
			if _, ok := frames[tt.Ref]; ok {
				archived++
			}
			key := sessions.SessionKey{Provider: c.Provider, Session: c.Session}.Node(tt.Ref[strings.LastIndex(tt.Ref, "/")+1:])
			n, err := store.Node(key)
			if err != nil {
				t.Fatalf("%s: %v", tt.Ref, err)
			}
			if n.Written == wsID {
				marked++
			}
		}
		if refused && (archived > 0 || marked > 0) {
			t.Errorf("%s was refused but %d turns are archived and %d marked written", c.File, archived, marked)
		}
		if !refused && (archived != len(c.Turns) || marked != len(c.Turns)) {
			t.Errorf("%s: %d of %d turns archived, %d marked", c.File, archived, len(c.Turns), marked)
		}
	}

	written, err := writereval.Subset(dev, replayWritten...)
	if err != nil {
		t.Fatal(err)
	}
	fig, err := writereval.Score(state, written)
	if err != nil {
		t.Fatal(err)
	}
	off := offlineFigures(t, written)
	t.Logf("the written conversations, both writers (the model's answers hand-written):\n%s",
		writereval.Table([]string{"model (replayed)", "offline"}, []writereval.Figures{fig, off}))
	for _, f := range fig.Invented {
		t.Errorf("invents: %s", f)
	}
	for _, f := range fig.FirstPerson {
		t.Errorf("in the first person: %s", f)
	}
	fl := replayFloors
	if fig.Coverage < fl.coverage || fig.Precision < fl.precision || fig.Size > fl.size || fig.ChatRate > fl.chat {
		t.Errorf("model (replayed) below the floors %+v: %s", fl, fig)
	}
	ftVerifyClean(t, e)
}

// TestModelWriter_Live measures a real model on the whole set beside the
// offline writer, when the environment names one (writereval.Env*).
func TestModelWriter_Live(t *testing.T) {
	live, ok, err := writereval.LiveFromEnv()
	if !ok {
		t.Skipf("no model to measure: set %s (an OpenAI-compatible base URL) and %s, optionally %s, %s=<dir> to record for replay and %s to measure a few conversations; or %s=<dir> and %s to measure recordings again",
			writereval.EnvEndpoint, writereval.EnvModel, writereval.EnvKey, writereval.EnvRecord, writereval.EnvConvs, writereval.EnvReplay, writereval.EnvModel)
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, split := range []string{"dev", "heldout2"} {
		t.Run(split, func(t *testing.T) {
			set := enginetest.LoadDistillSet(t, distillSetDir, split)
			if len(live.Convs) > 0 {
				var names []string
				for _, c := range set.Convs {
					if slices.Contains(live.Convs, c.File) {
						names = append(names, c.File)
					}
				}
				if len(names) == 0 {
					t.Skipf("%s names no conversation of %s", writereval.EnvConvs, split)
				}
				if set, err = writereval.Subset(set, names...); err != nil {
					t.Fatal(err)
				}
			}
			measureLive(t, live, set, split)
		})
	}
}

// TestModelWriter_LivePath runs the live measurement against a loopback
// fake model, recording: what TestModelWriter_Live does with a real one,
// and the recordings then replay to the same memory.
func TestModelWriter_LivePath(t *testing.T) {
	dev := enginetest.LoadDistillSet(t, distillSetDir, "dev")
	set, err := writereval.Subset(dev, "06-code-ledgerline-flaky.txt", "11-chat-bike-gears.txt")
	if err != nil {
		t.Fatal(err)
	}
	up := wtNewServer(t, wtGoodReply)
	rec := filepath.Join(t.TempDir(), "recorded")
	live := writereval.Live{Model: "test-model", Opts: writereval.ServerOptions{Upstream: up.URL + "/v1", Record: rec}}
	state, fig := measureLive(t, live, set, "two dev conversations")
	if n := len(up.requests()); n != 2 || fig.Blocks == 0 {
		t.Fatalf("%d upstream calls, %d blocks", n, fig.Blocks)
	}
	srv, err := writereval.NewServer(writereval.ServerOptions{Dir: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	again := filepath.Join(t.TempDir(), "replayed")
	set.Import(t, again)
	if err := os.WriteFile(workspace.ConfigPath(again), []byte(writereval.ModelConfig(srv.URL+"/v1", live.Model)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(context.Background(), wtOpen(t, again, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatalf("replaying the recordings: %v (misses %v)", err, srv.Misses())
	}
	topics := func(state string) map[string]string {
		out := map[string]string{}
		root := filepath.Join(workspace.MemoryDir(state), "topics")
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, _ := os.ReadFile(p)
				out[strings.TrimPrefix(p, root)] = string(data)
			}
			return nil
		})
		return out
	}
	a, b := topics(state), topics(again)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("live wrote %d topic files, the replay %d", len(a), len(b))
	}
	for p, data := range a {
		if b[p] != data {
			t.Errorf("%s differs between the live run and its replay", p)
		}
	}
}

// measureLive runs the model writer through a writereval server in live
// mode on set, scores it beside the offline writer and logs both.
func measureLive(t *testing.T, live writereval.Live, set enginetest.DistillSet, what string) (string, writereval.Figures) {
	t.Helper()
	srv, err := writereval.NewServer(live.Opts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "state")
	set.Import(t, state)
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(writereval.ModelConfig(srv.URL+"/v1", live.Model)), 0o644); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	res, werr := writer.Write(context.Background(), e, writer.WriteOptions{Force: true})
	t.Logf("%s: %d answers, %d batches installed; %v", live.Model, len(srv.Answered()), res.Batches, werr)
	for _, f := range srv.Failures() {
		t.Logf("no answer: %s", f)
	}
	for _, m := range srv.Misses() {
		t.Errorf("replaying recordings: %s", m)
	}
	fig, err := writereval.Score(state, set)
	if err != nil {
		t.Fatal(err)
	}
	off := offlineFigures(t, set)
	t.Logf("%s, both writers:\n%s", what, writereval.Table([]string{"model " + live.Model, "offline"}, []writereval.Figures{fig, off}))
	// The blocks that broke a rule, a few of each: what to read first.
	for _, fs := range []struct {
		what string
		list []writereval.Finding
	}{{"invents", fig.Invented}, {"in the first person", fig.FirstPerson}} {
		for i, f := range fs.list {
			if i == 10 {
				t.Logf("%s: %d more", fs.what, len(fs.list)-i)
				break
			}
			t.Logf("%s: %s", fs.what, f)
		}
	}
	return state, fig
}

// offlineFigures runs the offline `write --force` on set and scores it.
func offlineFigures(t *testing.T, set enginetest.DistillSet) writereval.Figures {
	t.Helper()
	state := filepath.Join(t.TempDir(), "offline")
	set.Import(t, state)
	e := wtOpen(t, state, nil)
	if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	fig, err := writereval.Score(state, set)
	if err != nil {
		t.Fatal(err)
	}
	return fig
}
