package turbo_test

import (
	"fmt"
	"image"
	"os"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// New gives libjpeg-turbo when this build and machine have it, and the
// pure-Go decoder otherwise; a program need not care which.
func ExampleNew() {
	data, err := os.ReadFile("../testdata/images/cj_420.jpg")
	if err != nil {
		panic(err)
	}
	d := turbo.New(imagecodec.Options{}) // turbo.Available() says which
	// A 100x60 crop that will be resized to 50x30 or more: libjpeg-turbo
	// decodes it at half size, the pure-Go decoder at full size.
	img, scale, err := d.Decode(nil, "photo.jpg", data, imagecodec.Request{Crop: image.Rect(20, 30, 120, 90), Min: image.Pt(50, 30)})
	if err != nil {
		panic(err)
	}
	fmt.Println(img.Rect.Dx() >= 50 && img.Rect.Dy() >= 30, float64(img.Rect.Dx()) == 100*scale)
	// Output: true true
}
