package topic

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ProjectRoot is the project directory a working directory is in: the
// nearest of cwd and its ancestors that is a project memory knows
// (known(slug of its name), the topics/projects/<slug>.md file) or, when
// the path exists here, holds a repository marker (.git). Else cwd. So a
// session in …/heron/deploy is heron's, in the writer's filing and in
// recall's project-first alike. Paths are read with "/" (a Windows
// transcript's "\" too); "" for "".
func ProjectRoot(cwd string, known func(slug string) bool) string {
	dir := strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if dir == "" {
		return ""
	}
	for d := dir; d != "" && d != "." && d != "/"; {
		if slug := Slug(path.Base(d)); slug != "" && known != nil && known(slug) || hasRepoMarker(d) {
			return d
		}
		parent := path.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return dir
}

// hasRepoMarker reports whether directory d holds a .git (a directory, or
// a worktree's file).
func hasRepoMarker(d string) bool {
	_, err := os.Lstat(filepath.Join(filepath.FromSlash(d), ".git"))
	return err == nil
}

// KnownProjects is the slugs of the project files among topic paths.
func KnownProjects(paths []string) map[string]bool {
	out := map[string]bool{}
	for _, p := range paths {
		if rest, ok := strings.CutPrefix(p, "topics/projects/"); ok && strings.HasSuffix(rest, ".md") && !strings.Contains(rest, "/") {
			out[strings.TrimSuffix(rest, ".md")] = true
		}
	}
	return out
}
