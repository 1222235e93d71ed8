//go:build !linux

package pixel

import "testing"

// guarded returns n bytes; only on Linux do they end at an unreadable page.
func guarded(t testing.TB, n int) []byte { return make([]byte, n) }
