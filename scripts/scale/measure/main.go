// Command measure times processes for scripts/scale/run.sh and reads their
// peak resident set from the kernel (getrusage's ru_maxrss, as
// ProcessState.SysUsage reports it), so the script needs no /usr/bin/time.
//
//	measure once [-timeout 20m] -- CMD [ARG…]
//	    one run; prints "<wall s>\t<peak RSS MiB>"
//	measure pair [-runs 10] [-timeout 2m] [-base-ok 0,1] [-stdin FILE] -- CMD… ::: BASE…
//	    one untimed run of each, then the two interleaved -runs times
//	    (-stdin: CMD reads FILE, as a hook reads its event);
//	    prints "<p50 ms>\t<p95 ms>\t<base p50 ms>\t<base p95 ms>\t<p50/base p50>\t<peak RSS MiB>\t<base stdout lines>
//	    \t<CPU p50 ms>\t<base CPU p50 ms>\t<CPU p50/base CPU p50>" (CPU: user + system, which a
//	    loaded machine does not inflate as it does the wall clock)
//	measure manifest -manifest FILE queries|edit_topics|cites|filter
//	    prints that part of a manifest, one value a line (cites: source-ids;
//	    filter: speaker, path, since, until)
//	measure txn -manifest FILE -revision R [-i I]
//	    prints an `update` transaction appending one cited block to the
//	    manifest's first small topic file
//
// The commands' stdout is discarded (pair counts the baseline's lines: for
// grep -l, the files that matched); stderr is shown only when a run fails.
// p50 and p95 are nearest-rank.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"scriptorium/scale"
	"scriptorium/workspace/topic"
)

func main() {
	if len(os.Args) < 2 {
		fail(errors.New("usage: measure once|pair|manifest|txn …"))
	}
	var err error
	switch os.Args[1] {
	case "once":
		err = once(os.Args[2:])
	case "pair":
		err = pair(os.Args[2:])
	case "txn":
		err = txn(os.Args[2:])
	case "manifest":
		err = manifest(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "measure:", err)
	os.Exit(1)
}

// sample is one finished run.
type sample struct {
	wall  time.Duration
	cpu   time.Duration // user + system: what the machine's load does not inflate
	rssKB int64         // ru_maxrss: KiB on Linux
	exit  int
	err   string // the tail of stderr
	lines int
}

// runOnce runs argv with stdout discarded (counting its lines) and returns
// its wall time and peak RSS. A run over timeout is killed.
func runOnce(argv []string, timeout time.Duration, stdin ...[]byte) (sample, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if len(stdin) > 0 {
		cmd.Stdin = bytes.NewReader(stdin[0])
	}
	var lines lineCounter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &lines, &stderr
	start := time.Now()
	err := cmd.Run()
	s := sample{wall: time.Since(start), lines: int(lines)}
	if cmd.ProcessState == nil {
		return s, fmt.Errorf("%s: %w", argv[0], err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKB = ru.Maxrss
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	s.exit = cmd.ProcessState.ExitCode()
	if ctx.Err() != nil {
		return s, fmt.Errorf("%s: killed after %s", strings.Join(argv, " "), timeout)
	}
	if s.exit < 0 {
		return s, fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
	}
	s.err = tail(stderr.String())
	return s, nil
}

type lineCounter int

func (c *lineCounter) Write(p []byte) (int, error) {
	*c += lineCounter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

func check(argv []string, s sample, ok []int) error {
	if !slices.Contains(ok, s.exit) {
		return fmt.Errorf("%s: exit status %d\n%s", strings.Join(argv, " "), s.exit, s.err)
	}
	return nil
}

func mib(kb int64) float64 { return float64(kb) / 1024 }

func once(args []string) error {
	fl := flag.NewFlagSet("once", flag.ContinueOnError)
	timeout := fl.Duration("timeout", 20*time.Minute, "kill the command after this long")
	if err := fl.Parse(args); err != nil {
		return err
	}
	argv := fl.Args()
	if len(argv) == 0 {
		return errors.New("once: no command")
	}
	s, err := runOnce(argv, *timeout)
	if err != nil {
		return err
	}
	if err := check(argv, s, []int{0}); err != nil {
		return err
	}
	fmt.Printf("%.3f\t%.0f\n", s.wall.Seconds(), mib(s.rssKB))
	return nil
}

func pair(args []string) error {
	fl := flag.NewFlagSet("pair", flag.ContinueOnError)
	runs := fl.Int("runs", 10, "timed runs of each command")
	timeout := fl.Duration("timeout", 2*time.Minute, "kill a run after this long")
	baseOK := fl.String("base-ok", "0", "exit statuses of the baseline that count as success (grep: 0,1)")
	stdinFile := fl.String("stdin", "", "a file the first command reads on its standard input")
	if err := fl.Parse(args); err != nil {
		return err
	}
	var in [][]byte
	if *stdinFile != "" {
		data, err := os.ReadFile(*stdinFile)
		if err != nil {
			return err
		}
		in = append(in, data)
	}
	rest := fl.Args()
	i := slices.Index(rest, ":::")
	if i <= 0 || i == len(rest)-1 || *runs < 1 {
		return errors.New("pair: want CMD… ::: BASE… and -runs ≥ 1")
	}
	a, b := rest[:i], rest[i+1:]
	var okB []int
	for _, f := range strings.Split(*baseOK, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("pair: -base-ok: %w", err)
		}
		okB = append(okB, n)
	}
	var as, bs, ca, cb []time.Duration
	var rss int64
	lines := 0
	for r := -1; r < *runs; r++ { // r = -1: the untimed warm-up
		sa, err := runOnce(a, *timeout, in...)
		if err == nil {
			err = check(a, sa, []int{0})
		}
		if err != nil {
			return err
		}
		sb, err := runOnce(b, *timeout)
		if err == nil {
			err = check(b, sb, okB)
		}
		if err != nil {
			return err
		}
		rss, lines = max(rss, sa.rssKB), sb.lines
		if r >= 0 {
			as, bs = append(as, sa.wall), append(bs, sb.wall)
			ca, cb = append(ca, sa.cpu), append(cb, sb.cpu)
		}
	}
	pa, pb := rank(as, 0.5), rank(bs, 0.5)
	qa, qb := rank(ca, 0.5), rank(cb, 0.5)
	fmt.Printf("%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t%.0f\t%d\t%.1f\t%.1f\t%.2f\n", ms(pa), ms(rank(as, 0.95)), ms(pb), ms(rank(bs, 0.95)),
		float64(pa)/float64(max(pb, 1)), mib(rss), lines, ms(qa), ms(qb), float64(qa)/float64(max(qb, 1)))
	return nil
}

// rank is the nearest-rank percentile q of xs.
func rank(xs []time.Duration, q float64) time.Duration {
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*q+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func txn(args []string) error {
	fl := flag.NewFlagSet("txn", flag.ContinueOnError)
	manifest := fl.String("manifest", "", "the workspace's manifest (scale/gen -manifest)")
	revision := fl.Int("revision", -1, "the workspace's current revision (status --json)")
	i := fl.Int("i", 0, "which edit (a different block id and citation each)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	m, err := scale.ReadManifest(*manifest)
	if err != nil {
		return err
	}
	if *revision < 0 || len(m.EditTopics) == 0 || len(m.Cites) == 0 {
		return errors.New("txn: want -revision ≥ 0 and a manifest with edit topics and cites")
	}
	p, c := m.EditTopics[*i%len(m.EditTopics)], m.Cites[*i%len(m.Cites)]
	rel, err := filepath.Rel(path.Dir(p), c.Archive)
	if err != nil {
		return err
	}
	id := topic.NewBlockID(fmt.Sprintf("scale-update-%d", *i))
	def := topic.Definition{Label: topic.NewFootnoteLabel("scale-update-" + id), Date: c.Date,
		Sources: []topic.Citation{{SourceID: c.SourceID, Path: filepath.ToSlash(rel)}}}
	content := fmt.Sprintf("Scale fact %d: the review of the billing service moved to Thursday.[^%s] ^%s\n\n%s\n",
		*i, def.Label, id, topic.FormatDefinition(def))
	tx := map[string]any{"base_revision": *revision,
		"edits": []map[string]string{{"op": "append", "path": p, "content": content}}}
	return json.NewEncoder(os.Stdout).Encode(tx)
}

func manifest(args []string) error {
	fl := flag.NewFlagSet("manifest", flag.ContinueOnError)
	file := fl.String("manifest", "", "the workspace's manifest (scale/gen -manifest)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	m, err := scale.ReadManifest(*file)
	if err != nil {
		return err
	}
	var out []string
	switch fl.Arg(0) {
	case "queries":
		out = m.Queries
	case "edit_topics":
		out = m.EditTopics
	case "cites":
		for _, c := range m.Cites {
			out = append(out, c.SourceID)
		}
	case "filter":
		out = []string{m.Filter.Speaker, m.Filter.Path, m.Filter.Since, m.Filter.Until}
	default:
		return fmt.Errorf("manifest: unknown part %q", fl.Arg(0))
	}
	for _, s := range out {
		fmt.Println(strings.ReplaceAll(s, "\n", " "))
	}
	return nil
}
