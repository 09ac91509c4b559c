package loopback

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"scriptorium/errcode"
)

// Host reports whether a Host header names this machine: localhost or a
// loopback address, with or without a port.
func Host(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Origin reports whether an Origin header names a page served by this
// machine: http or https, host localhost, 127.0.0.1 or [::1], any port,
// and nothing else (no user, path, query or fragment). "null", another
// scheme and every other name are not.
func Origin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Opaque != "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Host == "" {
		return false
	}
	switch strings.ToLower(u.Hostname()) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// Refusal is why serve refuses what a browser adds to a cross-site request
// (an Origin that is not a page of this machine, a Host that is not a
// loopback name: DNS rebinding), or nil; every HTTP host of serve asks it
// first, so the two rules are said once.
func Refusal(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" && !Origin(o) {
		return errcode.Errorf(errcode.Forbidden, "requests from origin %q are refused: only pages of this machine (localhost, 127.0.0.1, [::1]) may call", o)
	}
	if !Host(r.Host) {
		return errcode.Errorf(errcode.Forbidden, "host %q is not a loopback name", r.Host)
	}
	return nil
}
