package imagecodec_test

import (
	"fmt"
	"image"
	"os"

	"github.com/obskit/obskit/imagecodec"
)

// A decoder reads the header, then decodes a crop into a reused image.
func ExampleNew() {
	data, err := os.ReadFile("testdata/images/exif_6.jpg")
	if err != nil {
		panic(err)
	}
	d := imagecodec.New(imagecodec.Options{})
	cfg, err := d.Config("exif_6.jpg", data)
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Format, cfg.Width, cfg.Height, "orientation", cfg.Orientation, "displayed", cfg.Size(true))

	var buf *imagecodec.RGB // kept across decodes: no allocation once it is big enough
	req := imagecodec.Request{Crop: image.Rect(10, 20, 110, 70), Orient: true}
	buf, scale, err := d.Decode(buf, "exif_6.jpg", data, req)
	if err != nil {
		panic(err)
	}
	fmt.Println(buf.Rect, "at scale", scale, len(buf.Pix), "bytes")
	// Output:
	// JPEG 227 149 orientation 6 displayed (149,227)
	// (10,20)-(110,70) at scale 1 15000 bytes
}
