package augment

import (
	"errors"
	"image"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/internal/bombtest"
)

// TestApplyBombs: Apply refuses each bomb of bombtest (PNG of 100000x100000
// and 50000x50000, JPEG and GIF of 65535x65535, WebP of 16384x16384 and
// 16383x16383) with the decoder's ErrTooLarge, naming it, before allocating
// the buffer its header would size (3 x W x H x 1.25 bytes: 37.5 GB to
// 1 GB), with the address space capped 512 MiB above the test's: through
// torchvision's training and evaluation pipelines and an Affine step, with both
// decoders. The pipeline then augments a real image as before.
func TestApplyBombs(t *testing.T) {
	pipelines := map[string][]Step{
		"RandomResizedCrop": {RandomResizedCrop{Size: image.Pt(224, 224)}, RandomHorizontalFlip{}, ImageNet},
		"Resize+CenterCrop": {ExifTranspose{}, Resize{Size: 256}, CenterCrop{Size: image.Pt(224, 224)}, ImageNet},
		"Affine":            {warpStep(image.Pt(224, 224))},
	}
	decoders := map[string]imagecodec.Decoder{"pure Go": imagecodec.New(imagecodec.Options{}), "turbo.New": turbo.New(imagecodec.Options{})}
	good, err := os.ReadFile("testdata/chelsea_q95_444.jpg")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bombtest.All() {
		t.Run(b.Name, func(t *testing.T) {
			bombtest.Capped(t, func(t *testing.T) {
				for pname, steps := range pipelines {
					p := New(CHW, steps...)
					dst := make([]float32, p.Len())
					for dname, dec := range decoders {
						err := p.Apply(dst, dec, b.Name, b.Data, rand.New(rand.NewPCG(1, 2)))
						if !errors.Is(err, imagecodec.ErrTooLarge) || !strings.Contains(err.Error(), b.Name) {
							t.Errorf("%s, %s: Apply(%s) = %v, want an error wrapping imagecodec.ErrTooLarge naming it", pname, dname, b.Name, err)
						}
						if err := p.Apply(dst, dec, "chelsea_q95_444.jpg", good, rand.New(rand.NewPCG(1, 2))); err != nil {
							t.Errorf("%s, %s: after the bomb: %v", pname, dname, err)
						}
					}
				}
			})
		})
	}
}
