// Package errcode is the closed set of error codes of SPEC §12 and the one
// error type that carries them, with the violations a rejected input lists.
// It is a leaf: the engine (which re-exports every name, so errcode.Code and
// errcode.Error are these), the services, the hosts (hosts/errdoc turns an
// error into the JSON document, HTTP status and exit status) and the CLI
// all share it, and it imports nothing of the program.
package errcode
