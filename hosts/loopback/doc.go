// Package loopback says whether an HTTP request's Host and Origin name this
// machine, for the local servers (the API under /api/memory/ and MCP at
// /mcp) that have no accounts and trust the local machine: a web page
// elsewhere reaches a loopback port only through a browser, which names
// its own site in Origin, and through DNS rebinding, which leaves its own
// name in Host.
package loopback
