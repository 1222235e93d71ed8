package objstore

// Uploads counts the unfinished multipart uploads of b under prefix.
func Uploads(b *Bucket, prefix string) (int, error) {
	n := 0
	err := b.uploads(prefix, func(string, string) error { n++; return nil })
	return n, err
}

// SetPutMax sets the largest object b sends with one PUT, so that tests
// reach multipart uploads with less data.
func SetPutMax(b *Bucket, n int) { b.putMax = n }
