// Command gen regenerates docs/keybindings.md from the key map. Run it from
// the module root: `go run ./keymap/gen`.
package main

import (
	"fmt"
	"os"

	"scriptorium/keymap"
)

func main() {
	if err := os.WriteFile(keymap.DocPath, []byte(keymap.Default().Markdown()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
