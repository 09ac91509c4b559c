package browse_test

import (
	"context"
	"testing"

	"scriptorium/engine/browse"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

// TestBrowse_TopicsTopicCore: the topic list counts blocks, one topic
// gives its blocks in file order with footnotes, core.md's blocks come
// with their render state, and a missing topic is NOT_FOUND.
func TestBrowse_TopicsTopicCore(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, enginetest.Fixture(t, "valid"))
	sums, err := browse.Topics(ctx, e)
	if err != nil || len(sums) == 0 {
		t.Fatalf("topics = %v, %v", sums, err)
	}
	for _, s := range sums {
		v, err := browse.Topic(ctx, e, s.Path)
		if err != nil {
			t.Fatal(err)
		}
		pending := 0
		for _, b := range v.Blocks {
			if b.Path != s.Path || b.Anchor != "^"+b.Ref {
				t.Errorf("block %+v of %s", b, s.Path)
			}
			if b.Trust == "pending" {
				pending++
			}
		}
		if len(v.Blocks) != s.Blocks || pending != s.Pending || v.Raw != enginetest.Read(t, enginetest.Fixture(t, "valid"), s.Path) {
			t.Errorf("%s: %d blocks (%d pending), summary %+v", s.Path, len(v.Blocks), pending, s)
		}
	}
	cv, err := browse.CoreView(ctx, e)
	if err != nil || len(cv.Blocks) == 0 {
		t.Fatalf("core view = %+v, %v", cv, err)
	}
	for _, b := range cv.Blocks {
		if b.State == "" || (b.State == "included" && b.Tokens == 0) {
			t.Errorf("core block %+v", b)
		}
	}
	if _, err := browse.Topic(ctx, e, "topics/nope.md"); enginetest.Code(err) != errcode.NotFound {
		t.Errorf("missing topic: %v", err)
	}
}

// TestBrowse_Archive: an archive's every record in file order, the legacy
// flag, the problem of a truncated one, and NOT_FOUND for no archive.
func TestBrowse_Archive(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, enginetest.Fixture(t, "valid"))
	old, err := browse.Archive(ctx, e, "sources/openprogram/old-chat.md")
	if err != nil || !old.Legacy || len(old.Sources) == 0 || old.Problem != "" {
		t.Fatalf("legacy archive = %+v, %v", old, err)
	}
	for _, src := range old.Sources {
		if src.Path != old.Path {
			t.Errorf("record %s of %s", src.Ref, src.Path)
		}
	}
	if _, err := browse.Archive(ctx, e, "sources/openprogram/_v2/none.md"); errcode.As(err).Code != errcode.NotFound {
		t.Fatalf("a missing archive: %v, want NOT_FOUND", err)
	}
	if _, err := browse.Archive(ctx, e, "topics/core.md"); errcode.As(err).Code != errcode.NotFound {
		t.Fatalf("a topic file as an archive: %v, want NOT_FOUND", err)
	}
	tr := enginetest.Open(t, enginetest.Fixture(t, "truncated-frame"))
	short, err := browse.Archive(ctx, tr, "sources/openprogram/_v2/short-record.md")
	if err != nil || short.Legacy || short.Problem == "" {
		t.Fatalf("truncated archive = %+v, %v: want its problem", short, err)
	}
}
