package result

import (
	"bytes"
	"encoding/json"

	"scriptorium/errcode"
)

// Edit is one edit of a transaction (SPEC §6).
type Edit struct {
	Op      string  `json:"op"` // create, replace, append, delete, move
	Path    string  `json:"path"`
	Content *string `json:"content,omitempty"`
	To      string  `json:"to,omitempty"` // move only
}

// Transaction is what `update` applies: edits against a base revision.
type Transaction struct {
	BaseRevision *int64 `json:"base_revision"`
	Edits        []Edit `json:"edits"`
}

// ParseTransaction decodes a transaction document. Anything that is not
// one JSON object of the SPEC §6 shape is INVALID_ARGUMENT.
func ParseTransaction(data []byte) (Transaction, error) {
	var tx Transaction
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&tx); err != nil {
		return tx, errcode.Errorf(errcode.InvalidArgument, "transaction is not valid JSON: %v", err)
	}
	if dec.More() {
		return tx, errcode.Errorf(errcode.InvalidArgument, "transaction holds more than one JSON document")
	}
	if tx.BaseRevision == nil {
		return tx, errcode.Errorf(errcode.InvalidArgument, "transaction has no base_revision")
	}
	if len(tx.Edits) == 0 {
		return tx, errcode.Errorf(errcode.InvalidArgument, "transaction has no edits")
	}
	for i, ed := range tx.Edits {
		switch ed.Op {
		case "create", "replace", "append":
			if ed.Content == nil {
				return tx, errcode.Errorf(errcode.InvalidArgument, "edit %d (%s %s) has no content", i, ed.Op, ed.Path)
			}
		case "delete":
		case "move":
			if ed.To == "" {
				return tx, errcode.Errorf(errcode.InvalidArgument, "edit %d (move %s) has no \"to\"", i, ed.Path)
			}
		default:
			return tx, errcode.Errorf(errcode.InvalidArgument, "edit %d has unknown op %q (want create, replace, append, delete or move)", i, ed.Op)
		}
	}
	return tx, nil
}

// FileEdit is the edit that takes topic file path from its current bytes
// cur to want (nil: the file does not exist on that side); ok is false
// when nothing changes. Revert and accept both turn a merged file into
// edits this way.
func FileEdit(path string, cur, want []byte) (ed Edit, ok bool) {
	switch {
	case want == nil && cur != nil:
		return Edit{Op: "delete", Path: path}, true
	case want != nil && cur == nil:
		content := string(want)
		return Edit{Op: "create", Path: path, Content: &content}, true
	case want != nil && string(want) != string(cur):
		content := string(want)
		return Edit{Op: "replace", Path: path, Content: &content}, true
	}
	return Edit{}, false
}
