package main

import (
	"scriptorium/tests/clitest"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestCLI_SleepJSON(t *testing.T) {
	state := clitest.SleepState(t)
	first := runCLI(t, "", "sleep", "--json", "--state", state)
	if first.code != 0 {
		t.Fatalf("sleep exited %d: %s%s", first.code, first.stdout, first.stderr)
	}
	doc := oneJSON(t, first.stdout)
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if want := []string{"changed", "model", "pass", "time", "tokens_in", "tokens_out"}; !slices.Equal(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	changed, _ := doc["changed"].([]any)
	if doc["model"] != "offline" || len(changed) == 0 {
		t.Errorf("first pass = %v", doc)
	}
	for _, c := range changed {
		m, _ := c.(map[string]any)
		if d, _ := m["diff"].(string); !strings.Contains(d, "@@") {
			t.Errorf("changed entry without a unified diff: %v", c)
		}
	}

	// Flags after the verb or before it mean the same; the second pass has
	// nothing left to do and says so with an empty list.
	second := runCLI(t, "", "--json", "--state", state, "sleep", "--model", "offline")
	if second.code != 0 {
		t.Fatalf("second sleep exited %d: %s%s", second.code, second.stdout, second.stderr)
	}
	if !strings.Contains(second.stdout, `"changed": []`) {
		t.Errorf("second pass should report \"changed\": []:\n%s", second.stdout)
	}

	human := runCLI(t, "", "sleep", "--state", state)
	if human.code != 0 || !strings.Contains(human.stdout, "(offline): no changes") {
		t.Errorf("human report = %q (exit %d)", human.stdout, human.code)
	}
}

func TestCLI_SleepAndDaemonUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in the JSON error message
	}{
		{"ModelNeedsValue", []string{"sleep", "--json", "--model"}, 2, "needs a value"},
		{"BareModelWithoutProvider", []string{"sleep", "--json", "--model", "gpt-4o"}, 1, "needs a provider"},
		{"DaemonHasNoJSON", []string{"daemon", "--json"}, 2, "not a JSON document"},
		{"DaemonTakesNoArgs", []string{"daemon", "now", "--json"}, 2, "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(slices.Clone(tt.args), "--state", clitest.SleepState(t))
			r := runCLI(t, "", args...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %s%s", r.code, tt.code, r.stdout, r.stderr)
			}
			doc := oneJSON(t, r.stdout)
			e, _ := doc["error"].(map[string]any)
			if msg, _ := e["message"].(string); !strings.Contains(msg, tt.want) {
				t.Errorf("error = %v, want it to mention %q", e, tt.want)
			}
		})
	}
}
