package archive

import "testing"

// TestLegacyID: a legacy record keeps its own id and anchor; an unframed
// one gets the id of its line and that id's anchor.
func TestLegacyID(t *testing.T) {
	ref, anchor := LegacyID("p", "t", LegacyRecord{SourceID: "p/t/7", Anchor: "a7", Line: 3})
	if ref != "p/t/7" || anchor != "a7" {
		t.Errorf("own id: %q %q", ref, anchor)
	}
	ref, anchor = LegacyID("p", "t", LegacyRecord{Line: 12})
	if ref != "p/t/legacy-L12" || anchor != AnchorFor("p/t/legacy-L12") {
		t.Errorf("unframed: %q %q", ref, anchor)
	}
}
