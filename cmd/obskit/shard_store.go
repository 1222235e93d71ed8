package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/shard"
)

// openStore returns the store that holds path, and path's name in it: a
// local path is the name of its last element in shard.Dir of its directory.
// Every shard command resolves its paths here, so that another kind of store
// (an object store's URL) is added in one place.
//
// An s3://bucket/prefix/name URL is the name of its last element in the
// bucket prefix before it, reached with the configuration of
// objstore.EnvConfig (AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY), its objects read in chunks of 8 MiB
// (objstore.Buffered): the commands stream shards and read manifests and
// indexes whole.
func openStore(path string) (shard.Store, string, error) {
	if objstore.IsURL(path) {
		i := strings.LastIndexByte(path, '/')
		b, err := objstore.OpenURL(path[:i])
		if err != nil || i == len(path)-1 || i < len("s3://") {
			return nil, "", fmt.Errorf("%s: not an s3://bucket/prefix/name URL of an object: %v", path, err)
		}
		return objstore.Buffered(b, 8<<20), path[i+1:], nil
	}
	if i := strings.Index(path, "://"); i > 0 && !strings.ContainsAny(path[:i], `/\`) {
		return nil, "", fmt.Errorf("%s: this obskit reads no %s:// store (s3:// only)", path, path[:i])
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	return shard.Dir(filepath.Dir(abs)), filepath.Base(abs), nil
}

// openDir returns the store of a directory: an s3://bucket/prefix URL's
// bucket prefix, or a local directory (made when missing).
func openDir(dir string) (shard.Store, error) {
	if objstore.IsURL(dir) {
		return objstore.OpenURL(dir)
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return shard.Dir(dir), nil
}

// sibling returns the path of rel (slash-separated) relative to the
// directory of path, a local path or an s3:// URL, for messages.
func sibling(path, rel string) string {
	if objstore.IsURL(path) {
		return path[:strings.LastIndexByte(path, '/')+1] + rel
	}
	return filepath.Join(filepath.Dir(path), filepath.FromSlash(rel))
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
