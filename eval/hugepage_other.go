//go:build !linux

package eval

import "unsafe"

// hugePageHint does nothing outside Linux (see hugepage_linux.go).
func hugePageHint(p unsafe.Pointer, size uintptr) {}
