package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

const images = "../../imagecodec/testdata/images/"

func TestImageDecode(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		exif bool
		want imageDecoded
	}{
		{"cj_420.jpg", false, imageDecoded{Format: "JPEG", Width: 227, Height: 149, Orientation: 1}},
		{"exif_6.jpg", false, imageDecoded{Format: "JPEG", Width: 227, Height: 149, Orientation: 6}},
		{"exif_6.jpg", true, imageDecoded{Format: "JPEG", Width: 149, Height: 227, Orientation: 6}},
		{"gif_named.jpg", false, imageDecoded{Format: "GIF", Width: 227, Height: 149, Orientation: 1, Decoder: "pure Go"}},
		{"im_rgba16.png", false, imageDecoded{Format: "PNG", Width: 227, Height: 149, Orientation: 1, Decoder: "pure Go"}},
	} {
		path, out := images+tc.file, filepath.Join(dir, "out.npy")
		args := []string{"image", "decode", path, out}
		if tc.exif {
			args = []string{"image", "decode", "--exif", path, out}
		}
		status, stdout, stderr := run(args...)
		if status != 0 {
			t.Fatalf("obskit %s: status %d: %s", strings.Join(args, " "), status, stderr)
		}
		var got imageDecoded
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v", stdout, err)
		}
		tc.want.Path = path
		if tc.want.Decoder == "" {
			tc.want.Decoder = decoderName(imagecodec.JPEG)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("obskit image decode %s mismatch (-want +got):\n%s", tc.file, diff)
		}
		a, err := npy.Load[uint8](out, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		img, _, err := turbo.New(imagecodec.Options{}).Decode(nil, path, data, imagecodec.Request{Orient: tc.exif})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int{img.Rect.Dy(), img.Rect.Dx(), 3}, a.Shape()); diff != "" {
			t.Errorf("%s: shape mismatch (-want +got):\n%s", tc.file, diff)
		}
		if !bytes.Equal(a.Data(), img.Pix) {
			t.Errorf("%s: the .npy does not hold the decoded pixels", tc.file)
		}
	}
}

func TestImageDecodeErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.npy")
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"image", "decode", images + "bad_truncated.jpg", out}, 1, "bad_truncated.jpg: malformed image: JPEG: truncated"},
		{[]string{"image", "decode", images + "tiff_named.jpg", out}, 1, "tiff_named.jpg: unsupported image: TIFF"},
		{[]string{"image", "decode", images + "bad_huge_header.png", out}, 1, "bad_huge_header.png: image too large"},
		{[]string{"image", "decode", images + "nope.jpg", out}, 1, "nope.jpg: no such file"},
		{[]string{"image", "decode", images + "cj_420.jpg"}, 2, "want FILE and OUT.npy"},
		{[]string{"image", "decode", "-h"}, 0, "usage: obskit image decode [flags] FILE OUT.npy"},
	} {
		status, _, stderr := run(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit %s: status %d, stderr %q; want %d and %q", strings.Join(tc.args, " "), status, stderr, tc.status, tc.want)
		}
	}
}
