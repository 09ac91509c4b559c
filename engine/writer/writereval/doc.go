// Package writereval measures a writer on the labelled distillation set
// (testdata/distill): Score reads the topic files a write left in a state
// dir and returns the issue 22 §4 figures, the same for the offline
// distiller and a network model, and Server is a loopback
// OpenAI-compatible endpoint that replays recorded answers (or records a
// live model's), so the model writer runs in `go test` without a network.
// A test helper: only tests import it.
package writereval
