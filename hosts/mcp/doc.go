// Package mcp owns Scriptorium's Model Context Protocol server: the memory
// tools, resources and transports (stdio and streamable HTTP) built on the
// official Go SDK. It decides what a connected agent may see and do; the
// engine and the trust table decide what is true.
package mcp
