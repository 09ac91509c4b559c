// Command gen writes the longchat labelled search set: a year of invented
// conversation (turns.jsonl, the `import` JSONL of SPEC §7) and the
// questions asked of it (questions.json). It is deterministic: the same
// seed writes the same bytes.
//
//	go run ./testdata/search/longchat/gen            # writes beside this folder
//	go run ./testdata/search/longchat/gen -check     # fails if the files differ
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// seed is the generator's only source of variation.
const seed = 20250101

func main() {
	check := flag.Bool("check", false, "compare with the files on disk instead of writing them")
	dir := flag.String("dir", defaultDir(), "output directory")
	flag.Parse()
	turns, questions, err := Generate(seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	files := map[string][]byte{"turns.jsonl": turns, "questions.json": questions}
	for name, b := range files {
		p := filepath.Join(*dir, name)
		if *check {
			have, err := os.ReadFile(p)
			if err != nil || !bytes.Equal(have, b) {
				fmt.Fprintf(os.Stderr, "gen: %s is not what the generator writes; run go run ./testdata/search/longchat/gen\n", p)
				os.Exit(1)
			}
			continue
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

// defaultDir is the longchat folder, found from this file so the command
// works from any working directory inside the module.
func defaultDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}
