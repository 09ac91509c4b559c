//go:build !linux

package faultfs

func makeImmutable(paths []string) (func() error, string, error) {
	return nil, "", ErrNoReadOnly
}
