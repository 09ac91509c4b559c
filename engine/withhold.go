package engine

import (
	"fmt"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/topic"
)

// Pending content never reaches a model: a block that cites a pending
// source shows only as a placeholder in writer and sleep prompts, so an
// unreviewed group message can neither be restated as trusted memory nor
// steer the model. Files holding such blocks are append-only for a model:
// it cannot rewrite bytes it was not shown.

// withheldText returns a topic file as a model may see it, and whether it
// holds pending blocks.
func (s *snapshot) withheldText(tf *topicFile) (string, bool) {
	pending := false
	parts := make([]string, 0, len(tf.file.Elements))
	for _, el := range tf.file.Elements {
		if el.Kind == topic.KindBlock && !s.blockTrusted(tf, el) {
			pending = true
			parts = append(parts, fmt.Sprintf("(block %s is pending the owner's review; its text is withheld)", "^"+el.BlockID))
			continue
		}
		parts = append(parts, el.Raw)
	}
	if !pending {
		return string(tf.data), false
	}
	return strings.Join(parts, "\n\n") + "\n", true
}

// checkWithheld rejects model edits that would rewrite, delete or move a
// file holding pending blocks; appending to it is fine.
func (s *snapshot) checkWithheld(edits []result.Edit) error {
	var bad []errcode.Violation
	for i, ed := range edits {
		if ed.Op == "append" || ed.Op == "create" {
			continue
		}
		tf, ok := s.topics[ed.Path]
		if !ok {
			continue
		}
		if _, pending := s.withheldText(tf); pending {
			bad = append(bad, errcode.Violation{Code: "pending_file", Path: ed.Path,
				Message: fmt.Sprintf("edit %d (%s): the file holds blocks pending the owner's review, which the model was not shown; only append is allowed", i, ed.Op)})
		}
	}
	if len(bad) > 0 {
		return &errcode.Error{Code: errcode.Rejected, Violations: bad,
			Message: fmt.Sprintf("the model's answer was rejected: %d edit(s) would rewrite pending content; nothing was changed", len(bad))}
	}
	return nil
}
