package turbo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
)

// TestAvailablePrints: Available, printed, says which decoder New returns
// (found by decoding an arithmetic-coded JPEG, which only libjpeg-turbo
// reads) and, for libjpeg-turbo, the library loaded, or, for the pure-Go
// decoder, why. It used to print <nil> when libjpeg-turbo was there. make
// test runs it again with CGO_ENABLED=0.
func TestAvailablePrints(t *testing.T) {
	got := fmt.Sprint(turbo.Available())
	_, _, err := turbo.New(imagecodec.Options{}).Decode(nil, "a.jpg", read(t, "cj_arithmetic.jpg"), imagecodec.Request{})
	want := "libjpeg-turbo (libjpeg.so."
	if err != nil {
		want = "pure Go for every format: turbo: libjpeg-turbo unavailable: "
	}
	if !strings.HasPrefix(got, want) {
		t.Errorf("Available() prints %q, want %q...", got, want)
	}
	t.Log(got)
}
