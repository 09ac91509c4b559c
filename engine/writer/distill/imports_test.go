package distill

import (
	"os/exec"
	"strings"
	"testing"
)

// The distiller is pure: it imports no part of the engine (the core, the
// writer around it, hosts, front ends), and touches no filesystem or
// network itself.
func TestImports_Pure(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`+"\n---\n"+`{{join .Deps "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	direct, deps, _ := strings.Cut(string(out), "\n---\n")
	for _, imp := range strings.Fields(direct) {
		switch imp {
		case "os", "io/fs", "path/filepath", "net", "net/http", "os/exec", "time/tzdata":
			t.Errorf("distill imports %s: it must stay pure", imp)
		}
	}
	for _, d := range strings.Fields(deps) {
		// Every process links the distiller: a package whose init builds
		// tables (Croatian's stemmer: 1.1 MB, 9–28 ms) costs every prompt.
		if d == "github.com/blevesearch/bleve/v2/analysis/lang/hr" {
			t.Errorf("distill depends on %s, whose init builds a stemmer at every process start", d)
		}
		if !strings.HasPrefix(d, "scriptorium") {
			continue
		}
		switch d {
		case "scriptorium/engine/index/reldate", "scriptorium/workspace/topic", "scriptorium/lazyre":
		default:
			t.Errorf("distill depends on %s: only the date resolver, the topic format and lazyre are allowed", d)
		}
	}
}
