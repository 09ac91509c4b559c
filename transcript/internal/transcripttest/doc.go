// Package transcripttest owns the test helpers the transcript parsers share: a
// readable rendering of a Result for golden files, the golden compare with
// -update, and the DAG invariants every parser's output must satisfy.
//
// It is internal because only the parsers' tests use it.
package transcripttest
