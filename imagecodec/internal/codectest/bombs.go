package codectest

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/bombtest"
)

// Bombs checks that dec, a decoder with the default pixel limit, refuses
// each bomb of bombtest.All from its header, in Config and in Decode (of the
// whole image, of a crop at a reduced scale, oriented), with an error
// wrapping imagecodec.ErrTooLarge that names the data and the size claimed,
// each under bombtest.Capped: a decoder allocating what a header claims
// fails the test instead of killing the test binary.
func Bombs(t *testing.T, dec imagecodec.Decoder) {
	for _, b := range bombtest.All() {
		t.Run(b.Name, func(t *testing.T) {
			bombtest.Capped(t, func(t *testing.T) {
				if c, err := imagecodec.ReadConfig(b.Name, b.Data); err != nil || c.Width != b.Width || c.Height != b.Height {
					t.Fatalf("ReadConfig(%s) = %+v, %v: not the %dx%d header the bomb claims", b.Name, c, err, b.Width, b.Height)
				}
				size := fmt.Sprintf("%dx%d", b.Width, b.Height)
				check := func(what string, err error) {
					t.Helper()
					if !errors.Is(err, imagecodec.ErrTooLarge) || !strings.Contains(err.Error(), b.Name) || !strings.Contains(err.Error(), size) {
						t.Errorf("%s(%s) = %v, want an error wrapping ErrTooLarge naming %s and %s", what, b.Name, err, b.Name, size)
					}
				}
				_, err := dec.Config(b.Name, b.Data)
				check("Config", err)
				for _, req := range []imagecodec.Request{
					{},
					{Crop: image.Rect(1000, 1000, 9000, 9000), Min: image.Pt(224, 224)},
					{Orient: true},
				} {
					img, _, err := dec.Decode(nil, b.Name, b.Data, req)
					check(fmt.Sprintf("Decode with %+v", req), err)
					if img != nil {
						t.Errorf("Decode(%s) returned an image of %v", b.Name, img.Rect)
					}
				}
			})
		})
	}
}
