package objstore_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

var imageBytes = flag.Int64("objstore.imagebytes", 256<<20, "the JPEG bytes of BenchmarkImages's image shards")

// imageShards packs JPEGs made from the repository's photographs into tar
// shards of 16 MiB in dst until they hold -objstore.imagebytes of images,
// and returns the manifest and the count. The images are ImageNet-like:
// random crops of 40% to 100% of a photograph's area, four in five
// landscape (width over height in [4/3, 16/9]) and the others portrait,
// resized (bilinear) so that the longer side is 450 to 550, encoded at
// quality 90 by Go's encoder; each sample holds the JPEG ("jpg") and a class
// ("cls", 0-9).
func imageShards(b *testing.B, dst shard.Store) (*shard.Manifest, int) {
	b.Helper()
	var photos []*imagecodec.RGB
	for _, name := range []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"} {
		data, err := os.ReadFile(filepath.Join("../augment/testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		img, _, err := imagecodec.New(imagecodec.Options{}).Decode(nil, name, data, imagecodec.Request{})
		if err != nil {
			b.Fatal(err)
		}
		photos = append(photos, img)
	}
	rng := rand.New(rand.NewPCG(29, 7))
	n := 0
	samples := func(yield func(shard.Sample, error) bool) {
		var small *imagecodec.RGB
		var jb bytes.Buffer
		for total := int64(0); total < *imageBytes; n++ {
			src := photos[n%len(photos)]
			sw, sh := src.Rect.Dx(), src.Rect.Dy()
			ratio := 4.0/3 + rng.Float64()*(16.0/9-4.0/3)
			if rng.IntN(5) == 0 {
				ratio = 1 / ratio
			}
			area := float64(sw*sh) * (0.4 + 0.6*rng.Float64())
			w := min(sw, int(math.Sqrt(area*ratio)))
			h := min(sh, int(float64(w)/ratio))
			x0, y0 := rng.IntN(sw-w+1), rng.IntN(sh-h+1)
			long := 450 + rng.IntN(101)
			out := image.Pt(long, max(1, long*h/w))
			if h > w {
				out = image.Pt(max(1, long*w/h), long)
			}
			crop := src.SubImage(image.Rect(x0, y0, x0+w, y0+h)).(*imagecodec.RGB)
			small = augment.Bilinear.Resize(small, crop, out)
			rgba := image.NewRGBA(small.Rect)
			for k := range out.X * out.Y {
				copy(rgba.Pix[4*k:4*k+3], small.Pix[3*k:3*k+3])
				rgba.Pix[4*k+3] = 255
			}
			jb.Reset()
			if err := jpeg.Encode(&jb, rgba, &jpeg.Options{Quality: 90}); err != nil {
				yield(shard.Sample{}, err)
				return
			}
			total += int64(jb.Len())
			s := shard.Sample{Key: fmt.Sprintf("%07d", n), Fields: []shard.Field{
				{Name: "jpg", Data: jb.Bytes()}, {Name: "cls", Data: []byte(strconv.Itoa(n % 10))}}}
			if !yield(s, nil) {
				return
			}
		}
	}
	m, err := shard.Pack(dst, "set/manifest.json", "set/s", samples, shard.PackOptions{ShardBytes: 16 << 20})
	if err != nil {
		b.Fatal(err)
	}
	return m, n
}

// BenchmarkImages is the image target of issue 29: an epoch of the image
// pipeline (decode, RandomResizedCrop to 224, a random horizontal flip,
// ImageNet's normalization into CHW float32; libjpeg-turbo where the build
// has it; batches of 64, 2 workers, ShuffleBlocks(1, 2)) over the jpg
// field and labels of image shards (-objstore.imagebytes, 256 MiB of JPEGs
// near 500x375, about 6,600 of 42 KB, in 17 tar shards of 16 MiB), from:
//
//   - disk: the local copy, its page cache dropped (posix_fadvise
//     DONTNEED);
//   - pagecache: the local copy again, now in the page cache (the epoch's
//     bound by the pipeline alone, for reading the others; no target);
//   - s3cold: the S3 server on loopback through a Cache with an empty
//     directory, the manifest's checksums and a read-ahead of 4 shards,
//     4 fetches at a time (the reader reads by ranges what has not landed);
//   - s3warm: the same cache again, its copies (just written) all there;
//   - s3cold20ms: s3cold with a new cache, through a proxy adding 20 ms to
//     every request.
//
// It reports each one's images/s, MB/s of shard bytes and time to the first
// batch, and the ratios of epoch times, all from one run:
// x-cold/disk (target >= 0.8), x-warm/disk (>= 0.95) and x-20ms/0ms, the
// epoch with 20 ms per request against s3cold (>= 0.8). MB-ranged-cold and
// MB-ranged-cold20ms are what the cold epochs read by ranges before the
// copies landed (mostly the first window of shards), each such read one
// request. It fails if
// the warm epoch sends a GET to the server (it sends one HEAD, for the
// manifest's version). An untimed epoch from the local copy first warms the
// decoders for all sides. The set is made and uploaded once (one to two
// minutes on two cores); each iteration of the sub-benchmark workers=2,
// which -count repeats, reads five epochs of it.
func BenchmarkImages(b *testing.B) {
	srv := s3test.Shared(b)
	prefix := s3test.Prefix(b)
	dir := b.TempDir()
	local := shard.Dir(dir)
	start := time.Now()
	m, nImages := imageShards(b, local)
	var setBytes int64
	for _, sh := range m.Shards {
		for _, f := range sh.Files {
			setBytes += f.Bytes
		}
	}
	bucket := srv.NewBucket(b, prefix)
	for _, name := range append(namesOf(m), "set/manifest.json") {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			b.Fatal(err)
		}
		put(b, bucket, name, data)
	}
	b.Logf("%d images, %d shards, %.1f MB, made and uploaded in %v; decoder: libjpeg-turbo %v",
		nImages, len(m.Shards), float64(setBytes)/1e6, time.Since(start).Round(time.Second), turbo.Available())
	proxy, err := s3test.NewProxy(strings.TrimPrefix(srv.Endpoint, "http://"))
	if err != nil {
		b.Fatal(err)
	}
	defer proxy.Close()
	proxy.SetLatency(20 * time.Millisecond)
	slowCfg := srv.Config()
	slowCfg.Endpoint = proxy.Endpoint
	slow, err := objstore.New(slowCfg)
	if err != nil {
		b.Fatal(err)
	}
	p := augment.New(augment.CHW, augment.RandomResizedCrop{Size: image.Pt(224, 224)}, augment.RandomHorizontalFlip{}, augment.ImageNet)
	dec := turbo.New(imagecodec.Options{})
	limit := 2*setBytes + 64<<20
	// epoch runs an epoch over store (with a read-ahead into cache when not
	// nil) and returns its time and the time to its first batch.
	epoch := func(b *testing.B, store shard.Store, cache *objstore.Cache) (total, first time.Duration) {
		start := time.Now()
		set, err := shard.Open(store, "set/manifest.json", shard.MaxOpen(8))
		if err != nil {
			b.Fatal(err)
		}
		defer set.Close()
		if cache != nil {
			cache.ExpectSet(set.Manifest(), "set/manifest.json")
			order := index.NewBlocksAt(set.BlockStarts(), 2, 1, 0)
			ra := cache.ReadAheadSet(set.Manifest(), "set/manifest.json", index.Upcoming(order.At, set.BlockStarts(), 0, 1), 4, 4)
			defer ra.Stop()
		}
		labeled, err := shard.LabeledField(set, "jpg")
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for batch := range eachobs.Batches(imagedata.Decode(labeled, p, dec), 64, eachobs.ShuffleBlocks(1, 2), eachobs.Workers(2)) {
			if n == 0 {
				first = time.Since(start)
			}
			n += len(batch.Data.Y)
		}
		if n != nImages {
			b.Fatalf("an epoch of %d images, want %d", n, nImages)
		}
		return time.Since(start), first
	}
	epoch(b, local, nil)
	b.Run("workers=2", func(b *testing.B) {
		var tDisk, tPage, tCold, tWarm, tSlow, fDisk, fPage, fCold, fWarm, fSlow time.Duration
		var ranged, rangedSlow int64
		for b.Loop() {
			dropCacheOf(dir)
			t, f := epoch(b, local, nil)
			tDisk, fDisk = tDisk+t, fDisk+f
			t, f = epoch(b, local, nil)
			tPage, fPage = tPage+t, fPage+f

			cache, err := objstore.NewCache(bucket, b.TempDir(), limit)
			if err != nil {
				b.Fatal(err)
			}
			t, f = epoch(b, cache, cache)
			tCold, fCold = tCold+t, fCold+f
			ranged += cache.Stats().RangedBytes.Load()
			// The last fetches ahead may still be landing: the warm epoch
			// starts with every shard, index and the manifest copied.
			for deadline := time.Now().Add(time.Minute); cache.Stats().Fetched.Load() < int64(2*len(m.Shards)+1); {
				if time.Now().After(deadline) {
					b.Fatalf("%d copies fetched a minute after the cold epoch, want %d (shards, indexes, manifest)", cache.Stats().Fetched.Load(), 2*len(m.Shards)+1)
				}
				time.Sleep(10 * time.Millisecond)
			}
			gets := bucket.Stats().Gets.Load()
			t, f = epoch(b, cache, cache)
			tWarm, fWarm = tWarm+t, fWarm+f
			if more := bucket.Stats().Gets.Load() - gets; more != 0 {
				b.Fatalf("the warm epoch sent %d GETs to the server, want 0 (every copy in the cache)", more)
			}
			cache.Close()

			sc, err := objstore.NewCache(slow.Bucket(srv.Bucket, prefix), b.TempDir(), limit)
			if err != nil {
				b.Fatal(err)
			}
			t, f = epoch(b, sc, sc)
			tSlow, fSlow = tSlow+t, fSlow+f
			rangedSlow += sc.Stats().RangedBytes.Load()
			sc.Close()
		}
		ips := func(t time.Duration) float64 { return float64(nImages) * float64(b.N) / t.Seconds() }
		mbs := func(t time.Duration) float64 { return float64(setBytes) * float64(b.N) / 1e6 / t.Seconds() }
		ms := func(t time.Duration) float64 { return t.Seconds() * 1e3 / float64(b.N) }
		for _, side := range []struct {
			name        string
			total, frst time.Duration
		}{{"disk", tDisk, fDisk}, {"pagecache", tPage, fPage}, {"s3cold", tCold, fCold}, {"s3warm", tWarm, fWarm}, {"s3cold20ms", tSlow, fSlow}} {
			b.ReportMetric(ips(side.total), "images/s-"+side.name)
			b.ReportMetric(mbs(side.total), "MB/s-"+side.name)
			b.ReportMetric(ms(side.frst), "ms-first-"+side.name)
		}
		b.ReportMetric(tDisk.Seconds()/tCold.Seconds(), "x-cold/disk")
		b.ReportMetric(tDisk.Seconds()/tWarm.Seconds(), "x-warm/disk")
		b.ReportMetric(tCold.Seconds()/tSlow.Seconds(), "x-20ms/0ms")
		b.ReportMetric(float64(ranged)/1e6/float64(b.N), "MB-ranged-cold")
		b.ReportMetric(float64(rangedSlow)/1e6/float64(b.N), "MB-ranged-cold20ms")
	})
}

// namesOf lists the files and indexes of a set's shards, as the store
// names them (under set/).
func namesOf(m *shard.Manifest) []string {
	var out []string
	for _, sh := range m.Shards {
		for _, f := range sh.Files {
			out = append(out, "set/"+f.Name)
		}
		out = append(out, "set/"+sh.Index.Name)
	}
	return out
}
