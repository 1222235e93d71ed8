package turbo_test

import (
	"fmt"
	"image"
	"testing"
	"time"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// BenchmarkScales decodes the benchmark set at every scale n/8 libjpeg-turbo
// has, alternating, and reports each one's images/s: the measurement behind
// the choice of scales (5/8 to 7/8 are slower than full size).
//
//	go test -run '^$' -bench Scales -benchtime 5x ./imagecodec/turbo/
func BenchmarkScales(b *testing.B) {
	if err := turbo.Available().Err; err != nil {
		b.Skip(err)
	}
	defer turbo.SetScales([]int{1, 2, 3, 4, 5, 6, 7})()
	set, err := benchSet()
	if err != nil {
		b.Fatal(err)
	}
	d := turbo.New(imagecodec.Options{})
	var dst *imagecodec.RGB
	tot := make([]time.Duration, 9)
	for b.Loop() {
		for n := 1; n <= 8; n++ {
			req := imagecodec.Request{Min: image.Pt(benchW*n/8, benchH*n/8)}
			t := time.Now()
			for _, data := range set {
				var s float64
				var err error
				if dst, s, err = d.Decode(dst, "x", data, req); err != nil || s != float64(n)/8 {
					b.Fatalf("Decode at %d/8: scale %v, %v", n, s, err)
				}
			}
			tot[n] += time.Since(t)
		}
	}
	for n := 1; n <= 8; n++ {
		b.ReportMetric(float64(b.N*len(set))/tot[n].Seconds(), fmt.Sprintf("n%d-images/s", n))
	}
}
