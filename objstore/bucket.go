package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/obskit/obskit/shard"
)

var (
	_ shard.Store   = (*Bucket)(nil)
	_ shard.Cleaner = (*Bucket)(nil)
	_ io.WriterTo   = (*Object)(nil)
)

// ErrChanged is wrapped by the error of a read from an [Object] whose object
// was replaced or removed since it was opened: the read fails rather than mix
// the bytes of two versions.
var ErrChanged = errors.New("objstore: object changed since it was opened")

// A Bucket is a prefix of a bucket as a shard.Store: object name is the key
// prefix + "/" + name. Reads are ranged GETs, pinned to the version opened
// (If-Match on its ETag); writes are single PUTs up to 64 MiB (a manifest
// of about 200,000 shards is one PUT), multipart uploads of 16 MiB parts
// beyond, completed at Commit so that nothing is visible before. Every
// request is retried as the client's [Retry] says. A Bucket is safe for any
// number of goroutines at once.
type Bucket struct {
	c              *Client
	bucket, prefix string // prefix "" or ending in "/"
	partSize       int    // the parts of a multipart upload
	putMax         int    // the largest object sent with one PUT
	stats          *Stats
}

// Stats counts the requests and bytes of a [Bucket]; read it with
// [Bucket.Stats]. The fields are updated atomically while the bucket works.
type Stats struct {
	Gets, Heads, Puts, Lists atomic.Int64
	BytesRead, BytesWritten  atomic.Int64
	Retries                  atomic.Int64
}

// Bucket returns the objects of bucket whose keys start with prefix + "/"
// (all of them for an empty prefix) as a store. It sends no request.
func (c *Client) Bucket(bucket, prefix string) *Bucket {
	prefix = strings.Trim(prefix, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &Bucket{c: c, bucket: bucket, prefix: prefix, partSize: 16 << 20, putMax: 64 << 20, stats: new(Stats)}
}

// OpenURL returns the bucket prefix an s3://bucket/prefix URL names, reached
// with the client of [EnvConfig]'s configuration. Its errors are those of
// [ParseURL], [EnvConfig] and [New].
func OpenURL(s string) (*Bucket, error) {
	bucket, prefix, err := ParseURL(s)
	if err != nil {
		return nil, err
	}
	cfg, err := EnvConfig()
	if err != nil {
		return nil, err
	}
	c, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return c.Bucket(bucket, prefix), nil
}

// URL returns the s3:// URL of the object name, for messages.
func (b *Bucket) URL(name string) string { return "s3://" + b.bucket + "/" + b.prefix + name }

// Stats returns the bucket's counters.
func (b *Bucket) Stats() *Stats { return b.stats }

func (b *Bucket) check(op, name string) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("objstore: %s %q: not a valid object name: %w", op, name, fs.ErrInvalid)
	}
	return nil
}

// fail wraps a request's error: fs.ErrNotExist for a 404, ErrChanged for a
// failed If-Match, always naming op and the object.
func (b *Bucket) fail(op, name string, err error) error {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		switch re.HTTPStatusCode() {
		case http.StatusNotFound:
			return fmt.Errorf("objstore: %s %s: no such object: %w", op, b.URL(name), fs.ErrNotExist)
		case http.StatusPreconditionFailed:
			return fmt.Errorf("objstore: %s %s: %w", op, b.URL(name), ErrChanged)
		}
	}
	return fmt.Errorf("objstore: %s %s: %w", op, b.URL(name), err)
}

// Open returns the object name, its size and version read with a HEAD
// request. A missing object is an error wrapping fs.ErrNotExist that names
// it; a name that is not a valid path, one wrapping fs.ErrInvalid.
func (b *Bucket) Open(name string) (shard.Object, error) { return b.open(name) }

// OpenKnown returns the object name, whose size the caller knows (a
// manifest's), without a request: its reads are not conditional on a
// version, so the caller checks what it reads (a checksum). A read of an
// object that does not exist fails as Open would.
func (b *Bucket) OpenKnown(name string, size int64) (shard.Object, error) {
	if err := b.check("open", name); err != nil {
		return nil, err
	}
	return &Object{b: b, name: name, size: size}, nil
}

func (b *Bucket) open(name string) (*Object, error) {
	if err := b.check("open", name); err != nil {
		return nil, err
	}
	var out *s3.HeadObjectOutput
	err := b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
		b.stats.Heads.Add(1)
		var err error
		out, err = b.c.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &b.bucket, Key: aws.String(b.prefix + name)})
		return false, b.counted(err)
	})
	if err != nil {
		return nil, b.fail("open", name, err)
	}
	return &Object{b: b, name: name, size: aws.ToInt64(out.ContentLength), etag: aws.ToString(out.ETag)}, nil
}

// counted counts a failed try that will be retried.
func (b *Bucket) counted(err error) error {
	if err != nil && transient(err) {
		b.stats.Retries.Add(1)
	}
	return err
}

// List yields the names under the bucket prefix that start with prefix, in
// increasing byte order (S3's order of keys), from ListObjectsV2 pages of up
// to 1,000 names. It returns a single-use iterator.
func (b *Bucket) List(prefix string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		in := &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: aws.String(b.prefix + prefix)}
		for {
			var out *s3.ListObjectsV2Output
			err := b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
				b.stats.Lists.Add(1)
				var err error
				out, err = b.c.s3.ListObjectsV2(ctx, in)
				return false, b.counted(err)
			})
			if err != nil {
				yield("", fmt.Errorf("objstore: list s3://%s/%s%s: %w", b.bucket, b.prefix, prefix, err))
				return
			}
			for _, o := range out.Contents {
				if !yield(strings.TrimPrefix(aws.ToString(o.Key), b.prefix), nil) {
					return
				}
			}
			if !aws.ToBool(out.IsTruncated) || out.NextContinuationToken == nil {
				return
			}
			in.ContinuationToken = out.NextContinuationToken
		}
	}
}

// Remove deletes the object name; removing an object that does not exist
// is not an error (S3's DeleteObject). Objects open for reading fail their
// next read with an error wrapping fs.ErrNotExist.
func (b *Bucket) Remove(name string) error {
	if err := b.check("remove", name); err != nil {
		return err
	}
	err := b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
		_, err := b.c.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: aws.String(b.prefix + name)})
		return false, b.counted(err)
	})
	if err != nil {
		return b.fail("remove", name, err)
	}
	return nil
}

// Clean aborts the unfinished multipart uploads of the objects whose names
// start with prefix: what a writer that died before Commit leaves (it is
// never visible, but the store keeps its parts).
func (b *Bucket) Clean(prefix string) error {
	return b.uploads(prefix, func(key, id string) error {
		if err := b.abort(key, id); err != nil {
			return fmt.Errorf("objstore: clean s3://%s/%s: %w", b.bucket, key, err)
		}
		return nil
	})
}

// uploads calls f with the key and id of every unfinished multipart upload
// under prefix, stopping at its first error.
func (b *Bucket) uploads(prefix string, f func(key, id string) error) error {
	in := &s3.ListMultipartUploadsInput{Bucket: &b.bucket, Prefix: aws.String(b.prefix + prefix)}
	for {
		var out *s3.ListMultipartUploadsOutput
		err := b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
			b.stats.Lists.Add(1)
			var err error
			out, err = b.c.s3.ListMultipartUploads(ctx, in)
			return false, b.counted(err)
		})
		if err != nil {
			return fmt.Errorf("objstore: list uploads s3://%s/%s%s: %w", b.bucket, b.prefix, prefix, err)
		}
		for _, u := range out.Uploads {
			if err := f(aws.ToString(u.Key), aws.ToString(u.UploadId)); err != nil {
				return err
			}
		}
		if !aws.ToBool(out.IsTruncated) {
			return nil
		}
		in.KeyMarker, in.UploadIdMarker = out.NextKeyMarker, out.NextUploadIdMarker
	}
}

func (b *Bucket) abort(key, id string) error {
	return b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
		_, err := b.c.s3.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &b.bucket, Key: &key, UploadId: &id})
		var re *awshttp.ResponseError
		if errors.As(err, &re) && re.HTTPStatusCode() == http.StatusNotFound {
			return false, nil // already gone
		}
		return false, b.counted(err)
	})
}

// An Object is an object of a [Bucket] opened for ranged reads: every ReadAt
// is one GET of the bytes asked for (more when a response is cut and the rest
// is asked again), conditional on the version that was opened. It is safe
// for any number of goroutines at once.
type Object struct {
	b      *Bucket
	name   string
	size   int64
	etag   string
	closed atomic.Bool
}

// Name returns the object's name in its bucket prefix.
func (o *Object) Name() string { return o.name }

// Size returns the object's size in bytes, as it was when opened.
func (o *Object) Size() int64 { return o.size }

// ETag returns the object's entity tag as the store gave it at Open: its
// version, on which every read is conditional.
func (o *Object) ETag() string { return o.etag }

// Close marks the object closed; reads after it fail. It holds no
// connection, so Close cannot fail.
func (o *Object) Close() error {
	o.closed.Store(true)
	return nil
}

// ReadAt reads len(p) bytes at off, as io.ReaderAt says: fewer only at the
// end of the object, with io.EOF. The error of a failed read names the
// object and wraps fs.ErrNotExist when it was removed, [ErrChanged] when it
// was replaced since Open.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	if o.closed.Load() {
		return 0, fmt.Errorf("objstore: read %s: %w", o.b.URL(o.name), fs.ErrClosed)
	}
	if off < 0 {
		return 0, fmt.Errorf("objstore: read %s: negative offset %d", o.b.URL(o.name), off)
	}
	if off >= o.size {
		if len(p) == 0 && off == o.size {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), o.size-off))
	if n > 0 {
		got, err := o.get(&sliceWriter{p[:n]}, off, int64(n))
		if err != nil {
			return int(got), err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// WriteTo writes the whole object to w with one GET (more when the response
// is cut), so that a cache fetches a shard in one request rather than in
// ranges. It returns the bytes written.
func (o *Object) WriteTo(w io.Writer) (int64, error) {
	if o.closed.Load() {
		return 0, fmt.Errorf("objstore: read %s: %w", o.b.URL(o.name), fs.ErrClosed)
	}
	if o.size == 0 {
		return 0, nil
	}
	return o.get(w, 0, o.size)
}

// get copies n bytes at off to w, asking again for the rest after a cut
// response.
func (o *Object) get(w io.Writer, off, n int64) (int64, error) {
	var done int64
	key := o.b.prefix + o.name
	err := o.b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
		ctx, watch, stop := idleContext(ctx, o.b.c.retry.Idle)
		defer stop()
		o.b.stats.Gets.Add(1)
		rng := fmt.Sprintf("bytes=%d-%d", off+done, off+n-1)
		out, err := o.b.c.s3.GetObject(ctx, &s3.GetObjectInput{Bucket: &o.b.bucket, Key: &key, Range: &rng, IfMatch: nilIfEmpty(o.etag)})
		if err != nil {
			return false, o.b.counted(err)
		}
		defer out.Body.Close()
		if l := aws.ToInt64(out.ContentLength); l != n-done {
			return false, fmt.Errorf("range %s answered with %d bytes", rng, l)
		}
		m, err := io.Copy(writeErr{w}, io.LimitReader(watch(out.Body), n-done))
		done += m
		o.b.stats.BytesRead.Add(m)
		if err == nil && done < n {
			err = io.ErrUnexpectedEOF
		}
		return m > 0, o.b.counted(err)
	})
	if err != nil {
		return done, o.b.fail("read", o.name, err)
	}
	return done, nil
}

// writeErr marks the errors of its writer, which no retry mends (a full
// disk), as not transient.
type writeErr struct{ w io.Writer }

func (w writeErr) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if err != nil {
		err = &permanent{err}
	}
	return n, err
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// A sliceWriter fills a byte slice from its start.
type sliceWriter struct{ p []byte }

func (s *sliceWriter) Write(b []byte) (int, error) {
	n := copy(s.p, b)
	s.p = s.p[n:]
	if n < len(b) {
		return n, io.ErrShortWrite
	}
	return n, nil
}
