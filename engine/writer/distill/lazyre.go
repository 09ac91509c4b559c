package distill

import "scriptorium/lazyre"

// The distiller is linked into every CLI and hook process and most of them
// never distil: compiling its patterns at init was the largest share of a
// process's start (GODEBUG=inittrace=1: 36 ms of `scriptorium --help`),
// paid before every agent prompt. They compile on first use (lazyre).

type lazyRE = lazyre.RE

func lazyRegexp(pattern string) *lazyRE { return lazyre.New(pattern) }
