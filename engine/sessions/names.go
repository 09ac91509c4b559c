package sessions

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"scriptorium/workspace/archive"
)

// maxThreadBytes bounds a thread name before a collision suffix. With the
// suffix ("~" and at most 16 hex digits on a name cut to maxThreadBytes-20)
// and ".md" it stays within archive.MaxSegmentBytes and the usual 255-byte
// file-name limit.
const maxThreadBytes = 200

// portableNameChars are the ASCII punctuation characters a portable name may
// hold besides letters, digits and marks. Everything else is either illegal
// in a Windows file name (<>:"|?*), a path separator, meaningful inside a
// Markdown link destination (space, ( ) # ? % < >), or invisible.
const portableNameChars = "-_.~+=,@"

// portableName reports whether name can be used as it is as a provider
// directory or a thread file name on Linux, macOS and Windows, and inside a
// source-id and a Markdown link: letters, digits, marks and -_.~+=,@ only,
// no leading or trailing '.', no ".." or "--", not a Windows device name
// (CON, NUL, COM1, ...), and at most maxThreadBytes bytes.
func portableName(name string) bool {
	if name == "" || len(name) > maxThreadBytes || !utf8.ValidString(name) ||
		name[0] == '.' || name[len(name)-1] == '.' ||
		strings.Contains(name, "..") || strings.Contains(name, "--") || windowsDeviceName(name) {
		return false
	}
	for _, r := range name {
		if !portableRune(r) {
			return false
		}
	}
	return archive.ValidSegment(name) == nil
}

func portableRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' ||
			strings.ContainsRune(portableNameChars, r)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// windowsDeviceName reports whether Windows reserves name (with any
// extension: "con.md" is the console too).
func windowsDeviceName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 {
		prefix, digit := strings.ToUpper(base[:3]), base[3:]
		if (prefix == "COM" || prefix == "LPT") && (len(digit) == 1 && digit[0] >= '0' && digit[0] <= '9' ||
			digit == "¹" || digit == "²" || digit == "³") {
			return true
		}
	}
	return false
}

// threadName returns the archive thread name of a new session: the session
// id itself when it is portable, otherwise the id with every byte that is
// not portable percent-encoded as %XX (as in a URL), cut to maxThreadBytes with a
// hash of the full id when the encoding is longer. "con:aux<>|?*" becomes
// "con%3Aaux%3C%3E%7C%3F%2A", "#general" "%23general" and "con" "%63on".
func threadName(session string) string {
	if portableName(session) {
		return session
	}
	var b strings.Builder
	prev := byte(0) // the last byte written
	for i, r := range session {
		size := utf8.RuneLen(r)
		last := i+size == len(session)
		keep := portableRune(r)
		switch r {
		case '.':
			// No hidden file, no trailing dot (Windows drops it), no "..".
			keep = b.Len() > 0 && !last && prev != '.'
		case '-':
			keep = prev != '-' // "--" would end the source-id's HTML comment
		}
		if keep {
			b.WriteRune(r)
			prev = session[i+size-1]
			continue
		}
		for _, c := range []byte(session[i : i+size]) {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		prev = 'X'
	}
	out := b.String()
	if windowsDeviceName(out) {
		out = fmt.Sprintf("%%%02X", out[0]) + out[1:]
	}
	if len(out) > maxThreadBytes {
		out = cutName(out, maxThreadBytes-9) + "~" + nameHash(session)[:8]
	}
	return out
}

// threadCandidates returns the thread names to try for a new session, in
// order: its threadName, then the same with a growing hash of the id, for
// when the name is already taken by another session of the provider
// (compared by archive.FoldKey: "Chat" and "chat" would share one file on a
// case-insensitive file system).
func threadCandidates(session string) []string {
	base := threadName(session)
	h := nameHash(session)
	cut := cutName(base, maxThreadBytes-20)
	return []string{base, cut + "~" + h[:8], cut + "~" + h[:16]}
}

func nameHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// cutName shortens an encoded name to at most n bytes without splitting a
// rune or a %XX escape, and without leaving a '.' or '-' at the end.
func cutName(name string, n int) string {
	if len(name) <= n {
		return strings.TrimRight(name, ".-")
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(name[:cut], '%'); i >= 0 && i+3 > cut {
		cut = i
	}
	return strings.TrimRight(name[:cut], ".-")
}
