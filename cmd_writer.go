package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

func runImport(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	cfg, err := engine.LoadConfig(workspace.ConfigPath(dir))
	if err != nil {
		return err
	}
	if cfg.Disabled() {
		return engine.ErrDisabled
	}
	var r io.Reader = inv.stdin
	if inv.positional[0] != "-" {
		f, err := os.Open(inv.positional[0])
		if err != nil {
			return engine.Wrap(engine.CodeInvalidArgument, err, "read turns")
		}
		defer f.Close()
		r = f
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return engine.Wrap(engine.CodeIO, err, "create state dir")
	}
	store, err := sessions.Open(workspace.SessionsDB(dir), nil)
	if err != nil {
		return engine.Wrap(engine.CodeIO, err, "open sessions.db")
	}
	defer store.Close()
	n, err := store.Import(r)
	if err != nil {
		var ie *sessions.ImportError
		if errors.As(err, &ie) {
			v := make([]engine.Violation, 0, len(ie.Lines))
			for _, l := range ie.Lines {
				v = append(v, engine.Violation{Code: "bad_line", Path: inv.positional[0], Line: l.Line, Message: l.Message})
			}
			return &engine.Error{Code: engine.CodeInvalidArgument, Violations: v,
				Message: fmt.Sprintf("%d bad line(s); nothing was imported", len(v))}
		}
		return engine.Wrap(engine.CodeIO, err, "import")
	}
	return inv.emit(map[string]int{"imported": n.Imported}, func(w io.Writer) {
		fmt.Fprintf(w, "imported %d turn(s)\n", n.Imported)
	})
}

func runWrite(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: inv.bool("force"), Session: inv.flag("session")})
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if res.Batches == 0 {
				fmt.Fprintf(w, "nothing owed (revision %d)\n", res.Revision)
				return
			}
			fmt.Fprintf(w, "wrote %d batch(es); revision %d\n", res.Batches, res.Revision)
		})
	})
}

func runBackfill(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Backfill(ctx, e)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			fmt.Fprintf(w, "distilled %d source(s) in %d batch(es)\n", res.Sources, res.Batches)
		})
	})
}
