package archive

import (
	"strconv"
	"strings"
)

// PathParts splits an archive's workspace path: a v2 archive is
// sources/<provider>/_v2/<thread>.md, a legacy one
// sources/<provider>/<thread>.md; ok is false for any other path.
//
// It is strings.Split's reading of the path without its slice: a stat walk
// asks it of every archive (2,000 at 100k records) on each one-shot recall.
func PathParts(p string) (provider, thread string, v2, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSuffix(p, ".md"), "sources/")
	if !found {
		return "", "", false, false
	}
	provider, rest, found = strings.Cut(rest, "/")
	if !found {
		return "", "", false, false
	}
	mid, last, found := strings.Cut(rest, "/")
	switch {
	case !found:
		return provider, rest, false, true
	case mid == "_v2" && !strings.Contains(last, "/"):
		return provider, last, true, true
	}
	return "", "", false, false
}

// LegacyID is the source-id and anchor of a legacy record of the archive
// of provider and thread: its own when it has them, else an id from its
// line (legacy files are frozen, so the line keeps it stable) and the
// anchor of that id.
func LegacyID(provider, thread string, r LegacyRecord) (ref, anchor string) {
	ref, anchor = r.SourceID, r.Anchor
	if ref == "" {
		ref = provider + "/" + thread + "/legacy-L" + strconv.Itoa(r.Line)
	}
	if anchor == "" {
		anchor = AnchorFor(ref)
	}
	return ref, anchor
}
