// Command scriptorium reviews and curates an AI agent's long-term memory.
// With no verb it opens the TUI; every engine operation is also a verb with
// --json output (SPEC §12). This file only parses the command line and hands
// off to the verb.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: tests call it with their own streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	inv, err := parseArgs(args)
	if err != nil {
		return report(&invocation{json: inv != nil && inv.json}, stdout, stderr, err)
	}
	inv.stdin, inv.stdout, inv.stderr = stdin, stdout, stderr
	return report(inv, stdout, stderr, inv.verb.run(inv))
}
