package archive

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxSegmentBytes is the longest provider or thread name accepted, in bytes.
// It leaves room for the ".md" suffix within the usual 255-byte file-name
// limit, so a name that passes never fails later at file creation.
const MaxSegmentBytes = 250

// ValidSegment reports whether name can be used as one path segment under
// sources/ (a provider or thread name). It returns an error wrapping
// ErrInvalidSegment if name is empty, ".", longer than MaxSegmentBytes, not
// valid UTF-8, or contains '/', '\\', "..", NUL or a control character.
// Rejecting ".." anywhere (not only as the whole name) is deliberately
// stricter than needed for traversal safety.
func ValidSegment(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty", ErrInvalidSegment)
	case name == ".":
		return fmt.Errorf("%w: %q", ErrInvalidSegment, name)
	case len(name) > MaxSegmentBytes:
		return fmt.Errorf("%w: longer than %d bytes", ErrInvalidSegment, MaxSegmentBytes)
	case !utf8.ValidString(name):
		return fmt.Errorf("%w: %q is not valid UTF-8", ErrInvalidSegment, name)
	case strings.ContainsAny(name, "/\\"):
		return fmt.Errorf("%w: %q contains a path separator", ErrInvalidSegment, name)
	case strings.Contains(name, ".."):
		return fmt.Errorf("%w: %q contains \"..\"", ErrInvalidSegment, name)
	}
	for _, r := range name {
		// unicode.IsControl covers NUL, the rest of C0, DEL and C1.
		if unicode.IsControl(r) {
			return fmt.Errorf("%w: %q contains control character %U", ErrInvalidSegment, name, r)
		}
	}
	return nil
}

// FoldKey returns the key under which provider and thread names collide:
// NFC, then Unicode full case folding, then NFC again (folding can denormalise).
// Two names with equal keys but different spellings must not coexist.
func FoldKey(name string) string {
	// A Caser keeps state, so each call gets its own.
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(name)))
}

// ParseSourceID splits a source-id into provider, thread and message id. The
// provider and thread are everything before the first and second '/' and
// must pass ValidSegment; the message id is the non-empty rest and may hold
// further '/'. The whole id must be valid UTF-8 without control characters,
// "--" or '>', so that it fits in an HTML comment. Errors wrap
// ErrInvalidSourceID.
func ParseSourceID(id string) (provider, thread, messageID string, err error) {
	if !utf8.ValidString(id) {
		return "", "", "", fmt.Errorf("%w: %q is not valid UTF-8", ErrInvalidSourceID, id)
	}
	if strings.Contains(id, "--") || strings.Contains(id, ">") {
		return "", "", "", fmt.Errorf("%w: %q contains \"--\" or '>'", ErrInvalidSourceID, id)
	}
	for _, r := range id {
		if unicode.IsControl(r) {
			return "", "", "", fmt.Errorf("%w: %q contains control character %U", ErrInvalidSourceID, id, r)
		}
	}
	provider, rest, ok1 := strings.Cut(id, "/")
	thread, messageID, ok2 := strings.Cut(rest, "/")
	if !ok1 || !ok2 || messageID == "" {
		return "", "", "", fmt.Errorf("%w: %q is not <provider>/<thread>/<message-id>", ErrInvalidSourceID, id)
	}
	if err := ValidSegment(provider); err != nil {
		return "", "", "", fmt.Errorf("%w: provider: %w", ErrInvalidSourceID, err)
	}
	if err := ValidSegment(thread); err != nil {
		return "", "", "", fmt.Errorf("%w: thread: %w", ErrInvalidSourceID, err)
	}
	return provider, thread, messageID, nil
}

// ValidateSourceID returns the error ParseSourceID would return for id.
func ValidateSourceID(id string) error {
	_, _, _, err := ParseSourceID(id)
	return err
}
