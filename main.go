// Command scriptorium reviews and curates an AI agent's long-term memory.
// With no verb it opens the TUI; every engine operation is also a verb with
// --json output (SPEC §12). This file only parses the command line and hands
// off to the verb.
package main

import (
	"io"
	"os"
	"strconv"
	"strings"

	"scriptorium/termsafe"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: tests call it with their own streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if v, positional := neverFailing(args); v != nil {
		// A hook must never fail the user's session, not even on a
		// command line edited by hand: it always exits 0.
		return runNeverFailing(v, positional, args, stdin, stdout, stderr)
	}
	// Everything on stderr is for a person (errors, previews, warnings)
	// and may quote record text: it is neutralised (termsafe). A progress
	// bar's own controls go to termsafe.Unwrap(inv.stderr).
	safeErr := termsafe.NewWriter(stderr)
	defer safeErr.Flush()
	inv, err := parseArgs(args)
	if err != nil {
		// The bad flag may come before --json on the line: look for it
		// directly so a usage error still prints one JSON document.
		return report(&invocation{json: wantsJSON(args)}, stdout, safeErr, err)
	}
	inv.stdin, inv.stdout, inv.stderr = stdin, stdout, safeErr
	defer routeLibraryLog(inv)()
	return report(inv, stdout, safeErr, inv.verb.run(inv))
}

// wantsJSON reports whether --json (or --json=true) appears among the flags
// of args, for usage errors found before the parser reached it. As in the
// parser, the last valid occurrence wins.
func wantsJSON(args []string) bool {
	want := false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			continue
		}
		if !hasValue {
			want = true
		} else if b, err := strconv.ParseBool(value); err == nil {
			want = b
		}
	}
	return want
}
