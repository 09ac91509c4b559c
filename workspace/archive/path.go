package archive

import "strings"

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
