package mxnet

import (
	"errors"
	"strings"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/internal/bombtest"
)

// TestImageRecordIterBombs: a bomb of bombtest (PNG of 100000x100000 and
// 50000x50000, JPEG and GIF of 65535x65535, WebP of 16384x16384 and
// 16383x16383) as record 2 of 5 photos is refused from its header with
// imagecodec.ErrTooLarge, with the address space capped 512 MiB above the
// test's: without Skip an epoch stops with a *container.PanicError wrapping
// imagedata.ErrRead and ErrTooLarge that names the file; with Skip every
// epoch serves 5 images, the bomb replaced by record 3, of its label.
func TestImageRecordIterBombs(t *testing.T) {
	for _, b := range bombtest.All() {
		t.Run(b.Name, func(t *testing.T) {
			bombtest.Capped(t, func(t *testing.T) {
				rec := packIter(t, 5, 1, func(k int) []byte {
					if k == 2 {
						return b.Data
					}
					return nil
				})
				tooLarge := func(what string, err error) {
					t.Helper()
					if !errors.Is(err, imagedata.ErrRead) || !errors.Is(err, imagecodec.ErrTooLarge) || !strings.Contains(err.Error(), rec) {
						t.Errorf("%s: %v, want an error wrapping imagedata.ErrRead and imagecodec.ErrTooLarge naming %s", what, err, rec)
					}
				}
				it := iterOf(rec, 2)
				it.PreprocessThreads = 2
				p, err := it.Provider()
				if err != nil {
					t.Fatal(err)
				}
				err = panicked(func() {
					for range p.Epoch(0) {
					}
				})
				var pe *container.PanicError
				if !errors.As(err, &pe) {
					t.Errorf("an epoch panics with %v, want a *container.PanicError", err)
				}
				tooLarge("an epoch", err)
				// A bomb first: Provider, which decodes the first image for
				// the batches' shape, returns the error.
				first := packIter(t, 2, 1, func(k int) []byte {
					if k == 0 {
						return b.Data
					}
					return nil
				})
				if _, err := iterOf(first, 2).Provider(); !errors.Is(err, imagecodec.ErrTooLarge) {
					t.Errorf("a bomb first: Provider() = %v, want ErrTooLarge", err)
				}
				it.Skip = new(imagedata.Skips)
				if p, err = it.Provider(); err != nil {
					t.Fatal(err)
				}
				for e := range 2 {
					n := 0
					for bt := range p.Epoch(e) {
						n += bt.Real
					}
					if n != 5 {
						t.Errorf("with Skip: epoch %d served %d images, want 5", e, n)
					}
				}
				if got := it.Skip.Images(); it.Skip.Count() != 2 || len(got) != 1 || got[0].Index != 2 || got[0].With != 3 {
					t.Errorf("with Skip: %d skips, %+v: want image 2 (with 3) in each of 2 epochs", it.Skip.Count(), got)
				} else {
					tooLarge("the skip", got[0].Err)
				}
			})
		})
	}
}
