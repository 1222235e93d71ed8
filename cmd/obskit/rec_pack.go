package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/cmd/internal/pyrand"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/internal/pipeline"
	"github.com/obskit/obskit/recordio"
)

// packOptions are the flags of obskit rec pack: im2rec's, by the same names.
type packOptions struct {
	list, recursive, shuffle, noShuffle bool
	exts                                string
	chunks                              int
	trainRatio, testRatio               float64
	passThrough, centerCrop, packLabel  bool
	resize, quality, numThread, color   int
	encoding                            string
	skipBad                             bool
}

func packFlags(fs *flag.FlagSet) func(*env, []string) error {
	var o packOptions
	fs.BoolVar(&o.list, "list", false, "write PREFIX.lst listing the images under ROOT, and stop (otherwise read PREFIX*.lst and pack)")
	fs.StringVar(&o.exts, "exts", ".jpeg,.jpg,.png", "the extensions of images, for --list (lower case, separated by commas or spaces)")
	fs.IntVar(&o.chunks, "chunks", 1, "with --list: cut the list into this many chunks, PREFIX_0.lst, PREFIX_1.lst...")
	fs.Float64Var(&o.trainRatio, "train-ratio", 1, "with --list: the share of each chunk for training (PREFIX_train.lst); below 1, the rest after --test-ratio goes to PREFIX_val.lst")
	fs.Float64Var(&o.testRatio, "test-ratio", 0, "with --list: the share of each chunk for testing (PREFIX_test.lst)")
	fs.BoolVar(&o.recursive, "recursive", false, "with --list: walk the folders under ROOT, each folder with images a class (labels 0, 1... in walk order); otherwise the images in ROOT, label 0")
	fs.BoolVar(&o.shuffle, "shuffle", true, "with --list: shuffle the list as im2rec does (Python's random.seed(100)); --shuffle=false or --no-shuffle keeps the walk order")
	fs.BoolVar(&o.noShuffle, "no-shuffle", false, "with --list: do not shuffle (im2rec's --no-shuffle)")
	fs.BoolVar(&o.passThrough, "pass-through", false, "store each file's bytes as they are (otherwise images are decoded and encoded again)")
	fs.IntVar(&o.resize, "resize", 0, "resize the shorter side to this many pixels when encoding again (0: keep the size)")
	fs.BoolVar(&o.centerCrop, "center-crop", false, "crop the square center of each image when encoding again")
	fs.IntVar(&o.quality, "quality", 95, "JPEG quality 1-100 when encoding again; PNG compression 0-9 with --encoding .png (larger values count as 9)")
	fs.IntVar(&o.numThread, "num-thread", 1, "images read and encoded at once; the records keep the order of the list")
	fs.IntVar(&o.color, "color", 1, "when encoding again: 1 color, 0 grayscale (im2rec's -1, unchanged with alpha, is not supported)")
	fs.StringVar(&o.encoding, "encoding", ".jpg", "the encoding of images encoded again: .jpg or .png")
	fs.BoolVar(&o.packLabel, "pack-label", false, "store every label of a list line in the record (otherwise only the first)")
	fs.BoolVar(&o.skipBad, "skip-bad", false, "skip an image that cannot be read or decoded, with a message on stderr, instead of stopping (im2rec's multi-process behaviour)")
	return func(e *env, args []string) error {
		if len(args) != 2 {
			return usageErrorf("want PREFIX and ROOT, got %d arguments", len(args))
		}
		if err := o.check(); err != nil {
			return err
		}
		if o.list {
			return makeLists(e, o, args[0], args[1])
		}
		return packLists(e, o, args[0], args[1])
	}
}

func (o *packOptions) check() error {
	switch {
	case o.chunks < 1:
		return usageErrorf("--chunks %d: at least 1", o.chunks)
	case !(o.trainRatio >= 0 && o.trainRatio <= 1) || !(o.testRatio >= 0 && o.testRatio <= 1):
		return usageErrorf("--train-ratio %v, --test-ratio %v: each from 0 to 1", o.trainRatio, o.testRatio)
	case o.numThread < 1:
		return usageErrorf("--num-thread %d: at least 1", o.numThread)
	case o.resize < 0:
		return usageErrorf("--resize %d: 0 or more", o.resize)
	case o.color == -1:
		return usageErrorf("--color -1 (images unchanged, with alpha or 16-bit samples) is not supported: images are decoded to 8-bit RGB; use --pass-through to keep files as they are")
	case o.color != 0 && o.color != 1:
		return usageErrorf("--color %d: 1 (color) or 0 (grayscale)", o.color)
	case o.encoding != ".jpg" && o.encoding != ".png":
		return usageErrorf("--encoding %q: .jpg or .png", o.encoding)
	case o.encoding == ".jpg" && (o.quality < 1 || o.quality > 100):
		return usageErrorf("--quality %d: JPEG quality is 1 to 100", o.quality)
	case o.encoding == ".png" && o.quality < 0:
		return usageErrorf("--quality %d: PNG compression is 0 to 9", o.quality)
	}
	if o.noShuffle {
		o.shuffle = false
	}
	return nil
}

// listWritten is the JSON line of a list written by obskit rec pack --list.
type listWritten struct {
	Lst    string `json:"lst"`
	Images int    `json:"images"`
}

// classFound is the JSON line of a class of obskit rec pack --list --recursive.
type classFound struct {
	Class string `json:"class"`
	Label int    `json:"label"`
}

// makeLists writes the lists of im2rec --list: the images under root,
// shuffled, cut into chunks and each chunk into test, train and validation
// lists, as im2rec's make_list.
func makeLists(e *env, o packOptions, prefix, root string) error {
	exts := strings.FieldsFunc(o.exts, func(r rune) bool { return r == ',' || r == ' ' })
	list, classes, err := imagedata.ListDir(root, o.recursive, exts)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	for k, c := range classes {
		if err := enc.Encode(classFound{c, k}); err != nil {
			return err
		}
	}
	if o.shuffle {
		pyrand.New(100).Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	}
	size := (len(list) + o.chunks - 1) / o.chunks
	part := func(lo, hi int) []imagedata.ListEntry { // Python's list[lo:hi]
		return list[min(lo, len(list)):min(max(lo, hi), len(list))]
	}
	// Every list or none: written beside their targets, put in place at the end.
	var out outputs
	defer out.abort()
	var written []listWritten
	write := func(path string, entries []imagedata.ListEntry) error {
		w, err := out.create(path)
		if err != nil {
			return err
		}
		if err := imagedata.WriteList(w, entries); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		written = append(written, listWritten{path, len(entries)})
		return nil
	}
	// im2rec cuts each chunk by the chunk size, not by the chunk's own length.
	sep, sepTest := int(float64(size)*o.trainRatio), int(float64(size)*o.testRatio)
	for i := range o.chunks {
		lo := i * size
		name := prefix
		if o.chunks > 1 {
			name = fmt.Sprintf("%s_%d", prefix, i)
		}
		if o.trainRatio == 1 {
			if err := write(name+".lst", part(lo, lo+size)); err != nil {
				return err
			}
			continue
		}
		end := min(lo+size, len(list))
		if o.testRatio != 0 {
			if err := write(name+"_test.lst", part(lo, min(lo+sepTest, end))); err != nil {
				return err
			}
		}
		if o.trainRatio+o.testRatio < 1 {
			if err := write(name+"_val.lst", part(min(lo+sepTest+sep, end), end)); err != nil {
				return err
			}
		}
		if err := write(name+"_train.lst", part(min(lo+sepTest, end), min(lo+sepTest+sep, end))); err != nil {
			return err
		}
	}
	if err := out.commit(); err != nil {
		return err
	}
	for _, w := range written {
		if err := enc.Encode(w); err != nil {
			return err
		}
	}
	return nil
}

// recWritten is the JSON line of a .rec written by obskit rec pack.
type recWritten struct {
	Lst     string `json:"lst"`
	Rec     string `json:"rec"`
	Idx     string `json:"idx"`
	Records int    `json:"records"`
	Skipped int    `json:"skipped"`
	Bytes   int64  `json:"bytes"`
}

// listFiles returns the lists im2rec packs for prefix: the files of the
// prefix's folder (the prefix itself when it is a folder) whose path starts
// with the prefix and ends with .lst, sorted, named by the prefix's folder as
// given.
func listFiles(prefix string) ([]string, error) {
	abs, err := filepath.Abs(prefix)
	if err != nil {
		return nil, err
	}
	dir, absDir := filepath.Dir(prefix), filepath.Dir(abs)
	if info, err := os.Stat(abs); err == nil && info.IsDir() {
		dir, absDir = prefix, abs
	}
	entries, err := os.ReadDir(absDir)
	if err != nil {
		return nil, err
	}
	var lists []string
	for _, e := range entries {
		p := filepath.Join(absDir, e.Name())
		if strings.HasPrefix(p, abs) && strings.HasSuffix(p, ".lst") {
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				lists = append(lists, filepath.Join(dir, e.Name()))
			}
		}
	}
	slices.Sort(lists)
	if len(lists) == 0 {
		return nil, fmt.Errorf("%s: no list file (%s*.lst); make one with --list", prefix, prefix)
	}
	return lists, nil
}

// packLists packs the images of every list of prefix, as im2rec without
// --list. Every .rec and .idx is written, or none: they are written beside
// their targets (each created before any image is read, so that a target
// that cannot be written fails first) and put in place once all are
// complete, each .idx after its .rec (see outputs).
func packLists(e *env, o packOptions, prefix, root string) error {
	lists, err := listFiles(prefix)
	if err != nil {
		return err
	}
	var out outputs
	defer out.abort()
	type files struct{ rec, idx io.Writer }
	ws := make([]files, len(lists))
	for i, lst := range lists {
		stem := strings.TrimSuffix(lst, ".lst")
		if ws[i].rec, err = out.create(stem + ".rec"); err != nil {
			return err
		}
		if ws[i].idx, err = out.create(stem + ".idx"); err != nil {
			return err
		}
	}
	p := progress.New(progress.Output(e.stderr, true))
	defer p.Stop()
	written := make([]recWritten, len(lists))
	for i, lst := range lists {
		if written[i], err = packList(e, p, o, lst, root, ws[i].rec, ws[i].idx); err != nil {
			return err
		}
	}
	if err := out.commit(); err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	for _, w := range written {
		if err := enc.Encode(w); err != nil {
			return err
		}
	}
	return nil
}

// packSlot is one image on its way into a .rec: its position in the list,
// its record, and the reader's and encoder's memory, reused image after image.
type packSlot struct {
	i    int
	rec  []byte
	err  error
	file []byte
	enc  reencoder
}

// packList writes the .rec and .idx of one list to rec and idx: the images
// read (and encoded again) by o.numThread workers, written in the order of
// the list.
func packList(e *env, p *progress.Progress, o packOptions, lst, root string, rec, idx io.Writer) (recWritten, error) {
	f, err := os.Open(lst)
	if err != nil {
		return recWritten{}, err
	}
	entries, err := imagedata.ReadList(f)
	f.Close()
	if err != nil {
		return recWritten{}, err
	}
	paths := make([]string, len(entries))
	seen := make(map[int64]int, len(entries))
	for i, en := range entries {
		paths[i] = en.Path
		// The index becomes the record's key: two records of one key would
		// make an .idx no reader can trust.
		if j, ok := seen[en.Index]; ok {
			return recWritten{}, fmt.Errorf("%s: entries %d and %d have the same index %d, which keys a record in the .idx", lst, j+1, i+1, en.Index)
		}
		seen[en.Index] = i
	}
	files := imagedata.NewFiles(root, paths)
	stem := strings.TrimSuffix(lst, ".lst")
	out := recWritten{Lst: lst, Rec: stem + ".rec", Idx: stem + ".idx"}
	bar := p.Bar(filepath.Base(lst), int64(len(entries)), "images")
	defer bar.Done()

	var ix recordio.Index
	err = func() error {
		bw := bufio.NewWriterSize(rec, 1<<20)
		w := recordio.NewWriter(bw)
		workers := 0
		if o.numThread > 1 {
			workers = o.numThread
		}
		slots := make([]packSlot, max(1, 2*workers))
		var failed error
		next := 0 // the next entry
		pipeline.Run(pipeline.Config{Op: "obskit rec pack", Workers: workers}, slots,
			func(s *packSlot) bool {
				if next == len(entries) {
					return false
				}
				s.i, next = next, next+1
				return true
			},
			func(s *packSlot) { s.rec, s.err = s.build(o, files, entries[s.i]) },
			func(s *packSlot) bool {
				bar.Add(1)
				en := entries[s.i]
				if s.err != nil {
					if !o.skipBad {
						failed = fmt.Errorf("%s: entry %d of the list (index %d): %w", lst, s.i+1, en.Index, s.err)
						return false
					}
					fmt.Fprintf(e.stderr, "obskit rec pack: skipped %s (index %d): %v\n", en.Path, en.Index, s.err)
					out.Skipped++
					return true
				}
				off, err := w.Write(s.rec)
				if err != nil {
					failed = err
					return false
				}
				ix = append(ix, recordio.Entry{Key: en.Index, Offset: off})
				return true
			})
		err := failed
		if err == nil {
			err = bw.Flush()
		}
		out.Bytes = w.Offset()
		if err != nil {
			return fmt.Errorf("%s: %w", out.Rec, err)
		}
		return nil
	}()
	if err != nil {
		return recWritten{}, err
	}
	out.Records = len(ix)
	bw := bufio.NewWriter(idx)
	if _, err := ix.WriteTo(bw); err != nil {
		return recWritten{}, fmt.Errorf("%s: %w", out.Idx, err)
	}
	if err := bw.Flush(); err != nil {
		return recWritten{}, fmt.Errorf("%s: %w", out.Idx, err)
	}
	return out, nil
}

// build makes the record of entry e (file i of files): MXNet's image header
// (the id is the entry's index; every label with --pack-label when there are
// several, otherwise the first), then the file's bytes, or the image encoded
// again.
func (s *packSlot) build(o packOptions, files *imagedata.Files, e imagedata.ListEntry) ([]byte, error) {
	var err error
	if s.file, err = files.AppendObs(s.file[:0], s.i); err != nil {
		return s.rec, err
	}
	img := s.file
	if !o.passThrough {
		if img, err = s.enc.encode(img, files.Path(s.i), o); err != nil {
			return s.rec, err
		}
	}
	h := recordio.Header{ID: uint64(e.Index)}
	if o.packLabel && len(e.Labels) > 1 {
		return recordio.Pack(s.rec[:0], h, e.Labels, img), nil
	}
	h.Label = e.Labels[0]
	return recordio.Pack(s.rec[:0], h, nil, img), nil
}
