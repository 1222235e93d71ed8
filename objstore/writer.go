package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/obskit/obskit/shard"
)

// errDone is the error of a write to a writer that was committed or closed.
var errDone = errors.New("writer already committed or closed")

// Create returns a writer of the object name. Its bytes are held in memory
// up to 64 MiB and sent with one PUT at Commit: a manifest of up to about
// 200,000 shards (28.7 MB at 100,000) or a shard of that size is one
// request, which a writer that dies leaves nothing of. An object that grows
// beyond is sent as a multipart upload, in 16 MiB parts as they fill,
// completed by Commit; the writer then holds one part. Until Commit
// returns nil nothing is visible under name: a single PUT stores an object
// whole, and the parts of an upload are not an object before it completes.
// Close without Commit aborts the upload; a process that dies first leaves
// its parts, which [Bucket.Clean] removes. A name that is not a valid path
// is an error wrapping fs.ErrInvalid.
func (b *Bucket) Create(name string) (shard.Writer, error) {
	if err := b.check("create", name); err != nil {
		return nil, err
	}
	return &writer{b: b, name: name, key: b.prefix + name}, nil
}

type writer struct {
	b         *Bucket
	name, key string
	buf       []byte
	upload    string // the multipart upload's id, once started
	parts     []types.CompletedPart
	done      bool
	err       error // the first failure; the writer is then dead
}

func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("objstore: write %s: %w", w.b.URL(w.name), errDone)
	}
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	for len(p) > 0 {
		// Up to putMax bytes are held for one PUT at Commit; one byte more
		// makes the object a multipart upload, whose parts go as they fill.
		limit := w.b.partSize
		if w.upload == "" {
			limit = w.b.putMax + 1
		}
		k := min(limit-len(w.buf), len(p))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) == limit {
			if err := w.sendParts(false); err != nil {
				w.err = w.b.fail("write", w.name, err)
				return n - len(p), w.err
			}
		}
	}
	return n, nil
}

// sendParts uploads the buffer's whole parts (and, when last, what remains
// after them) as the next parts, starting the upload first, and keeps the
// rest of the buffer.
func (w *writer) sendParts(last bool) error {
	ctx := context.Background()
	if w.upload == "" {
		err := w.b.c.retry.do(ctx, func(ctx context.Context) (bool, error) {
			out, err := w.b.c.s3.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &w.b.bucket, Key: &w.key})
			if err == nil {
				w.upload = aws.ToString(out.UploadId)
			}
			return false, w.b.counted(err)
		})
		if err != nil {
			return err
		}
	}
	rest := w.buf
	for len(rest) >= w.b.partSize || last && len(rest) > 0 {
		part := rest[:min(len(rest), w.b.partSize)]
		num := int32(len(w.parts) + 1)
		err := w.b.c.retry.do(ctx, func(ctx context.Context) (bool, error) {
			w.b.stats.Puts.Add(1)
			out, err := w.b.c.s3.UploadPart(ctx, &s3.UploadPartInput{
				Bucket: &w.b.bucket, Key: &w.key, UploadId: &w.upload, PartNumber: &num,
				Body: bytes.NewReader(part), ContentLength: aws.Int64(int64(len(part))),
			})
			if err == nil {
				w.parts = append(w.parts, types.CompletedPart{ETag: out.ETag, PartNumber: &num})
			}
			return false, w.b.counted(err)
		})
		if err != nil {
			return err
		}
		w.b.stats.BytesWritten.Add(int64(len(part)))
		rest = rest[len(part):]
	}
	w.buf = w.buf[:copy(w.buf, rest)]
	return nil
}

func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("objstore: commit %s: %w", w.b.URL(w.name), errDone)
	}
	if w.err != nil {
		w.Close()
		return w.err
	}
	var err error
	if w.upload == "" {
		err = w.b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
			w.b.stats.Puts.Add(1)
			_, err := w.b.c.s3.PutObject(ctx, &s3.PutObjectInput{
				Bucket: &w.b.bucket, Key: &w.key,
				Body: bytes.NewReader(w.buf), ContentLength: aws.Int64(int64(len(w.buf))),
			})
			return false, w.b.counted(err)
		})
		if err == nil {
			w.b.stats.BytesWritten.Add(int64(len(w.buf)))
		}
	} else {
		err = w.sendParts(true)
		if err == nil {
			err = w.b.c.retry.do(context.Background(), func(ctx context.Context) (bool, error) {
				_, err := w.b.c.s3.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
					Bucket: &w.b.bucket, Key: &w.key, UploadId: &w.upload,
					MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts},
				})
				return false, w.b.counted(err)
			})
		}
	}
	if err != nil {
		w.err = w.b.fail("commit", w.name, err)
		w.Close()
		return w.err
	}
	w.done, w.buf = true, nil
	return nil
}

func (w *writer) Close() error {
	if w.done {
		return nil
	}
	w.done, w.buf = true, nil
	if w.upload != "" {
		if err := w.b.abort(w.key, w.upload); err != nil {
			return w.b.fail("abort upload of", w.name, err)
		}
	}
	return nil
}
