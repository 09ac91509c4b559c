package recall_test

// The recall's CPU on the labelled set (issue 26: the prompt path must
// not get slower): every question of the dev split recalled at 1,000
// tokens by one long-lived engine, as the hook's resident process does.
// Compare two trees by alternating their test binaries:
//
//	go test -c -o new.test ./engine/recall   # and old.test from the other tree
//	./old.test -test.run '^$' -test.bench RecallLabelled -test.benchtime 20x; ./new.test …

import (
	"context"
	"path/filepath"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/writer"
)

func BenchmarkRecallLabelled(b *testing.B) {
	ctx := context.Background()
	ds := enginetest.LoadDistillSet(b, distillDir, "dev")
	state := filepath.Join(b.TempDir(), "state")
	ds.Import(b, state)
	e, err := engine.Open(ctx, engine.Options{StateDir: state, Interactive: true, Now: enginetest.Clock, Distiller: writer.Distiller{}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		b.Fatal(err)
	}
	var reqs []recall.Request
	for _, c := range ds.Convs {
		for _, q := range c.Questions {
			reqs = append(reqs, recall.Request{Prompt: q.Text, Budget: 1000, Cwd: c.Project})
		}
	}
	// One pass first, so both trees are measured warm (memos filled).
	for _, r := range reqs {
		if _, err := recall.Recall(ctx, e, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := recall.Recall(ctx, e, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
}
