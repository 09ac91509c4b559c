package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"scriptorium/errcode"
	"scriptorium/workspace"
)

// runInit creates a workspace: the one way, with `demo`, that a state dir
// comes into being on purpose. Running it on an existing workspace only
// reports it.
func runInit(inv *invocation) error {
	if err := inv.wantArgs(0, 1); err != nil {
		return err
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	if len(inv.positional) == 1 {
		if inv.set["state"] || inv.set["profile"] {
			return usagef("give the directory once: as DIR or with --state/--profile")
		}
		if dir, err = filepath.Abs(inv.positional[0]); err != nil {
			return errcode.Wrap(errcode.InvalidArgument, err, "resolve %s", inv.positional[0])
		}
	}
	_, statErr := os.Stat(workspace.MemoryDir(dir))
	existed := statErr == nil
	ctx, cancel := signalContext()
	defer cancel()
	res, err := initWorkspace(ctx, dir)
	if err != nil {
		return err
	}
	res.Created = !existed
	return inv.emit(res, func(w io.Writer) {
		if res.Created {
			fmt.Fprintf(w, "created workspace %s at %s\n", res.WorkspaceID, workspace.MemoryDir(dir))
			return
		}
		fmt.Fprintf(w, "workspace %s already exists at %s (revision %d)\n", res.WorkspaceID, workspace.MemoryDir(dir), res.Revision)
	})
}
