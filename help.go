package main

import (
	"fmt"
	"sort"
	"strings"
)

// help and VERB --help: the command table as text or as a JSON document.

// runHelp is --help, `help` and `help VERB`.
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
