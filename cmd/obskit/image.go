package main

import (
	"encoding/json"
	"flag"
	"os"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

func init() {
	register(command{
		group: "image", name: "decode", args: "FILE OUT.npy",
		summary: "decode an image as the loader sees it (JPEG, PNG, GIF or WebP, found by content) and write its pixels to OUT.npy as HWC uint8 RGB; print one JSON object: path, format, width, height, orientation, decoder",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			exif := fs.Bool("exif", false, "apply the EXIF orientation (off by default, as in Pillow and torchvision)")
			return func(e *env, args []string) error { return imageDecode(e, args, *exif) }
		},
	})
}

// imageDecoded is the JSON line of obskit image decode.
type imageDecoded struct {
	Path        string `json:"path"`
	Format      string `json:"format"`
	Width       int    `json:"width"`  // of the pixels written, oriented with --exif
	Height      int    `json:"height"` // idem
	Orientation int    `json:"orientation"`
	Decoder     string `json:"decoder"` // "libjpeg-turbo" or "pure Go"
}

// decoderName says which decoder d decodes JPEGs with.
func decoderName(format imagecodec.Format) string {
	if format == imagecodec.JPEG && turbo.Available().Turbo() {
		return "libjpeg-turbo"
	}
	return "pure Go"
}

func imageDecode(e *env, args []string, exif bool) error {
	if len(args) != 2 {
		return usageErrorf("want FILE and OUT.npy, got %d arguments", len(args))
	}
	path, out := args[0], args[1]
	data, err := os.ReadFile(path)
	if err != nil {
		return err // names the file
	}
	d := turbo.New(imagecodec.Options{})
	cfg, err := d.Config(path, data)
	if err != nil {
		return err
	}
	img, _, err := d.Decode(nil, path, data, imagecodec.Request{Orient: exif})
	if err != nil {
		return err
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	a, err := arraycontainer.New(img.Pix, []int{h, w, 3}, obsdim.First)
	if err != nil {
		return err
	}
	if err := npy.Save(out, a); err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(imageDecoded{path, cfg.Format.String(), w, h, int(cfg.Orientation), decoderName(cfg.Format)})
}
