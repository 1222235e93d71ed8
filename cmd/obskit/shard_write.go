package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/csvdata"
	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/shard"
)

func init() {
	register(command{
		group: "shard", name: "write", args: "INPUT",
		summary: "pack INPUT into shards of about -size bytes and write -o MANIFEST: an image folder (a folder per class: fields jpg/png/... and cls), a .rec of image records (image and cls), or arrays (a .npy file or an IDX file: field x.npy, one row per sample; a .csv: its feature columns; with -y, labels as cls); with -writer K -writers N, write only the K-th of N equal parts of INPUT and no manifest (then obskit shard commit); print one JSON object per shard written, then the manifest's",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			o := writeOpts{}
			fs.StringVar(&o.out, "o", "", "the manifest to write (required); the shards go beside it")
			fs.StringVar(&o.prefix, "prefix", "shard", "the shards' names start with it, relative to the manifest's directory")
			fs.StringVar(&o.format, "format", "tar", "the shards' format: tar (WebDataset), recordio, or npy (arrays only)")
			fs.StringVar(&o.size, "size", "256M", "the size a shard is closed at, in bytes (K, M, G suffixes: powers of 1024)")
			fs.StringVar(&o.labels, "y", "", "the labels of a .npy or IDX INPUT: a .npy or IDX file of one integer per row")
			fs.StringVar(&o.target, "target", "", "the label column of a .csv INPUT (integers)")
			fs.IntVar(&o.writer, "writer", 0, "this writer's number, 0 to -writers-1")
			fs.IntVar(&o.writers, "writers", 1, "the number of writers sharing INPUT")
			return func(e *env, args []string) error { return shardWrite(e, args, o) }
		},
	})
}

type writeOpts struct {
	out, prefix, format, size, labels, target string
	writer, writers                           int
}

// parseSize reads a byte count with an optional K, M or G suffix.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return 0, fmt.Errorf("-size %q: want a positive number of bytes, with K, M or G", s)
	}
	return n * mult, nil
}

// source is an input read as samples: n samples, sample i made by get into
// a reused Sample.
type source struct {
	n   int
	get func(i int, s *shard.Sample) error
}

func shardWrite(e *env, args []string, o writeOpts) error {
	if len(args) != 1 {
		return usageErrorf("want one INPUT, got %d arguments", len(args))
	}
	if o.out == "" {
		return usageErrorf("-o MANIFEST is required")
	}
	format, err := shard.ParseFormat(o.format)
	if err != nil {
		return usageErrorf("%v", err)
	}
	size, err := parseSize(o.size)
	if err != nil {
		return usageErrorf("%v", err)
	}
	if o.writers < 1 || o.writer < 0 || o.writer >= o.writers {
		return usageErrorf("-writer %d of -writers %d: want 0 <= writer < writers", o.writer, o.writers)
	}
	src, err := openSource(args[0], o, format)
	if err != nil {
		return err
	}
	store, name, err := openStore(o.out)
	if err != nil {
		return err
	}
	prefix := path.Join(path.Dir(name), o.prefix)
	label := "cls"
	if format == shard.Npy {
		label = "cls.npy"
	}
	p, err := shard.NewPacker(store, prefix, shard.PackOptions{Format: format, ShardBytes: size, Writer: o.writer, Label: label})
	if err != nil {
		return err
	}
	lo, hi := o.writer*src.n/o.writers, (o.writer+1)*src.n/o.writers
	bars := progress.New(progress.Output(e.stderr, true))
	bar := bars.Bar(filepath.Base(args[0]), int64(hi-lo), "samples")
	var s shard.Sample
	for i := lo; i < hi; i++ {
		if err = src.get(i, &s); err == nil {
			err = p.Write(s)
		}
		if err != nil {
			break
		}
		bar.Add(1)
	}
	bar.Done()
	bars.Stop()
	if err != nil {
		p.Close()
		return err
	}
	part, err := p.Close()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	dir := filepath.Dir(o.out)
	for _, sh := range part.Shards {
		var bytes int64
		for _, f := range sh.Files {
			bytes += f.Bytes
		}
		line := struct {
			Shard   string `json:"shard"`
			Samples int    `json:"samples"`
			Bytes   int64  `json:"bytes"`
		}{filepath.Join(dir, filepath.FromSlash(path.Join(path.Dir(o.prefix), sh.Files[0].Name))), sh.Samples, bytes}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	if o.writers > 1 {
		return nil // obskit shard commit writes the manifest
	}
	m, err := shard.Commit(store, name, prefix, 1)
	if err != nil {
		return err
	}
	return enc.Encode(summary(o.out, m))
}

// openSource opens INPUT by its kind: a folder, a .rec, a .npy, a .csv, or
// an IDX file (anything else).
func openSource(in string, o writeOpts, format shard.Format) (*source, error) {
	st, err := os.Stat(in)
	if err != nil {
		return nil, err
	}
	lower := strings.ToLower(in)
	switch {
	case st.IsDir():
		if format == shard.Npy {
			return nil, usageErrorf("%s: images are not arrays: use -format tar or recordio", in)
		}
		f, err := imagedata.OpenFolder(in, imagedata.FolderOptions{})
		if err != nil {
			return nil, err
		}
		files, labels := f.X(), f.Y()
		return imageSource(files.Nobs(), func(dst []byte, i int) ([]byte, string, error) {
			b, err := files.AppendObs(dst, i)
			return b, strings.TrimPrefix(strings.ToLower(filepath.Ext(files.Path(i))), "."), err
		}, func(i int) int64 { return int64(labels[i]) }), nil
	case strings.HasSuffix(lower, ".rec"):
		if format == shard.Npy {
			return nil, usageErrorf("%s: images are not arrays: use -format tar or recordio", in)
		}
		r, err := imagedata.OpenRecords(in, "", imagedata.Class)
		if err != nil {
			return nil, err
		}
		imgs, labels := r.X(), r.Y()
		return imageSource(imgs.Nobs(), func(dst []byte, i int) ([]byte, string, error) {
			b, err := imgs.AppendObs(dst, i)
			return b, imageExt(b), err
		}, func(i int) int64 { return int64(labels[i]) }), nil
	}
	rows, n, err := openRows(in, o.target)
	if err != nil {
		return nil, err
	}
	var labels func(i int) (int64, error)
	switch {
	case o.target != "":
		labels = csvLabels(in, o.target)
	case o.labels != "":
		ls, m, err := openRows(o.labels, "")
		if err != nil {
			return nil, err
		}
		if m != n {
			return nil, fmt.Errorf("%s: %d labels for the %d rows of %s", o.labels, m, n, in)
		}
		labels = func(i int) (int64, error) {
			b, err := ls(nil, i)
			if err != nil {
				return 0, err
			}
			return shard.ParseLabel(".npy", b)
		}
	}
	width := len(strconv.Itoa(max(n-1, 0)))
	return &source{n: n, get: func(i int, s *shard.Sample) error {
		s.Key = fmt.Sprintf("%0*d", max(width, 6), i)
		s.Fields = s.Fields[:0]
		x, err := rows(nil, i)
		if err != nil {
			return err
		}
		s.Fields = append(s.Fields, shard.Field{Name: "x.npy", Data: x})
		if labels != nil {
			l, err := labels(i)
			if err != nil {
				return fmt.Errorf("label of row %d: %w", i, err)
			}
			if format == shard.Npy {
				s.Fields = append(s.Fields, shard.Field{Name: "cls.npy", Data: npyInt(l)})
			} else {
				s.Fields = append(s.Fields, shard.Field{Name: "cls", Data: strconv.AppendInt(nil, l, 10)})
			}
		}
		return nil
	}}, nil
}

// imageSource is a source of n images with their labels.
func imageSource(n int, img func(dst []byte, i int) ([]byte, string, error), label func(i int) int64) *source {
	width := len(strconv.Itoa(max(n-1, 0)))
	var buf []byte
	return &source{n: n, get: func(i int, s *shard.Sample) error {
		var ext string
		var err error
		buf, ext, err = img(buf[:0], i)
		if err != nil {
			return err
		}
		s.Key = fmt.Sprintf("%0*d", max(width, 6), i)
		s.Fields = append(s.Fields[:0], shard.Field{Name: ext, Data: buf}, shard.Field{Name: "cls", Data: strconv.AppendInt(nil, label(i), 10)})
		return nil
	}}
}

// imageExt names an image's format by its first bytes.
func imageExt(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte{0xff, 0xd8}):
		return "jpg"
	case bytes.HasPrefix(b, []byte("\x89PNG")):
		return "png"
	case bytes.HasPrefix(b, []byte("GIF8")):
		return "gif"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return "img"
}

// npyInt is a .npy file of one int64.
func npyInt(v int64) []byte {
	a, _ := arraycontainer.New([]int64{v}, nil, obsdim.First)
	var buf bytes.Buffer
	npy.Write(&buf, a)
	return buf.Bytes()
}

// openRows returns a function that appends row i of a .npy, .csv or IDX file
// as a .npy file of that row, and the number of rows.
func openRows(in, target string) (func(dst []byte, i int) ([]byte, error), int, error) {
	lower := strings.ToLower(in)
	switch {
	case strings.HasSuffix(lower, ".npy"):
		h, err := npy.Stat(in)
		if err != nil {
			return nil, 0, err
		}
		if len(h.Shape) == 0 {
			return nil, 0, fmt.Errorf("%s: a 0-d array has no rows", in)
		}
		if h.Fortran && len(h.Shape) > 1 {
			return nil, 0, fmt.Errorf("%s: Fortran order: rewrite it in C order (np.ascontiguousarray)", in)
		}
		f, err := os.Open(in)
		if err != nil {
			return nil, 0, err
		}
		row := npy.Header{Dtype: h.Dtype, Shape: h.Shape[1:]}
		hdr := npy.AppendHeader(nil, row)
		size := row.DataSize()
		return func(dst []byte, i int) ([]byte, error) {
			dst = append(dst, hdr...)
			start := len(dst)
			dst = append(dst, make([]byte, size)...)
			if _, err := f.ReadAt(dst[start:], h.DataOffset+int64(i)*size); err != nil {
				return nil, fmt.Errorf("%s: row %d: %w", in, i, err)
			}
			return dst, nil
		}, h.Shape[0], nil
	case strings.HasSuffix(lower, ".csv"):
		t, err := csvdata.Load[float32](in, csvdata.Options{Target: target})
		if err != nil {
			return nil, 0, err
		}
		return arrayRows(t.X), t.X.Nobs(), nil
	}
	h, err := idx.Stat(in)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: not a folder, .rec, .npy or .csv, and: %w", in, err)
	}
	switch h.Type {
	case idx.Uint8:
		return idxRows[uint8](in)
	case idx.Int8:
		return idxRows[int8](in)
	case idx.Int16:
		return idxRows[int16](in)
	case idx.Int32:
		return idxRows[int32](in)
	case idx.Float32:
		return idxRows[float32](in)
	}
	return idxRows[float64](in)
}

func idxRows[E arraycontainer.Number](in string) (func(dst []byte, i int) ([]byte, error), int, error) {
	a, err := idx.Load[E](in, obsdim.First)
	if err != nil {
		return nil, 0, err
	}
	return arrayRows(a), a.Nobs(), nil
}

// arrayRows returns the rows of a as .npy files.
func arrayRows[E arraycontainer.Number](a *arraycontainer.Array[E]) func(dst []byte, i int) ([]byte, error) {
	return func(dst []byte, i int) ([]byte, error) {
		buf := bytes.NewBuffer(dst)
		if err := npy.Write(buf, a.GetObs(i)); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
}

// csvLabels returns the integer labels of a CSV file's target column.
func csvLabels(in, target string) func(i int) (int64, error) {
	t, err := csvdata.Load[float32](in, csvdata.Options{Target: target})
	var ys []int
	if err == nil {
		ys, err = t.IntTargets()
	}
	return func(i int) (int64, error) {
		if err != nil {
			return 0, err
		}
		return int64(ys[i]), nil
	}
}
