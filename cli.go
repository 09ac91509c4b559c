package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/termsafe"
)

// The bottom of the CLI: what a verb is, the parsed command line it runs
// on, how it prints its result and how its failure ends the process. The
// verbs (cmd_*.go) and their helpers build on this file; it knows none of
// them.

// exitError is a failure that decides how the CLI ends: its exit status,
// and whether the user has been told already (the verb printed its result
// document, the TUI its own message), so the runner prints nothing more.
// Any other error exits 1 with its error document.
type exitError interface {
	error
	ExitStatus() int
	Reported() bool
}

// usageError is a malformed command line: exit status 2, reported as an
// INVALID_ARGUMENT document.
type usageError struct{ doc *errcode.Error }

func (e *usageError) Error() string   { return e.doc.Message }
func (e *usageError) Unwrap() error   { return e.doc }
func (e *usageError) ExitStatus() int { return errdoc.ExitUsage }
func (e *usageError) Reported() bool  { return false }

func usagef(format string, args ...any) error {
	return &usageError{doc: errcode.Errorf(errcode.InvalidArgument, format, args...)}
}

// flagSpec describes one flag. Flags may stand anywhere on the line, so the
// parser must know up front which ones take a value.
type flagSpec struct {
	name  string
	value bool   // takes a value (--name V or --name=V)
	help  string // one line for usage
}

// verb is one CLI command.
type verb struct {
	name  string
	args  string // positional synopsis
	help  string
	flags []flagSpec
	run   func(*invocation) error
	// details is the verb's longer help (formats, fields), shown by
	// "scriptorium VERB --help"; "" for verbs the one line explains.
	details string
	// reads marks a verb that only reads memory: on a state dir without a
	// workspace it answers NOT_FOUND with the path it looked at instead of
	// creating one (a mistyped --state must not leave an empty workspace
	// behind). `init`, `demo` and the verbs that write create it.
	reads bool
	// neverFails are the first arguments on which the verb exits 0
	// whatever happens, even on a broken command line: "claude-code" and
	// "codex" for hook (an agent's hook must never fail the user's session).
	neverFails []string
}

// invocation is a parsed command line plus the process streams.
type invocation struct {
	verb       *verb
	positional []string
	values     map[string]string
	set        map[string]bool
	multi      map[string][]string // every value of a repeatable flag, in order
	json       bool
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	tightened  bool // stateDir has made the state dir private (once per invocation)
}

func (inv *invocation) flag(name string) string { return inv.values[name] }
func (inv *invocation) bool(name string) bool   { return inv.set[name] && inv.values[name] != "false" }

// flags is every value of a repeatable flag, in the order given.
func (inv *invocation) flags(name string) []string { return inv.multi[name] }

// wantArgs checks the number of positional arguments.
func (inv *invocation) wantArgs(min, max int) error {
	n := len(inv.positional)
	if n < min || (max >= 0 && n > max) {
		return usagef("usage: scriptorium %s %s", inv.verb.name, inv.verb.args)
	}
	return nil
}

// emit prints a success result: the JSON document, or the human text.
// Human text goes through termsafe, so no verb can print a record's
// escape sequences, CRs or bidi controls raw to the owner's terminal;
// the JSON document keeps every byte.
func (inv *invocation) emit(doc any, human func(w io.Writer)) error {
	if inv.json {
		return writeJSON(inv.stdout, doc)
	}
	w := termsafe.NewWriter(inv.stdout)
	human(w)
	return w.Flush()
}

func writeJSON(w io.Writer, doc any) error { return errdoc.Write(w, doc) }

// confirm asks a yes/no question on stderr and reads the answer from
// stdin; anything but y or yes is no.
func (inv *invocation) confirm(question string) bool {
	fmt.Fprint(inv.stderr, question)
	var answer string
	fmt.Fscanln(inv.stdin, &answer)
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

// isTerminal reports whether stdin is an interactive terminal.
func (inv *invocation) isTerminal() bool {
	f, ok := inv.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
