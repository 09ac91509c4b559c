package main

import (
	"errors"
	"fmt"
	"io"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/termsafe"
)

// The runner: it parses a command line against the command table
// (commands.go), runs the verb and turns its outcome into the exit status
// and, on failure, the error document.

// globalFlags apply to every verb.
var globalFlags = []flagSpec{
	{"state", true, "state directory (default $SCRIPTORIUM_STATE or ~/.openprogram)"},
	{"profile", true, "use ~/.openprogram-NAME"},
	{"json", false, "print exactly one JSON document on stdout"},
	{"help", false, "show help"},
}

// repeatable are the flags that may be given more than once; each value
// is kept (invocation.flags).
var repeatable = map[string]bool{"owner": true, "paired": true}

// optionalValue are the switches that may also carry a value after "="
// (--http or --http=URL); the value stands in invocation.flag, a bare
// switch reads "true".
var optionalValue = map[string]bool{"http": true}

// allFlags is every flag of every verb, by name: the parser must know
// which ones take a value wherever they stand.
func allFlags() map[string]flagSpec {
	m := map[string]flagSpec{}
	for _, f := range globalFlags {
		m[f.name] = f
	}
	for _, v := range verbs() {
		for _, f := range v.flags {
			m[f.name] = f
		}
	}
	return m
}

// findVerb is the verb of the table called name, or nil.
func findVerb(name string) *verb {
	for _, v := range verbs() {
		if v.name == name {
			return v
		}
	}
	return nil
}

// parseArgs accepts flags before or after the verb and its positional
// arguments (SPEC §12). "--" ends flag parsing.
func parseArgs(args []string) (*invocation, error) {
	known := allFlags()
	inv := &invocation{values: map[string]string{}, set: map[string]bool{}, multi: map[string][]string{}}
	var used []string
	onlyPositional := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if onlyPositional || a == "-" || !strings.HasPrefix(a, "-") {
			inv.positional = append(inv.positional, a)
			continue
		}
		if a == "--" {
			onlyPositional = true
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		if name == "h" {
			name = "help" // -h is the short form every user tries first
		}
		spec, ok := known[name]
		if !ok {
			return inv, usagef("unknown flag %s", a)
		}
		if spec.value && !hasValue {
			// A known flag in the value's place means the value was
			// forgotten: "--state --json" must not name a directory "--json".
			if i+1 >= len(args) || isKnownFlag(known, args[i+1]) {
				return inv, usagef("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if !spec.value {
			if !hasValue {
				value = "true"
			} else if _, err := strconv.ParseBool(value); err != nil && !optionalValue[name] {
				return inv, usagef("flag --%s takes no value (got %q)", name, value)
			}
		}
		if spec.value && repeatable[name] {
			inv.multi[name] = append(inv.multi[name], value)
		} else if inv.set[name] && spec.value {
			return inv, usagef("flag --%s given twice", name)
		}
		inv.values[name], inv.set[name] = value, true
		used = append(used, name)
	}
	inv.json = inv.bool("json")
	if inv.bool("help") {
		inv.verb = &verb{name: "help", run: runHelp}
		return inv, nil
	}
	name := ""
	if len(inv.positional) > 0 {
		name, inv.positional = inv.positional[0], inv.positional[1:]
	}
	if name == "help" {
		// `help` and `help VERB` are --help and VERB --help.
		inv.verb = &verb{name: "help", run: runHelp}
		return inv, nil
	}
	if name == "" {
		inv.verb = findVerb("tui")
	} else if inv.verb = findVerb(name); inv.verb == nil || name == "tui" {
		return inv, usagef("unknown command %q (see scriptorium --help)", name)
	}
	allowed := map[string]bool{}
	for _, f := range globalFlags {
		allowed[f.name] = true
	}
	for _, f := range inv.verb.flags {
		allowed[f.name] = true
	}
	for _, n := range used {
		if !allowed[n] {
			return inv, usagef("flag --%s does not apply to %s", n, inv.verb.name)
		}
	}
	return inv, nil
}

// isKnownFlag reports whether a is spelled like one of the known flags.
func isKnownFlag(known map[string]flagSpec, a string) bool {
	if !strings.HasPrefix(a, "-") {
		return false
	}
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	_, ok := known[name]
	return ok
}

// report turns a verb's outcome into the exit status: 0 success, 1 failure
// or rejection, 2 usage. With --json a failure is one error document. An
// error may decide its own status and whether it was reported already
// (exitError); the runner knows no verb's errors.
func report(inv *invocation, stdout, stderr io.Writer, err error) int {
	if err == nil {
		return errdoc.ExitOK
	}
	status := errdoc.ExitFailure
	var x exitError
	if errors.As(err, &x) {
		if x.Reported() {
			return x.ExitStatus()
		}
		status = x.ExitStatus()
	}
	e := errcode.As(err)
	if inv.json {
		_ = writeJSON(stdout, errdoc.Of(e))
	} else {
		fmt.Fprintf(stderr, "scriptorium: %s\n", e.Error())
		if status == errdoc.ExitUsage {
			fmt.Fprintln(stderr, "run 'scriptorium --help' for usage")
		}
	}
	return status
}

// neverFailing returns the verb that args run and its positional
// arguments when the verb must exit 0 on them (verb.neverFails), judged
// before and apart from the flag parser: such a run exits 0 even when its
// command line is broken (a hand-edited hook command).
func neverFailing(args []string) (*verb, []string) {
	known := allFlags()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if spec, ok := known[name]; ok && spec.value && !strings.Contains(name, "=") {
			i++ // the flag's value
		}
	}
	if len(pos) < 2 {
		return nil, nil
	}
	v := findVerb(pos[0])
	if v == nil || !slices.Contains(v.neverFails, pos[1]) {
		return nil, nil
	}
	return v, pos[1:]
}

// runNeverFailing runs a verb that must exit 0: a usage error is logged on
// stderr, with nothing on stdout, and the verb runs even under --help.
func runNeverFailing(v *verb, positional, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// The agent may close our stdout before we answer (it gave up, or the
	// session ended): a write to it must fail with EPIPE, which the hook
	// records, not kill the process with SIGPIPE (exit 141).
	signal.Ignore(syscall.SIGPIPE)
	// The log is for a person; stdout is the JSON the agent reads.
	safeErr := termsafe.NewWriter(stderr)
	defer safeErr.Flush()
	inv, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(safeErr, "scriptorium %s: %v\n", v.name, err)
		return errdoc.ExitOK
	}
	inv.verb, inv.positional = v, positional
	inv.stdin, inv.stdout, inv.stderr = stdin, stdout, safeErr
	defer routeLibraryLog(inv)()
	_ = v.run(inv)
	return errdoc.ExitOK
}
