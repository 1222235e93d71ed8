package provider_test

// MXNet's MNISTIter and CSVIter, parameter by parameter, as the guide's
// docs/from-mxnet.md maps them onto idx, csvdata, convert and provider: each
// subtest holds one row of that table (the page names them). MXNet's own
// behaviour is written out here from its source (src/io/iter_mnist.cc,
// iter_csv.cc, iter_batchloader.h) where the kit is compared with it.

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/convert"
	"github.com/obskit/obskit/csvdata"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/obsdim"
	"github.com/obskit/obskit/provider"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

const (
	digitImages = "../datasets/data/digits-images-idx3-ubyte" // 1,797 images of 8 x 8, MNIST's format
	digitLabels = "../datasets/data/digits-labels-idx1-ubyte"
)

// mnistParams are MNISTIter's parameters.
type mnistParams struct {
	image, label    string
	batchSize       int
	flat, shuffle   bool
	seed            uint64
	numParts, part  int
	prefetchBuffer  int
	onceShuffled    bool // shuffle as MXNet does, once for all epochs (subset.Shuffle)
	mxnetPartBounds bool // MXNet's part bounds instead of index.Part's
}

// mnistIter is MNISTIter in the kit: the table's mapping, row by row.
func mnistIter(t testing.TB, p mnistParams) *provider.Provider[float32, float32] {
	t.Helper()
	// image, label: the IDX files, memory-mapped.
	x, err := idx.Open[uint8](p.image, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	y, err := idx.Open[uint8](p.label, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	n, rows, cols := x.Shape()[0], x.Shape()[1], x.Shape()[2]
	// flat: [n, rows*cols]; otherwise [n, 1, rows, cols].
	shape := []int{n, 1, rows, cols}
	if p.flat {
		shape = []int{n, rows * cols}
	}
	if x, err = x.Reshape(shape, obsdim.First); err != nil {
		t.Fatal(err)
	}
	// MXNet's MNISTIter divides the pixels by 256, and serves float labels.
	var images arraycontainer.Batched[float32] = convert.Scale(x, float32(1.0/256), 0)
	var labels arraycontainer.Batched[float32] = convert.Scale(y, float32(1), 0)
	// num_parts, part_index: a part of the images, in file order.
	if p.numParts > 1 {
		pos := index.Part{Index: p.part, Parts: p.numParts}.Positions(n)
		if p.mxnetPartBounds {
			lo, hi := mxnetPart(n, p.numParts, p.part)
			pos = pos[:0]
			for i := lo; i < hi; i++ {
				pos = append(pos, i)
			}
		}
		images, labels = subset.Of(images, pos), subset.Of(labels, pos)
	}
	loop := []eachobs.Option{eachobs.Tail(index.Drop)} // MNISTIter serves full batches only
	if p.shuffle && p.onceShuffled {
		order := subset.Shuffle(images, rand.New(rand.NewPCG(p.seed, 0))).Indices()
		images, labels = subset.Of(images, order), subset.Of(labels, order)
	} else if p.shuffle {
		loop = append(loop, eachobs.Shuffle(p.seed))
	}
	if p.prefetchBuffer > 0 {
		loop = append(loop, eachobs.Prefetch(p.prefetchBuffer))
	}
	data, err := tuples.NewNamed([]string{"data"}, images)
	if err != nil {
		t.Fatal(err)
	}
	label, err := tuples.NewNamed([]string{"softmax_label"}, labels)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := provider.New(data, label, p.batchSize, provider.Loop(loop...))
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// mxnetPart is MNISTIter's GetPart: [count/parts*part, count/parts*(part+1))
// computed in double and truncated.
func mxnetPart(count, parts, part int) (lo, hi int) {
	return int(float64(count) / float64(parts) * float64(part)), int(float64(count) / float64(parts) * float64(part+1))
}

// mnistDefaults are MNISTIter's defaults over the digits (MXNet's default
// paths are ./train-images-idx3-ubyte and ./train-labels-idx1-ubyte).
func mnistDefaults() mnistParams {
	return mnistParams{image: digitImages, label: digitLabels, batchSize: 128, shuffle: true, numParts: 1}
}

type epochData struct {
	x, y   []float32
	xshape []int
	yshape []int
	idx    []int
}

func epochOf(p *provider.Provider[float32, float32], e int) []epochData {
	var out []epochData
	for b := range p.Epoch(e) {
		x, y := b.Data.X[0], b.Data.Y[0]
		out = append(out, epochData{slices.Clone(x.Data()), slices.Clone(y.Data()), x.Shape(), y.Shape(), slices.Clone(b.Indices)})
	}
	return out
}

func TestMNISTIter(t *testing.T) {
	raw, err := idx.Load[uint8](digitImages, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	rawLabels, err := idx.Load[uint8](digitLabels, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	pixels, classes := raw.Data(), rawLabels.Data()

	t.Run("image", func(t *testing.T) {
		p := mnistDefaults()
		p.shuffle = false
		b := epochOf(mnistIter(t, p), 0)[0]
		// MXNet: img_ *= 1.0f / 256.0f on the bytes.
		for k, v := range pixels[:128*64] {
			if b.x[k] != float32(v)*(1.0/256) {
				t.Fatalf("pixel %d: %v, want %d/256", k, b.x[k], v)
			}
		}
	})
	t.Run("label", func(t *testing.T) {
		p := mnistDefaults()
		p.shuffle = false
		b := epochOf(mnistIter(t, p), 0)[1]
		for k, v := range b.y {
			if v != float32(classes[128+k]) {
				t.Fatalf("label %d: %v, want %d", 128+k, v, classes[128+k])
			}
		}
		if !slices.Equal(b.yshape, []int{128}) {
			t.Errorf("label shape %v, want [128] (MXNet's provide_label for one label)", b.yshape)
		}
	})
	t.Run("flat", func(t *testing.T) {
		p := mnistDefaults()
		if got := mnistIter(t, p).ProvideData()[0].Shape; !slices.Equal(got, []int{128, 1, 8, 8}) {
			t.Errorf("flat false: data shape %v, want [128 1 8 8]", got)
		}
		p.flat = true
		if got := mnistIter(t, p).ProvideData()[0].Shape; !slices.Equal(got, []int{128, 64}) {
			t.Errorf("flat true: data shape %v, want [128 64]", got)
		}
	})
	t.Run("batch_size", func(t *testing.T) {
		// MXNet's Next serves full batches only: 1797 / 100 = 17.
		p := mnistDefaults()
		p.batchSize = 100
		if got := len(epochOf(mnistIter(t, p), 0)); got != 17 {
			t.Errorf("%d batches of 100 of 1,797 images, want 17", got)
		}
	})
	t.Run("shuffle", func(t *testing.T) {
		p := mnistDefaults()
		e0, e1 := epochOf(mnistIter(t, p), 0), epochOf(mnistIter(t, p), 1)
		if slices.IsSorted(e0[0].idx) || slices.Equal(e0[0].idx, e1[0].idx) {
			t.Errorf("shuffle: epochs 0 and 1 start %v and %v, want two shuffled orders", e0[0].idx[:5], e1[0].idx[:5])
		}
		// MXNet shuffles once, at load: every epoch in the same order.
		p.onceShuffled = true
		o0, o1 := epochOf(mnistIter(t, p), 0), epochOf(mnistIter(t, p), 1)
		if diff := cmp.Diff(o0, o1, cmp.AllowUnexported(epochData{})); diff != "" || slices.IsSorted(o0[0].y) {
			t.Errorf("shuffled once: epochs differ or are in order (-0 +1):\n%s", diff)
		}
		// Images and labels stay together.
		for _, b := range e0 {
			for k, i := range b.idx {
				if !slices.Equal(b.x[k*64:(k+1)*64], scaled(pixels[i*64:(i+1)*64])) || b.y[k] != float32(classes[i]) {
					t.Fatalf("shuffled: slot %d does not hold image %d and its label", k, i)
				}
			}
		}
		images := splitImages(pixels)
		for _, b := range o0 {
			for k, l := range b.y {
				img := b.x[k*64 : (k+1)*64]
				i := slices.IndexFunc(images, func(raw []uint8) bool { return slices.Equal(scaled(raw), img) })
				if i < 0 || float32(classes[i]) != l {
					t.Fatalf("shuffled once: slot %d holds label %v beside an image of another label", k, l)
				}
			}
		}
	})
	t.Run("seed", func(t *testing.T) {
		p := mnistDefaults()
		p.seed = 3
		a, b := epochOf(mnistIter(t, p), 0), epochOf(mnistIter(t, p), 0)
		if diff := cmp.Diff(a, b, cmp.AllowUnexported(epochData{})); diff != "" {
			t.Errorf("seed 3 twice: epochs differ (-a +b):\n%s", diff)
		}
		p.seed = 4
		if slices.Equal(a[0].idx, epochOf(mnistIter(t, p), 0)[0].idx) {
			t.Errorf("seeds 3 and 4: the same order")
		}
	})
	t.Run("num_parts", func(t *testing.T) {
		// index.Part: 1797 in 4 parts is 450, 449, 449, 449, every image once;
		// MXNet's bounds give 449, 449, 449, 450.
		var sizes, mxnetSizes []int
		for part := range 4 {
			p := mnistDefaults()
			p.shuffle, p.batchSize, p.numParts, p.part = false, 1, 4, part
			n := len(epochOf(mnistIter(t, p), 0))
			sizes = append(sizes, n)
			p.mxnetPartBounds = true
			mxnetSizes = append(mxnetSizes, len(epochOf(mnistIter(t, p), 0)))
		}
		if !slices.Equal(sizes, []int{450, 449, 449, 449}) || !slices.Equal(mxnetSizes, []int{449, 449, 449, 450}) {
			t.Errorf("part sizes %v (MXNet's bounds %v), want [450 449 449 449] ([449 449 449 450])", sizes, mxnetSizes)
		}
	})
	t.Run("part_index", func(t *testing.T) {
		// Part 2 of 4 is images 899 to 1347 in order: its first batch holds
		// image 899.
		p := mnistDefaults()
		p.shuffle, p.batchSize, p.numParts, p.part = false, 1, 4, 2
		b := epochOf(mnistIter(t, p), 0)[0]
		if !slices.Equal(b.x, scaled(pixels[899*64:900*64])) {
			t.Errorf("part 2 of 4 does not start with image 899")
		}
	})
	t.Run("silent", func(t *testing.T) {
		// The kit prints nothing: MXNet's silent=True.
		out := captured(t, func() { epochOf(mnistIter(t, mnistDefaults()), 0) })
		if out != "" {
			t.Errorf("printed %q, want nothing", out)
		}
	})
	t.Run("prefetch_buffer", func(t *testing.T) {
		p := mnistDefaults()
		serial := epochOf(mnistIter(t, p), 1)
		p.prefetchBuffer = 4
		if diff := cmp.Diff(serial, epochOf(mnistIter(t, p), 1), cmp.AllowUnexported(epochData{})); diff != "" {
			t.Errorf("prefetch 4: batches differ from the serial loop's (-want +got):\n%s", diff)
		}
	})
}

func scaled(raw []uint8) []float32 {
	out := make([]float32, len(raw))
	for k, v := range raw {
		out[k] = float32(v) * (1.0 / 256)
	}
	return out
}

func splitImages(pixels []uint8) [][]uint8 {
	var out [][]uint8
	for i := 0; i+64 <= len(pixels); i += 64 {
		out = append(out, pixels[i:i+64])
	}
	return out
}

// captured runs f and returns what it wrote to os.Stdout and os.Stderr.
func captured(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	f()
	os.Stdout, os.Stderr = stdout, stderr
	w.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// csvParams are CSVIter's parameters.
type csvParams struct {
	dataCSV    string
	dataShape  []int
	labelCSV   string // "NULL": none
	labelShape []int
	batchSize  int
	roundBatch bool
	prefetch   int
}

// csvIter is CSVIter in the kit: the table's mapping, row by row.
func csvIter(t testing.TB, p csvParams) *provider.Provider[float32, float32] {
	t.Helper()
	// data_csv: a CSV file without a header line; data_shape: each line's
	// shape.
	tab, err := csvdata.Load[float32](p.dataCSV, csvdata.Options{NoHeader: true})
	if err != nil {
		t.Fatal(err)
	}
	n := tab.X.Nobs()
	x, err := tab.X.Reshape(append([]int{n}, p.dataShape...), obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	// label_csv, label_shape; "NULL" serves zeros. A label shape of (1,)
	// gives labels of shape [batch], as MXNet's provide_label says.
	lshape := []int{n}
	if !slices.Equal(p.labelShape, []int{1}) {
		lshape = append(lshape, p.labelShape...)
	}
	var y *arraycontainer.Array[float32]
	if p.labelCSV == "NULL" {
		y, err = arraycontainer.Zeros[float32](lshape, obsdim.First)
	} else {
		var lt *csvdata.Table[float32]
		if lt, err = csvdata.Load[float32](p.labelCSV, csvdata.Options{NoHeader: true}); err == nil {
			y, err = lt.X.Reshape(lshape, obsdim.First)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := tuples.NewNamed([]string{"data"}, x)
	if err != nil {
		t.Fatal(err)
	}
	label, err := tuples.NewNamed([]string{"softmax_label"}, y)
	if err != nil {
		t.Fatal(err)
	}
	var loop []eachobs.Option
	if p.prefetch > 0 {
		loop = append(loop, eachobs.Prefetch(p.prefetch))
	}
	// round_batch: the last batch filled from the start, its Pad() counting
	// the filled slots; otherwise zeros, counted the same way.
	opts := []provider.Option{provider.Loop(loop...), provider.PadWith(0)}
	if p.roundBatch {
		opts = []provider.Option{provider.Loop(append(loop, eachobs.Tail(index.Pad))...)}
	}
	pr, err := provider.New(data, label, p.batchSize, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestCSVIter(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// MXNet's documentation's file: 4 rows of 3 numbers.
	data := write("data.csv", "1,2,3\n2,3,4\n3,4,5\n4,5,6\n")
	labels := write("label.csv", "10\n20\n30\n40\n")
	defaults := func() csvParams {
		return csvParams{dataCSV: data, dataShape: []int{3}, labelCSV: "NULL", labelShape: []int{1}, batchSize: 2, roundBatch: true}
	}

	t.Run("data_csv", func(t *testing.T) {
		b := epochOf(csvIter(t, defaults()), 0)
		want := []epochData{
			{x: []float32{1, 2, 3, 2, 3, 4}, y: []float32{0, 0}, xshape: []int{2, 3}, yshape: []int{2}, idx: []int{0, 1}},
			{x: []float32{3, 4, 5, 4, 5, 6}, y: []float32{0, 0}, xshape: []int{2, 3}, yshape: []int{2}, idx: []int{2, 3}},
		}
		if diff := cmp.Diff(want, b, cmp.AllowUnexported(epochData{})); diff != "" {
			t.Errorf("batches mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("data_shape", func(t *testing.T) {
		// MXNet's example: a row 1,2,3,4,5,6 with data_shape (3,2) is
		// [[1,2],[3,4],[5,6]].
		p := defaults()
		p.dataCSV, p.dataShape, p.batchSize = write("six.csv", "1,2,3,4,5,6\n"), []int{3, 2}, 1
		b := epochOf(csvIter(t, p), 0)[0]
		if !slices.Equal(b.xshape, []int{1, 3, 2}) || !slices.Equal(b.x, []float32{1, 2, 3, 4, 5, 6}) {
			t.Errorf("data_shape (3,2): batch %v of shape %v", b.x, b.xshape)
		}
	})
	t.Run("label_csv", func(t *testing.T) {
		p := defaults()
		p.labelCSV = labels
		if got := epochOf(csvIter(t, p), 0)[1].y; !slices.Equal(got, []float32{30, 40}) {
			t.Errorf("labels %v, want [30 40]", got)
		}
	})
	t.Run("label_shape", func(t *testing.T) {
		p := defaults()
		p.labelCSV, p.labelShape = write("pairs.csv", "1,2\n3,4\n5,6\n7,8\n"), []int{2}
		b := epochOf(csvIter(t, p), 0)[0]
		if !slices.Equal(b.yshape, []int{2, 2}) || !slices.Equal(b.y, []float32{1, 2, 3, 4}) {
			t.Errorf("label_shape (2,): labels %v of shape %v", b.y, b.yshape)
		}
	})
	t.Run("batch_size", func(t *testing.T) {
		p := defaults()
		p.batchSize = 3
		if got := csvIter(t, p).ProvideData()[0].Shape; !slices.Equal(got, []int{3, 3}) {
			t.Errorf("data shape %v, want [3 3]", got)
		}
	})
	t.Run("round_batch", func(t *testing.T) {
		// MXNet's documentation: batch_size 3, round_batch True gives
		// [1 2 3][2 3 4][3 4 5], then [4 5 6][1 2 3][2 3 4] with pad 2.
		p := defaults()
		p.batchSize = 3
		b := epochOf(csvIter(t, p), 0)
		pr := csvIter(t, p)
		var pads []int
		for bb := range pr.Epoch(0) {
			pads = append(pads, bb.Pad())
		}
		if !slices.Equal(b[1].x, []float32{4, 5, 6, 1, 2, 3, 2, 3, 4}) || !slices.Equal(pads, []int{0, 2}) {
			t.Errorf("round_batch: last batch %v, pads %v", b[1].x, pads)
		}
		// round_batch False: MXNet leaves the previous batch's rows in the
		// padding; the kit zeros, with the same Pad().
		p.roundBatch = false
		b = epochOf(csvIter(t, p), 0)
		if !slices.Equal(b[1].x, []float32{4, 5, 6, 0, 0, 0, 0, 0, 0}) {
			t.Errorf("round_batch false: last batch %v, want the row and zeros", b[1].x)
		}
	})
	t.Run("prefetch_buffer", func(t *testing.T) {
		p := defaults()
		serial := epochOf(csvIter(t, p), 0)
		p.prefetch = 4
		if diff := cmp.Diff(serial, epochOf(csvIter(t, p), 0), cmp.AllowUnexported(epochData{})); diff != "" {
			t.Errorf("prefetch 4: batches differ (-want +got):\n%s", diff)
		}
	})
}
