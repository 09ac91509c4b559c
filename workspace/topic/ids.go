package topic

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// maxUniqueTries bounds the search in UniqueBlockID and UniqueFootnoteLabel
// so a taken func that never says no cannot hang the caller.
const maxUniqueTries = 1 << 16

// IsBlockID reports whether s is a block id: 8 lowercase hex digits.
func IsBlockID(s string) bool { return len(s) == 8 && isLowerHex(s) }

// IsFootnoteLabel reports whether s is a footnote label: "e-" and 10
// lowercase hex digits.
func IsFootnoteLabel(s string) bool {
	return len(s) == 12 && s[:2] == "e-" && isLowerHex(s[2:])
}

// NewBlockID returns the first 8 hex digits of SHA-256(seed): the same seed
// always gives the same id.
func NewBlockID(seed string) string { return hashHex(seed)[:8] }

// NewFootnoteLabel returns "e-" and the first 10 hex digits of SHA-256(seed).
func NewFootnoteLabel(seed string) string { return "e-" + hashHex(seed)[:10] }

// UniqueBlockID returns NewBlockID(seed) unless taken reports it used; then
// it tries seed+"#1", seed+"#2", … and returns the first free id, or "" after
// 65536 attempts. The result is deterministic for a given taken.
func UniqueBlockID(seed string, taken func(id string) bool) string {
	return unique(seed, NewBlockID, taken)
}

// UniqueFootnoteLabel is UniqueBlockID for footnote labels.
func UniqueFootnoteLabel(seed string, taken func(label string) bool) string {
	return unique(seed, NewFootnoteLabel, taken)
}

func unique(seed string, gen func(string) string, taken func(string) bool) string {
	for i := 0; i < maxUniqueTries; i++ {
		s := seed
		if i > 0 {
			s = seed + "#" + strconv.Itoa(i)
		}
		id := gen(s)
		if taken == nil || !taken(id) {
			return id
		}
	}
	return ""
}

// sourceAnchor is the v2 archive anchor of a source id (SPEC §3.1).
func sourceAnchor(sourceID string) string { return "source-" + hashHex(sourceID)[:8] }

func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func isLowerHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isHexAnyCase(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isSourceAnchor(s string) bool {
	return len(s) == 15 && s[:7] == "source-" && isLowerHex(s[7:])
}
