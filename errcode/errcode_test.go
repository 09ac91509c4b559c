package errcode

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestCode_Retryable(t *testing.T) {
	retryable := map[Code]bool{Conflict: true, LockBusy: true, ModelUnavailable: true}
	for _, c := range Codes {
		if got := c.Retryable(); got != retryable[c] {
			t.Errorf("%s.Retryable() = %v", c, got)
		}
	}
	if len(Codes) != 13 {
		t.Errorf("Codes has %d codes; SPEC §12 lists 13", len(Codes))
	}
}

func TestError_Text(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{Errorf(NotFound, "no block %s", "^abc"), "no block ^abc"},
		{Wrap(IO, fs.ErrPermission, "read %s", "x.md"), "read x.md: permission denied"},
		{&Error{Code: Rejected, Message: "2 violation(s)", Violations: []Violation{
			{Code: "bad_line", Path: "a.jsonl", Line: 3, Message: "missing id"},
			{Code: "dangling_link", Path: "topics/x.md", Message: "no such file"},
		}}, "2 violation(s)\n  a.jsonl:3: missing id (bad_line)\n  topics/x.md: no such file (dangling_link)"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

func TestAs(t *testing.T) {
	if As(nil) != nil {
		t.Error("As(nil) is not nil")
	}
	busy := Errorf(LockBusy, "held")
	if got := As(fmt.Errorf("open: %w", busy)); got != busy || !got.Retryable() {
		t.Errorf("As of a wrapped *Error = %#v", got)
	}
	plain := errors.New("disk on fire")
	got := As(plain)
	if got.Code != IO || got.Message != "disk on fire" || !errors.Is(got, plain) {
		t.Errorf("As of a plain error = %#v", got)
	}
}
