package topic

import "testing"

func TestRebase(t *testing.T) {
	in := "# A\n\nSee [B](b.md#x), [self](a.md), [moved](c.md), [web](https://e.org/a.md), [top](#h), [m](mailto:x@y).[^e-0000000001] ^0000000a\n\n" +
		"[^e-0000000001]: Time: `2026-08-10`; Sources: [x/t/1](../sources/x/_v2/t.md#source-fcdcde36)\n"
	moves := map[string]string{"topics/a.md": "topics/people/a.md", "topics/c.md": "topics/people/c.md"}
	final := func(p string) string {
		if to, ok := moves[p]; ok {
			return to
		}
		return p
	}
	got := string(Rebase([]byte(in), "topics/a.md", "topics/people/a.md", final))
	want := "# A\n\nSee [B](../b.md#x), [self](a.md), [moved](c.md), [web](https://e.org/a.md), [top](#h), [m](mailto:x@y).[^e-0000000001] ^0000000a\n\n" +
		"[^e-0000000001]: Time: `2026-08-10`; Sources: [x/t/1](../../sources/x/_v2/t.md#source-fcdcde36)\n"
	if got != want {
		t.Errorf("Rebase:\n%s\nwant:\n%s", got, want)
	}
	if Rebase(nil, "a", "b", final) != nil {
		t.Error("nil stays nil")
	}
}
