// Command gen writes the generated inputs of package scale to disk:
//
//	go run ./scale/gen -records 100000 -out STATEDIR [-seed S] [-manifest FILE]
//	go run ./scale/gen -history-sessions 270 -history-turns 6000 -out FILE [-seed S]
//	go run ./scale/gen -import-mib 1024 [-kinds claude-code,claude-code-text,telegram] -out DIR
//	    (also the kinds discord, discord-overlap, slack, whatsapp, whatsapp-long, codex, gemini)
//	go run ./scale/gen -version
//
// The first writes a complete state dir (STATEDIR/memory: v2 archives and
// topic files) that `scriptorium --state STATEDIR` opens and verifies
// clean; the manifest (queries, a filter, files to edit, sources to cite)
// goes to FILE when asked. The second writes the `import` JSONL of a long
// conversation history (FILE "-" is stdout). The third writes a folder of
// transcripts for `scriptorium import DIR` (scale.ImportFolder: Claude
// Code transcripts, text-heavy ones, Telegram account exports, WhatsApp
// chats, Codex rollouts, Gemini sessions, an equal share of each kind
// named). -version prints scale.Version,
// which keys caches of the output.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"scriptorium/scale"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("gen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	records := fl.Int("records", 0, "write a workspace of N source records")
	sessions := fl.Int("history-sessions", 0, "write a history of N sessions (with -history-turns)")
	turns := fl.Int("history-turns", 0, "the history's number of turns in all")
	out := fl.String("out", "", "the state dir (workspace) or JSONL file (history; - for stdout) to write")
	seed := fl.String("seed", "", fmt.Sprintf("the seed (default %#x for a workspace, %d for a history)", scale.DefaultSeed, scale.HistorySeed))
	manifest := fl.String("manifest", "", "also write the workspace's manifest (JSON) to this file")
	importMiB := fl.Int64("import-mib", 0, "write a folder of about N MiB of transcripts to import")
	kinds := fl.String("kinds", strings.Join(scale.MixedKinds, ","), "the kinds of file of -import-mib, comma-separated (of "+strings.Join(scale.ImportKinds, ", ")+")")
	version := fl.Bool("version", false, "print the generator version and exit")
	if err := fl.Parse(args); err != nil {
		return errUsage
	}
	switch {
	case *version:
		fmt.Fprintln(stdout, scale.Version)
		return nil
	case fl.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fl.Arg(0))
	case *importMiB > 0:
		if *records != 0 || *sessions != 0 || *turns != 0 || *out == "" {
			return fmt.Errorf("%w: -import-mib N -out DIR, without -records or -history-*", errUsage)
		}
		return writeImportFolder(*out, *importMiB, strings.Split(*kinds, ","), stdout)
	case *records == 0 && *sessions == 0 && *turns == 0:
		fl.Usage()
		return fmt.Errorf("%w: give -records N, -history-sessions and -history-turns, or -import-mib N", errUsage)
	case *out == "":
		return fmt.Errorf("%w: -out is required", errUsage)
	case *records > 0 && *sessions == 0 && *turns == 0:
		s := scale.DefaultSeed
		if *seed != "" {
			v, err := strconv.ParseUint(*seed, 0, 64)
			if err != nil {
				return fmt.Errorf("%w: -seed: %v", errUsage, err)
			}
			s = v
		}
		return writeWorkspace(*out, *records, s, *manifest, stdout)
	case *records == 0 && *sessions > 0 && *turns > 0:
		s := scale.HistorySeed
		if *seed != "" {
			v, err := strconv.ParseInt(*seed, 0, 64)
			if err != nil {
				return fmt.Errorf("%w: -seed: %v", errUsage, err)
			}
			s = v
		}
		return writeHistory(*out, *sessions, *turns, s)
	default:
		return fmt.Errorf("%w: -records N, or -history-sessions and -history-turns, not both", errUsage)
	}
}

// writeWorkspace generates into a sibling temporary directory and renames
// it into place, so an interrupted run never leaves a half workspace at
// out.
func writeWorkspace(out string, n int, seed uint64, manifest string, stdout io.Writer) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: give a new state dir", out)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), filepath.Base(out)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	m, err := scale.Workspace(filepath.Join(tmp, "memory"), n, seed)
	if err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	if manifest != "" {
		if err := scale.WriteManifest(manifest, m); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s: %d records (%d pending) in %d archives, %d topic files, %d blocks, %.1f MiB, in %s\n",
		out, m.Records, m.Pending, m.Threads, m.TopicFiles, m.Blocks, float64(m.Bytes)/(1<<20), time.Since(start).Round(time.Millisecond))
	return nil
}

func writeHistory(out string, sessions, turns int, seed int64) error {
	if out == "-" {
		return scale.WriteHistory(os.Stdout, sessions, turns, seed)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := scale.WriteHistory(f, sessions, turns, seed); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// writeImportFolder writes the folder into a new directory out.
func writeImportFolder(out string, mib int64, kinds []string, stdout io.Writer) error {
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists: give a new directory", out)
	}
	start := time.Now()
	f, err := scale.ImportFolder(out, mib, kinds)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d files, %.1f MiB, %d turns, in %s\n",
		out, len(f.Files), float64(f.Bytes)/(1<<20), f.Turns, time.Since(start).Round(time.Millisecond))
	return nil
}
