// Package errdoc is the one shape of a failure every front end speaks: the
// SPEC §12 JSON error document, the HTTP status and the exit status of a
// closed-set error code, shared by the CLI, the HTTP API, MCP and the hook.
package errdoc
