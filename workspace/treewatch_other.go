//go:build !linux

package workspace

// TreeWatch is not implemented off Linux: every read walks the tree.
type TreeWatch struct{}

// Start does nothing off Linux.
func (c *TreeWatch) Start(root string, subs ...string) {}

// Poll reports the watch untrusted off Linux.
func (c *TreeWatch) Poll() (uint64, bool) { return 0, false }

// Close does nothing off Linux.
func (c *TreeWatch) Close() {}
