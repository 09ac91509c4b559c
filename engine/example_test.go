package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// A transaction either installs whole or changes nothing; a rejection lists
// every violation.
func ExampleEngine_Update() {
	state, _ := os.MkdirTemp("", "scriptorium-example")
	defer os.RemoveAll(state)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close()

	rev := int64(0)
	good := "# Tea\n\nThe owner drinks green tea. ^7ea7ea00\n"
	res, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{
		{Op: "create", Path: "topics/tea.md", Content: &good}}})
	fmt.Println(res.Revision, res.Changed, err)

	bad := "An uncited paragraph without an id.\n"
	_, err = e.Update(ctx, result.Transaction{BaseRevision: &res.Revision, Edits: []result.Edit{
		{Op: "append", Path: "topics/tea.md", Content: &bad},
		{Op: "create", Path: "../escape.md", Content: &bad}}})
	var ee *errcode.Error
	if errors.As(err, &ee) {
		fmt.Println(ee.Code, len(ee.Violations))
		for _, v := range ee.Violations {
			fmt.Println(v.Code, v.Path)
		}
	}

	block, _ := e.Get(ctx, "^7ea7ea00")
	fmt.Println(block.(result.BlockView).Text)
	// Output:
	// 1 [topics/tea.md] <nil>
	// REJECTED 2
	// bad_path ../escape.md
	// missing_block_id topics/tea.md
	// The owner drinks green tea.
}
