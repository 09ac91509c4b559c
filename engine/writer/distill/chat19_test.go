package distill

import (
	"strings"
	"testing"
)

// Small talk in the distiller's blocks, round four (chat19), in sentences
// written here (not from the labelled set).

// A coding session's labelled report is its outcome even when its verbs
// are in the present ("adds", "is clean", "shows 4 to add"): the step
// narrated on the way ("I've added a retry …") is not what the session
// left.
func TestDistil_LabelledReportIsTheOutcome(t *testing.T) {
	s := chat(saturday, "claude-code", "rep19", "",
		"owner: the staging queue needs a dead-letter topic, and alarms on its depth",
		"assistant: I'll look at how queues.tf is laid out first.",
		"assistant: I've added a `redrive_policy` to the orders queue; validate is clean and the plan adds four resources.",
		"owner: good, and never apply, I do that after review",
		"assistant: Recap: `queues.tf` now has `orders-dlq` with a redrive after 5 receives, and `alarms.tf` pages #ops when its depth goes over 10. `terraform validate` is clean and the plan shows 4 to add, 0 to change. Nothing applied, as you asked.",
	)
	s.Project = "/src/staging-infra"
	var outcomes []string
	for _, f := range Distil(s) {
		if f.Kind == KindOutcome {
			outcomes = append(outcomes, f.Text)
		}
	}
	joined := strings.Join(outcomes, "\n")
	if !strings.Contains(joined, "orders-dlq") || strings.Contains(joined, "redrive_policy") {
		t.Errorf("outcome is not the labelled report:\n%s", joined)
	}
}
