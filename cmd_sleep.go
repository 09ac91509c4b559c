package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/daemon"
	"scriptorium/engine/importer"
	"scriptorium/engine/result"
	"scriptorium/engine/sleep"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// runSleep runs one reorganiser pass now and prints its report (SPEC §9,
// §12). A rejected pass is still recorded; it exits 1 with the reason.
func runSleep(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	opts := sleep.SleepOptions{ModelName: inv.flag("model")}
	if inv.set["model"] && strings.TrimSpace(opts.ModelName) == "" {
		return usagef("--model needs a name: offline, NAME or PROVIDER:NAME")
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		if inv.bool("propose") {
			p, err := sleep.Propose(ctx, e, opts)
			if err != nil {
				return err
			}
			return inv.emit(p.Summary(), func(w io.Writer) {
				if len(p.Changed) == 0 {
					fmt.Fprintln(w, "the pass found nothing to change; no proposal stored")
					return
				}
				fmt.Fprintf(w, "stored proposal %s (base revision %d): %s\n", p.ID, p.BaseRevision, strings.Join(proposalPaths(p), ", "))
				printDiffs(w, p.Changed)
			})
		}
		rep, err := sleep.Sleep(ctx, e, opts)
		if err != nil {
			return err
		}
		return inv.emit(rep, func(w io.Writer) { printPass(w, rep) })
	})
}

// printPass prints a pass report for people: the summary line, the core
// gap if any, then each file's unified diff.
func printPass(w io.Writer, rep result.PassReport) {
	fmt.Fprintf(w, "%s at %s\n", rep.Summary(), rep.Time)
	if rep.TokensIn > 0 || rep.TokensOut > 0 {
		fmt.Fprintf(w, "tokens: %d in, %d out\n", rep.TokensIn, rep.TokensOut)
	}
	if len(rep.CoreGap) > 0 {
		fmt.Fprintf(w, "core.md budget leaves out %d block(s) of topics/core.md: %s\n", len(rep.CoreGap), strings.Join(rep.CoreGap, " "))
	}
	printDiffs(w, rep.Changed)
}

// runDaemon runs the nightly scheduler and the idle-session watcher until
// SIGINT or SIGTERM, logging to stderr and to .scriptorium/daemon.log.
func runDaemon(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	if inv.json {
		return usagef("daemon runs until stopped and prints a log, not a JSON document")
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	// The daemon's engine lives until stopped and answers one-shot CLI
	// searches on the workspace's socket (app.Daemon).
	e, err := app.Open(ctx, dir, app.Daemon, inv.openOptions(dir, false, trust.Owner))
	if err != nil {
		return err
	}
	defer e.Close()
	if e.SocketWaits() {
		fmt.Fprintln(inv.stderr, "scriptorium: another serve or daemon of this workspace answers one-shot searches on its socket; this one takes over when that one exits")
	}
	logf, err := os.OpenFile(workspace.MetaPath(e.Root(), workspace.DaemonLogName),
		os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "open the daemon log")
	}
	defer logf.Close()
	log.SetOutput(logf) // library log lines (bleve) belong in the file too
	logw := io.MultiWriter(inv.stderr, logf)
	imports, err := importWatcher(dir, e.Config())
	if err != nil {
		return err
	}
	return daemon.Run(ctx, e.Engine, daemon.Options{Log: logw, Watch: daemonWatcher(e.Engine, imports, logw)})
}

// importWatcher is the watcher of config.toml's [import] watch folders,
// nil when there are none.
func importWatcher(dir string, cfg config.Config) (*importer.Watcher, error) {
	if len(cfg.Import.Watch) == 0 {
		return nil, nil
	}
	w := &importer.Watcher{StateDir: dir, Senders: importer.SendersOf(trustTables(cfg))}
	for _, p := range cfg.Import.Watch {
		abs, err := importer.ExpandHome(p)
		if err != nil {
			return nil, errcode.Wrap(errcode.InvalidArgument, err, "config: import.watch %q", p)
		}
		w.Paths = append(w.Paths, abs)
	}
	return w, nil
}

// daemonWatcher is what the daemon runs every minute: the watched folders'
// new or grown exports are imported (and the writer's threshold pass run
// when something was stored), then sessions idle longer than
// daemon.idle_minutes are force-written. An import's failure is logged,
// never fatal.
func daemonWatcher(e *engine.Engine, imports *importer.Watcher, logw io.Writer) func(context.Context) error {
	idle := time.Duration(e.Config().Daemon.IdleMinutes) * time.Minute
	return func(ctx context.Context) error {
		// What the transcript hooks left unread (a transcript larger than
		// one event's bound) is imported first, from where they stopped.
		finished, err := importer.FinishUnfinished(ctx, e.StateDir())
		stored := 0
		for _, r := range finished {
			switch {
			case r.Err != nil:
				fmt.Fprintf(logw, "%s hook import: %s: %s\n", time.Now().Format(time.RFC3339), r.Path, strings.Join(strings.Fields(r.Err.Error()), " "))
			case r.Result.Imported > 0:
				fmt.Fprintf(logw, "%s hook import: %s: the rest the hook left, %d new turn(s)\n", time.Now().Format(time.RFC3339), r.Path, r.Result.Imported)
			}
			stored += r.Result.Imported
		}
		if err != nil {
			fmt.Fprintf(logw, "%s hook import: %v\n", time.Now().Format(time.RFC3339), err)
		}
		if stored > 0 {
			if _, err := writer.Write(ctx, e, writer.WriteOptions{}); err != nil && ctx.Err() == nil {
				fmt.Fprintf(logw, "%s hook import: writer: %v\n", time.Now().Format(time.RFC3339), err)
			}
		}
		if imports != nil {
			// The owner may name senders (import --owner) while the daemon
			// runs: the watched imports use what config.toml says now.
			if cfg, err := config.Load(workspace.ConfigPath(imports.StateDir)); err == nil {
				imports.Senders = importer.SendersOf(trustTables(cfg))
			}
			results, err := imports.Scan(ctx)
			stored := 0
			for _, r := range results {
				if r.Err != nil || r.Result.Imported > 0 || len(r.Result.Warnings) > 0 {
					fmt.Fprintf(logw, "%s %s\n", time.Now().Format(time.RFC3339), r.Summary())
				}
				stored += r.Result.Imported
			}
			if err != nil {
				fmt.Fprintf(logw, "%s import watch: %v\n", time.Now().Format(time.RFC3339), err)
			}
			if stored > 0 {
				// Unpaired group messages are archived pending at once,
				// and a session past the threshold gets its batch.
				if _, err := writer.Write(ctx, e, writer.WriteOptions{}); err != nil && ctx.Err() == nil {
					fmt.Fprintf(logw, "%s import watch: writer: %v\n", time.Now().Format(time.RFC3339), err)
				}
			}
		}
		return writer.WriteIdle(ctx, e, idle)
	}
}
