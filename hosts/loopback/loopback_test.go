package loopback

import "testing"

func TestHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:8765": true, "127.0.0.1": true, "127.0.0.1:1": true, "[::1]:8765": true, "::1": true,
		"127.0.0.2:80": true, // the whole 127/8 is this machine
		"evil.example": false, "127.0.0.1.evil.example:80": false, "localhost.evil.example": false, "": false,
		"0.0.0.0:8765": false, "[::]:1": false, "10.0.0.1": false,
	} {
		if got := Host(host); got != want {
			t.Errorf("Host(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestOrigin(t *testing.T) {
	for origin, want := range map[string]bool{
		"http://localhost": true, "http://localhost:3000": true, "https://localhost:8443": true,
		"http://127.0.0.1:8765": true, "https://127.0.0.1": true, "http://[::1]:8765": true, "http://[::1]": true,
		"HTTP://LocalHost:5":      true,
		"http://evil.example.com": false, "http://localhost.evil.example": false, "http://127.0.0.1.evil.example": false,
		"http://localhost@evil.example": false, "null": false, "": false, "file://localhost": false,
		"ftp://localhost": false, "http://127.0.0.2": false, "http://[::ffff:127.0.0.1]": false, "localhost:3000": false,
		"http://localhost/path": false, "http://localhost:notaport": false, "http://0.0.0.0:8765": false,
	} {
		if got := Origin(origin); got != want {
			t.Errorf("Origin(%q) = %v, want %v", origin, got, want)
		}
	}
}
