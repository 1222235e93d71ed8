package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/obskit/obskit/shard"
)

// openStore returns the store that holds path, and path's name in it: a
// local path is the name of its last element in shard.Dir of its directory.
// Every shard command resolves its paths here, so that another kind of store
// (an object store's URL) is added in one place.
func openStore(path string) (shard.Store, string, error) {
	if i := strings.Index(path, "://"); i > 0 && !strings.ContainsAny(path[:i], `/\`) {
		return nil, "", fmt.Errorf("%s: this obskit reads no %s:// store", path, path[:i])
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	return shard.Dir(filepath.Dir(abs)), filepath.Base(abs), nil
}

// nameIn returns path's name in the store of the directory dir, or an error
// when path is not under dir.
func nameIn(dir, path string) (string, error) {
	ad, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(ad, ap)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is not under %s, the manifest's directory", path, dir)
	}
	return filepath.ToSlash(rel), nil
}
