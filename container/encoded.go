package container

import "fmt"

// An Encoded container holds byte strings stored somewhere, read when asked
// for: image files, RecordIO records, the rows of a binary column. Observation
// i is its bytes, as GetObs returns them; AppendObs reads them into a buffer
// the caller reuses, and returns an error where GetObs panics, so that a
// consumer (an image decoder, a shard reader) can allocate nothing per
// observation and skip one that cannot be read.
//
// It is an optional ability, found by type assertion as [io.Copy] finds
// [io.WriterTo], and it changes only speed and how a failed read is reported,
// never the bytes: [AppendObs] calls it when a container has it and otherwise
// reads GetObs.
//
// AppendObs appends the bytes of observation i to dst and returns the extended
// slice, with the calling convention of [strconv.AppendInt]:
//
//	buf, err = c.AppendObs(buf[:0], i)
//
// The bytes appended are those of GetObs(i), copied: they share no memory with
// the container, and AppendObs leaves dst[:len(dst)] as it was. AppendObs must
// not retain dst. It must be safe to call from any number of goroutines at
// once, each with its own dst, as GetObs is (and as [io.ReaderAt]'s ReadAt
// is). It panics with an [*IndexError] when i is outside [0, Nobs()), a
// programmer error. A read that fails (a file removed since it was listed, a
// record whose bytes are not a record, a mapped page lost) is a data error: it
// returns dst's bytes only (in dst's memory or memory grown for the
// observation; keep the result either way) and an error that names where
// observation i is stored and wraps the implementation's sentinel. GetObs
// panics with that error.
//
// Where returns where observation i is stored, for messages: a file's path,
// "train.rec: record of key 7 at offset 1024", a row of a column. A consumer
// calls it when it finds something wrong with bytes that were read, such as an
// image that does not decode. It may allocate; it returns "" when the
// container cannot say (a view of a container that is not Encoded). It panics
// with an [*IndexError] when i is outside [0, Nobs()).
//
// Containers that have it: imagedata's Files and RecordImages, recordio.File,
// columnar.Binary (a text or binary column of an Arrow or Parquet file). Wrappers that do not change the value pass it
// through (they have both methods, and read their source with [AppendObs] and
// [Where]): subset's views (Of, Range, Shuffle, splits, folds, partitions,
// transform.Filter's result), mix's mixes, transform.Join (several RecordIO
// files as one container), [AsBatched], and tuples.Features of a tuple or a
// view of one. Wrappers that change the value do not: transform's maps and
// windows, convert's conversions, batch views, imagedata's decoded images. A
// tuple is not Encoded, since its observations are pairs; tuples.Features
// reaches its X member.
type Encoded interface {
	Container[[]byte]
	// AppendObs appends the bytes of observation i to dst and returns the
	// extended slice, or dst and the error GetObs would panic with.
	AppendObs(dst []byte, i int) ([]byte, error)
	// Where returns where observation i is stored, for messages.
	Where(i int) string
}

// AppendObs appends the bytes of observation i of c to dst and returns the
// extended slice: c.AppendObs(dst, i) when c has that method (every [Encoded]
// container has). Otherwise, for a container of []byte, it appends the bytes
// c.GetObs(i) returns, a copy made after whatever GetObs allocates, and a read
// that fails panics, as GetObs does, rather than returning an error. Either way
// it panics with an [*IndexError] when i is outside [0, c.Nobs()), and with an
// [*ArgError] when c has no AppendObs method and its observations are not
// []byte. Wrappers call it to pass the ability on from their sources.
func AppendObs[T any](c Container[T], dst []byte, i int) ([]byte, error) {
	switch c := any(c).(type) {
	case interface {
		AppendObs(dst []byte, i int) ([]byte, error)
	}:
		return c.AppendObs(dst, i)
	case Container[[]byte]:
		return append(dst, c.GetObs(i)...), nil
	}
	panic(&ArgError{Op: "container.AppendObs", Arg: "container", Value: fmt.Sprintf("%T", c), Want: "a container of []byte"})
}

// Where returns where observation i of c is stored, for messages: c.Where(i)
// when c has that method ([Encoded] containers and the wrappers that pass it
// through), and "" otherwise. It panics with an [*IndexError] when i is outside
// [0, c.Nobs()).
func Where[T any](c Container[T], i int) string {
	if w, ok := c.(interface{ Where(i int) string }); ok {
		return w.Where(i)
	}
	CheckIndex("container.Where", i, c.Nobs())
	return ""
}
