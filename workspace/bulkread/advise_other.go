//go:build !linux

package bulkread

func adviseHuge([]byte) {}
