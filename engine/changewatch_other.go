//go:build !linux

package engine

// changeWatch is not implemented off Linux: every read walks the tree.
type changeWatch struct{}

func (c *changeWatch) start(root string, subs ...string) {}
func (c *changeWatch) poll() (uint64, bool)              { return 0, false }
func (c *changeWatch) close()                            {}
