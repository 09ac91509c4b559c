package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"scriptorium/engine"
	"scriptorium/hosts/errdoc"
	"scriptorium/termsafe"
)

// usageError is a malformed command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// flagSpec describes one flag. Flags may stand anywhere on the line, so the
// parser must know up front which ones take a value.
type flagSpec struct {
	name  string
	value bool   // takes a value (--name V or --name=V)
	help  string // one line for usage
}

var globalFlags = []flagSpec{
	{"state", true, "state directory (default $SCRIPTORIUM_STATE or ~/.openprogram)"},
	{"profile", true, "use ~/.openprogram-NAME"},
	{"json", false, "print exactly one JSON document on stdout"},
	{"help", false, "show help"},
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
}

// invocation is a parsed command line plus the process streams.
type invocation struct {
	verb       *verb
	positional []string
	values     map[string]string
	set        map[string]bool
	json       bool
	stdin      io.Reader
	stdout     io.Writer
	stderr     io.Writer
	longLived  bool // the verb runs until stopped (daemon): engine.Options.LongLived
	tightened  bool // stateDir has made the state dir private (once per invocation)
}

func (inv *invocation) flag(name string) string { return inv.values[name] }
func (inv *invocation) bool(name string) bool   { return inv.set[name] && inv.values[name] != "false" }

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
	inv := &invocation{values: map[string]string{}, set: map[string]bool{}}
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
			} else if _, err := strconv.ParseBool(value); err != nil {
				return inv, usagef("flag --%s takes no value (got %q)", name, value)
			}
		}
		if inv.set[name] && spec.value {
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

// report turns a verb's outcome into the exit status: 0 success, 1 failure
// or rejection, 2 usage. With --json a failure is one error document.
func report(inv *invocation, stdout, stderr io.Writer, err error) int {
	if err == nil {
		return errdoc.ExitOK
	}
	if errors.As(err, new(silentFailure)) {
		return errdoc.ExitFailure // the verb already printed its result document
	}
	var tuiExit exitStatus
	if errors.As(err, &tuiExit) {
		return int(tuiExit) // the TUI already said why on stderr
	}
	status := errdoc.ExitFailure
	var ue *usageError
	e := engine.AsError(err)
	if errors.As(err, &ue) {
		status = errdoc.ExitUsage
		e = &engine.Error{Code: engine.CodeInvalidArgument, Message: ue.msg}
	}
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

func runHelp(inv *invocation) error {
	// "scriptorium import --help": the help of that verb alone.
	if len(inv.positional) > 0 {
		if v := findVerb(inv.positional[0]); v != nil && v.name != "tui" {
			return runVerbHelp(inv, v)
		}
		return usagef("unknown command %q (see scriptorium --help)", inv.positional[0])
	}
	if inv.json {
		return writeJSON(inv.stdout, helpDocument())
	}
	w := inv.stdout
	fmt.Fprintln(w, "scriptorium — review and curate an AI agent's long-term memory")
	fmt.Fprintln(w, "\nusage: scriptorium [global flags] [command] [args] [flags]")
	fmt.Fprintln(w, "       with no command: open the TUI (the scriptorium-tui binary: beside this one, on $PATH,")
	fmt.Fprintln(w, "       or built once from the source tree with go; see `scriptorium demo --help`)")
	fmt.Fprintln(w, "\ncommands:")
	for _, v := range verbs() {
		if v.name == "tui" {
			continue
		}
		fmt.Fprintf(w, "  %-9s %-12s %s\n", v.name, v.args, v.help)
		for _, f := range v.flags {
			fmt.Fprintf(w, "  %-9s   --%-10s %s\n", "", f.name, f.help)
		}
	}
	fmt.Fprintln(w, "\nglobal flags:")
	fl := append([]flagSpec(nil), globalFlags...)
	sort.Slice(fl, func(i, j int) bool { return fl[i].name < fl[j].name })
	for _, f := range fl {
		fmt.Fprintf(w, "  --%-10s %s\n", f.name, f.help)
	}
	fmt.Fprintln(w, "\nscriptorium COMMAND --help shows one command with its details (import: formats and JSONL fields)")
	fmt.Fprintln(w, "\nexit status: 0 success, 1 failure or rejection, 2 usage")
	return nil
}

// runVerbHelp prints one verb's synopsis, flags and details.
func runVerbHelp(inv *invocation, v *verb) error {
	if inv.json {
		return writeJSON(inv.stdout, helpVerbOf(v))
	}
	w := inv.stdout
	fmt.Fprintf(w, "usage: scriptorium %s %s\n\n%s\n", v.name, v.args, v.help)
	if len(v.flags) > 0 {
		fmt.Fprintln(w, "\nflags:")
		for _, f := range v.flags {
			fmt.Fprintf(w, "  --%-10s %s\n", f.name, f.help)
		}
	}
	if v.details != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(v.details, "\n"))
	}
	if d, ok := verbDocs[v.name]; ok {
		fmt.Fprintf(w, "\n--json: %s\nexample: %s\n", d.shape, d.example)
	}
	return nil
}

type helpFlag struct {
	Name  string `json:"name"`
	Value bool   `json:"takes_value"`
	Help  string `json:"help"`
}

type helpVerb struct {
	Name    string     `json:"name"`
	Args    string     `json:"args"`
	Help    string     `json:"help"`
	Flags   []helpFlag `json:"flags"`
	Details string     `json:"details,omitempty"`
}

// helpVerbOf is one verb of --help --json.
func helpVerbOf(v *verb) helpVerb {
	flags := []helpFlag{}
	for _, f := range v.flags {
		flags = append(flags, helpFlag{Name: f.name, Value: f.value, Help: f.help})
	}
	return helpVerb{Name: v.name, Args: v.args, Help: v.help, Flags: flags, Details: v.details}
}

// helpDocument is --help --json: the command table as data.
func helpDocument() map[string]any {
	flags := func(fs []flagSpec) []helpFlag {
		out := []helpFlag{}
		for _, f := range fs {
			out = append(out, helpFlag{Name: f.name, Value: f.value, Help: f.help})
		}
		return out
	}
	cmds := []helpVerb{}
	for _, v := range verbs() {
		if v.name != "tui" {
			cmds = append(cmds, helpVerbOf(v))
		}
	}
	return map[string]any{"commands": cmds, "global_flags": flags(globalFlags)}
}
