//go:build unix

package imagedata_test

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"iter"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/draw"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/internal/cputime"
	"github.com/obskit/obskit/internal/pypeer"
	"github.com/obskit/obskit/recordio"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

// BenchmarkLoader is issue 16's whole-pipeline speed through the kit's image
// loader: decode + RandomResizedCrop(224) + RandomHorizontalFlip + Normalize
// into float32 CHW batches of 64, by imagedata.Decode over an ImageFolder of
// loaderN JPEGs near 500x375 at quality 90 made from the photographs of
// augment/testdata (random crops of 40% to 100% of a photo, four in five
// landscape, the longer side 450 to 550), and over the same images packed in
// a .rec. It is augment's BenchmarkImages with the kit's containers (files
// read from disk, records from the mapping) in place of bytes in memory.
// Every iteration runs each side over the whole set, a quarter at a time
// (images numbered lo to hi-1), the sides taking turns on each quarter, the
// first side rotating, so that the load of the machine falls on all alike:
//
//   - folder-w1, folder-w2: one shuffled epoch of eachobs.Batches over the
//     quarter of the folder with Workers(1) (a serial loop) and Workers(2),
//     libjpeg-turbo (the pure-Go decoder when it is not available);
//   - rec-w1, rec-w2: the same over the .rec;
//   - decode: the quarter's files read and decoded at full size by the same
//     decoder into a reused buffer, the decode-only baseline;
//   - tv-w0, tv-w1, tv-w2: torchvision's DataLoader(ImageFolder(...),
//     batch_size=64, shuffle=True, num_workers=0, 1, 2) with the same
//     transforms on the same files (augment/testdata/torchvision_peer.py,
//     when PYTHON, default /usr/bin/python3, has torchvision).
//
// Each side reports <side>-img/s-cpu, images per second of CPU time (the
// process's, and for torchvision its workers' too: images per second per
// core) and <side>-img/s, per second of wall time. The ratios, per CPU second:
// x-tv-w0 (folder-w1 over tv-w0), x-tv-w1 (folder-w1 over tv-w1), x-tv-w2
// (folder-w2 over tv-w2), x-decode (folder-w1 over decode) and x-decode-rec
// (rec-w1 over decode). allocs/batch, allocs/batch-w2 and allocs/batch-rec
// are the process's allocations per batch in the steady state of the last
// epoch of folder-w1, folder-w2 and rec-w1 (from its third batch to the
// last). The shares of the time (decoding, resizing) are BenchmarkImages's:
// the same pipeline and decoder.
func BenchmarkLoader(b *testing.B) {
	set, err := makeLoaderSet()
	if err != nil {
		b.Fatal(err)
	}
	p := augment.New(augment.CHW, augment.RandomResizedCrop{Size: image.Pt(224, 224)}, augment.RandomHorizontalFlip{}, augment.ImageNet)
	var dec imagecodec.Decoder = turbo.New(imagecodec.Options{})
	if err := turbo.Available().Err; err != nil {
		b.Logf("libjpeg-turbo is not available (%v): the kit's sides use the pure-Go decoder", err)
		dec = imagecodec.New(imagecodec.Options{})
	}
	folder, err := imagedata.OpenFolder(set.root, imagedata.FolderOptions{})
	if err != nil {
		b.Fatal(err)
	}
	recs, err := imagedata.OpenRecords(set.rec, recordio.IndexPath(set.rec), imagedata.Class)
	if err != nil {
		b.Fatal(err)
	}
	// The folder's and the records' indices of each quarter's images. The
	// records are in the order of their numbers; the folder's files by class
	// folder, then name.
	var inFolder, inRecs [loaderParts][]int
	for i := range folder.Nobs() {
		k := loaderPart(number(folder.X().Path(i)))
		inFolder[k] = append(inFolder[k], i)
	}
	for i := range recs.Nobs() {
		k := loaderPart(i)
		inRecs[k] = append(inRecs[k], i)
	}
	var onFolder, onRecs [loaderParts]*imagedata.Decoded[int]
	for k := range loaderParts {
		onFolder[k] = imagedata.Decode(subset.Of(folder, inFolder[k]), p, dec)
		onRecs[k] = imagedata.Decode(subset.Of(recs, inRecs[k]), p, dec)
	}
	var allocs, allocsW2, allocsRec []float64
	sides := []loaderSide{
		epochSide("folder-w1", onFolder, 1, &allocs),
		epochSide("folder-w2", onFolder, 2, &allocsW2),
		epochSide("rec-w1", onRecs, 1, &allocsRec),
		epochSide("rec-w2", onRecs, 2, new([]float64)),
		decodeOnly("decode", folder.X(), inFolder, dec),
	}
	sides = append(sides, torchvisionSides(b, set.root)...)
	totals := map[string]*loaderTotal{}
	for _, s := range sides {
		totals[s.name] = &loaderTotal{}
	}
	b.ResetTimer()
	for b.Loop() {
		for part := range loaderParts {
			for i := range sides {
				s := sides[(i+part)%len(sides)]
				n, wall, cpu := s.run(b, part)
				t := totals[s.name]
				t.images += n
				t.wall += wall
				t.cpu += cpu
			}
		}
	}
	b.StopTimer()
	perCPU := func(name string) float64 {
		if t := totals[name]; t != nil && t.images > 0 {
			return float64(t.images) / t.cpu.Seconds()
		}
		return 0
	}
	for name, t := range totals {
		if t.images > 0 {
			b.ReportMetric(perCPU(name), name+"-img/s-cpu")
			b.ReportMetric(float64(t.images)/t.wall.Seconds(), name+"-img/s")
		}
	}
	for _, r := range []struct{ unit, kit, tv string }{
		{"x-tv-w0", "folder-w1", "tv-w0"},
		{"x-tv-w1", "folder-w1", "tv-w1"},
		{"x-tv-w2", "folder-w2", "tv-w2"},
	} {
		if perCPU(r.tv) > 0 {
			b.ReportMetric(perCPU(r.kit)/perCPU(r.tv), r.unit)
		}
	}
	b.ReportMetric(perCPU("folder-w1")/perCPU("decode"), "x-decode")
	b.ReportMetric(perCPU("rec-w1")/perCPU("decode"), "x-decode-rec")
	for _, a := range []struct {
		unit   string
		epochs []float64
	}{{"allocs/batch", allocs}, {"allocs/batch-w2", allocsW2}, {"allocs/batch-rec", allocsRec}} {
		if len(a.epochs) > 0 {
			b.ReportMetric(a.epochs[len(a.epochs)-1], a.unit)
		}
	}
}

// loaderN is the size of the set, run loaderParts parts at a time.
const (
	loaderN     = 2000
	loaderParts = 4
)

// loaderPart is the part of the image numbered i.
func loaderPart(i int) int { return i * loaderParts / loaderN }

// loaderBounds are the numbers of the first image of part k and of the first
// after it.
func loaderBounds(k int) (lo, hi int) {
	return (k*loaderN + loaderParts - 1) / loaderParts, ((k+1)*loaderN + loaderParts - 1) / loaderParts
}

// number is the number of the image file at path (0042.jpg: 42).
func number(path string) int {
	n, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(path), ".jpg"))
	if err != nil {
		panic(err)
	}
	return n
}

type loaderTotal struct {
	images    int
	wall, cpu time.Duration
}

// A loaderSide processes a part of the set once and says how many images, in
// how much wall and CPU time.
type loaderSide struct {
	name string
	run  func(b *testing.B, part int) (n int, wall, cpu time.Duration)
}

// epochSide is a shuffled epoch of a part of data in batches of 64 with
// workers goroutines (1: serially). It appends to allocs the allocations per
// batch of the process in the steady state of the epoch.
func epochSide(name string, parts [loaderParts]*imagedata.Decoded[int], workers int, allocs *[]float64) loaderSide {
	var loops [loaderParts]iter.Seq[eachobs.Batch[tuples.Pair[*arraycontainer.Array[float32], []int]]]
	for k, data := range parts {
		loops[k] = eachobs.Batches(data, 64, eachobs.Shuffle(1), eachobs.Workers(workers))
	}
	return loaderSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
		n := 0
		var m0, m1 runtime.MemStats
		c0, t0 := processCPU(), time.Now()
		for batch := range loops[part] {
			n += len(batch.Data.Y)
			// The steady state: from the third batch of the epoch to the last.
			switch {
			case batch.Count < 4:
			case batch.Pos.Batch == 2:
				runtime.ReadMemStats(&m0)
			case batch.Pos.Batch == batch.Count-1:
				runtime.ReadMemStats(&m1)
				*allocs = append(*allocs, float64(m1.Mallocs-m0.Mallocs)/float64(batch.Count-3))
			}
		}
		return n, time.Since(t0), processCPU() - c0
	}}
}

// decodeOnly reads the files of each part of files and decodes them at full
// size with dec into one reused buffer.
func decodeOnly(name string, files *imagedata.Files, parts [loaderParts][]int, dec imagecodec.Decoder) loaderSide {
	var img *imagecodec.RGB
	var data []byte
	return loaderSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
		c0, t0 := processCPU(), time.Now()
		for _, i := range parts[part] {
			var err error
			if data, err = files.AppendObs(data[:0], i); err != nil {
				b.Fatal(err)
			}
			if img, _, err = dec.Decode(img, files.Path(i), data, imagecodec.Request{}); err != nil {
				b.Fatal(err)
			}
		}
		return len(parts[part]), time.Since(t0), processCPU() - c0
	}}
}

// processCPU is the process's CPU time, all threads.
func processCPU() time.Duration { d, _ := cputime.Process(); return d }

// torchvisionSides starts augment's torchvision peer on the ImageFolder at
// root and returns its sides, or none (the reason logged) when PYTHON has no
// torchvision.
func torchvisionSides(b *testing.B, root string) []loaderSide {
	peer := pypeer.Start(b, "torchvision", "../augment/testdata/torchvision_peer.py", loaderN, root)
	if peer == nil {
		return nil
	}
	var sides []loaderSide
	for w, name := range []string{"tv-w0", "tv-w1", "tv-w2"} {
		sides = append(sides, loaderSide{name, func(b *testing.B, part int) (int, time.Duration, time.Duration) {
			lo, hi := loaderBounds(part)
			return peer.Epoch(b, w, lo, hi)
		}})
	}
	return sides
}

// loaderSet is the benchmark's data: an ImageFolder of loaderN JPEGs in ten
// classes, and the same images packed in a .rec with an index.
type loaderSet struct {
	dir, root, rec string
}

// makeLoaderSet makes the set once per process, in a folder that TestMain
// removes.
var makeLoaderSet = sync.OnceValues(func() (loaderSet, error) {
	dir, err := os.MkdirTemp("", "imagedata-bench-")
	if err != nil {
		return loaderSet{}, err
	}
	benchDir = dir
	set := loaderSet{dir: dir, root: filepath.Join(dir, "folder"), rec: filepath.Join(dir, "set.rec")}
	var photos []*image.RGBA
	dec := imagecodec.New(imagecodec.Options{})
	for _, name := range []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"} {
		data, err := os.ReadFile(filepath.Join("../augment/testdata", name))
		if err != nil {
			return set, err
		}
		img, _, err := dec.Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			return set, err
		}
		rgba := image.NewRGBA(img.Rect)
		draw.Draw(rgba, rgba.Rect, img, img.Rect.Min, draw.Src)
		photos = append(photos, rgba)
	}
	f, err := os.Create(set.rec)
	if err != nil {
		return set, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := recordio.NewWriter(bw)
	var ix recordio.Index
	rng := rand.New(rand.NewPCG(16, loaderN))
	var buf bytes.Buffer
	for i := range loaderN {
		src := photos[i%len(photos)]
		sw, sh := src.Rect.Dx(), src.Rect.Dy()
		ratio := 4.0/3 + rng.Float64()*(16.0/9-4.0/3)
		if rng.IntN(5) == 0 {
			ratio = 1 / ratio
		}
		area := float64(sw*sh) * (0.4 + 0.6*rng.Float64())
		cw := min(sw, int(math.Sqrt(area*ratio)))
		ch := min(sh, int(float64(cw)/ratio))
		x0, y0 := rng.IntN(sw-cw+1), rng.IntN(sh-ch+1)
		long := 450 + rng.IntN(101)
		out := image.Pt(long, max(1, long*ch/cw))
		if ch > cw {
			out = image.Pt(max(1, long*cw/ch), long)
		}
		dst := image.NewRGBA(image.Rectangle{Max: out})
		draw.BiLinear.Scale(dst, dst.Rect, src, image.Rect(x0, y0, x0+cw, y0+ch), draw.Src, nil)
		buf.Reset()
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 90}); err != nil {
			return set, err
		}
		class := i % 10
		path := filepath.Join(set.root, fmt.Sprintf("class%d", class), fmt.Sprintf("%04d.jpg", i))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return set, err
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return set, err
		}
		off, err := w.Write(recordio.Pack(nil, recordio.Header{Label: float32(class), ID: uint64(i)}, nil, buf.Bytes()))
		if err != nil {
			return set, err
		}
		ix = append(ix, recordio.Entry{Key: int64(i), Offset: off})
	}
	if err := bw.Flush(); err != nil {
		return set, err
	}
	idx, err := os.Create(recordio.IndexPath(set.rec))
	if err != nil {
		return set, err
	}
	defer idx.Close()
	_, err = ix.WriteTo(idx)
	return set, err
})

// benchDir is the folder of the benchmark's set, removed after the tests.
var benchDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}
