package archive

import (
	"strconv"
	"strings"
)

// PathParts splits an archive's workspace path: a v2 archive is
// sources/<provider>/_v2/<thread>.md, a legacy one
// sources/<provider>/<thread>.md; ok is false for any other path.
func PathParts(p string) (provider, thread string, v2, ok bool) {
	parts := strings.Split(strings.TrimSuffix(p, ".md"), "/")
	switch {
	case len(parts) == 4 && parts[0] == "sources" && parts[2] == "_v2":
		return parts[1], parts[3], true, true
	case len(parts) == 3 && parts[0] == "sources":
		return parts[1], parts[2], false, true
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
