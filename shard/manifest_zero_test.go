package shard

import (
	"strings"
	"testing"
)

// TestManifestZeroBytes checks that a file of zero bytes is a valid entry
// of a manifest, as the index of a shard of no samples may be: the check
// refuses negative sizes only.
func TestManifestZeroBytes(t *testing.T) {
	m := strings.Replace(goodManifest, `"sub/b.tar.index", "bytes": 5`, `"sub/b.tar.index", "bytes": 0`, 1)
	if m == goodManifest {
		t.Fatal("the replacement changed nothing")
	}
	if _, err := decodeManifest([]byte(m), "m.json"); err != nil {
		t.Errorf("a manifest naming an index of 0 bytes: %v", err)
	}
}
