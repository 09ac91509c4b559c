package archive

import (
	"errors"
	"testing"
	"time"

	"scriptorium/errcode"
)

func TestBatch(t *testing.T) {
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	rec := func(id string) Record { return Record{SourceID: id, Role: "user", Time: at, Content: "hello " + id} }
	none := func(string) []byte { return nil }

	files, added, err := Batch(NewNames(), []Record{rec("tg/b/2"), rec("tg/a/1"), rec("tg/b/3")}, none)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || len(added) != 3 || files[V2Path("tg", "a")] == nil || files["sources/tg/_v2/b.md"] == nil {
		t.Fatalf("files %v, %d frames", len(files), len(added))
	}
	// A record already held is skipped: a second batch adds nothing.
	held := func(p string) []byte { return files[p] }
	if again, added, err := Batch(NewNames(), []Record{rec("tg/a/1")}, held); err != nil || len(again) != 0 || len(added) != 0 {
		t.Errorf("re-archiving: %d files, %d frames, %v", len(again), len(added), err)
	}

	// A name spelled differently from one on disk, or within the batch,
	// refuses the whole batch; so does an invalid record.
	names := NewNames()
	names.AddProvider("tg")
	names.AddThread("tg", "Group")
	_, _, err = Batch(names, []Record{rec("tg/group/1"), rec("TG/x/1"), rec("tg/ok/1"), rec("tg/ok2/1"), rec("tg/OK2/2"), {SourceID: "bad"}}, none)
	var ee *errcode.Error
	if !errors.As(err, &ee) || ee.Code != errcode.Rejected {
		t.Fatalf("err %v, want REJECTED", err)
	}
	var got []string
	for _, v := range ee.Violations {
		got = append(got, v.Code+" "+v.Path)
	}
	want := []string{"name_collision sources/tg/_v2/group.md", "name_collision sources/TG", "name_collision sources/tg/_v2/OK2.md", "bad_record bad"}
	if len(got) != len(want) {
		t.Fatalf("violations %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("violation %d: %s, want %s", i, got[i], want[i])
		}
	}
}
