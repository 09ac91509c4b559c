// Package httpapi is the local HTTP API under /api/memory/: one route per
// engine verb, loopback-only, refusing what a browser adds to cross-site
// requests, every request bounded in size and time.
package httpapi
