package objstore

import (
	"fmt"
	"io/fs"
	"strings"
)

// IsURL reports whether s names a place in an object store (starts with
// "s3://") rather than a local path.
func IsURL(s string) bool { return strings.HasPrefix(s, "s3://") }

// ParseURL splits an s3://bucket/prefix URL into its bucket and its prefix
// (slash-separated, without leading or trailing slashes; empty for the whole
// bucket). It returns an error wrapping [ErrConfig] that names the URL when it
// does not start with s3://, has no bucket or a bucket name S3 refuses
// (3 to 63 characters of a-z, 0-9, '.' and '-', starting and ending with a
// letter or digit), or has an empty, "." or ".." element in its prefix.
func ParseURL(s string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(s, "s3://")
	if !ok {
		return "", "", fmt.Errorf("%w: %q is not an s3://bucket/prefix URL", ErrConfig, s)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	prefix = strings.TrimSuffix(prefix, "/")
	if !validBucket(bucket) {
		return "", "", fmt.Errorf("%w: %q: bucket %q is not a bucket name (3 to 63 of a-z 0-9 . -, a letter or digit first and last)", ErrConfig, s, bucket)
	}
	if prefix != "" && !fs.ValidPath(prefix) {
		return "", "", fmt.Errorf("%w: %q: prefix %q has an empty, \".\" or \"..\" element", ErrConfig, s, prefix)
	}
	return bucket, prefix, nil
}

func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '.' && c != '-' || i == 0 || i == len(b)-1) {
			return false
		}
	}
	return true
}
