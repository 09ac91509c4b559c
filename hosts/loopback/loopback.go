package loopback

import (
	"net"
	"net/url"
	"strings"
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
