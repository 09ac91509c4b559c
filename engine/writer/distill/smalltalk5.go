package distill

// Small talk in the distiller's blocks, round four (chat19): rules read
// in every tuned-on part's chat and narration blocks; the sentences of
// chat19_test.go were written for them.

// labelledReport reports whether an assistant turn opens with a report's
// label ("Summary: monitoring.tf adds the bucket …; fmt and tflint are
// clean"): the label says the work is reported, whatever its verbs, and
// an earlier "I've added an empty filter {}" is narration on the way.
func labelledReport(text string) bool {
	return summaryLabelRe.MatchString(text)
}
