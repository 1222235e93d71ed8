package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

func init() {
	register(command{
		group: "image", name: "eval", args: "FILE OUT.npy",
		summary: "the deterministic evaluation transform as torchvision's PIL path computes it (Resize(S): the shorter side to S, antialiased; CenterCrop(C); ToTensor; Normalize when --mean and --std are given) into OUT.npy as float32 CHW; print one JSON object: path, shape, decoder",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			resize := fs.Int("resize", 0, "resize the shorter side to `S` pixels, the longer to int(S*long/short) (0: no resize)")
			crop := fs.String("crop", "", "crop the centre `C` pixels square, or HxW (required)")
			mean := fs.String("mean", "", "subtract the channel means `r,g,b` (in [0, 1] units, with --std)")
			std := fs.String("std", "", "divide by the channel standard deviations `r,g,b` (with --mean)")
			filter := fs.String("filter", "bilinear", "the resize filter: bilinear, bicubic, lanczos, box, hamming or nearest (Pillow's)")
			exif := fs.Bool("exif", false, "apply the EXIF orientation first (off by default, as in torchvision)")
			return func(e *env, args []string) error {
				return imageEval(e, args, evalFlags{*resize, *crop, *mean, *std, *filter, *exif})
			}
		},
	})
}

type evalFlags struct {
	resize          int
	crop, mean, std string
	filter          string
	exif            bool
}

// imageEvaluated is the JSON line of obskit image eval.
type imageEvaluated struct {
	Path    string `json:"path"`
	Shape   [3]int `json:"shape"`   // channels, height, width
	Decoder string `json:"decoder"` // "libjpeg-turbo" or "pure Go"
}

// steps returns the pipeline's steps of the flags, or a usage error: every
// value augment.New would panic with is refused here.
func (f evalFlags) steps() ([]augment.Step, error) {
	var steps []augment.Step
	if f.exif {
		steps = append(steps, augment.ExifTranspose{})
	}
	filter, err := augment.ParseFilter(f.filter)
	if err != nil || filter >= augment.CVNearest {
		return nil, usageErrorf("--filter %q: want bilinear, bicubic, lanczos, box, hamming or nearest", f.filter)
	}
	if f.resize < 0 {
		return nil, usageErrorf("--resize %d: want a size >= 1, or 0 for none", f.resize)
	}
	if f.resize > 0 {
		steps = append(steps, augment.Resize{Size: f.resize, Filter: filter})
	}
	if f.crop == "" {
		return nil, usageErrorf("--crop is required: every image of a batch has one size")
	}
	h, w, err := cropSize(f.crop)
	if err != nil {
		return nil, usageErrorf("--crop %q: %v", f.crop, err)
	}
	steps = append(steps, augment.CenterCrop{Size: image.Pt(w, h)})
	if (f.mean == "") != (f.std == "") {
		return nil, usageErrorf("--mean and --std go together")
	}
	if f.mean != "" {
		var n augment.Normalize
		if n.Mean, err = triple(f.mean); err != nil {
			return nil, usageErrorf("--mean %q: %v", f.mean, err)
		}
		if n.Std, err = triple(f.std); err != nil {
			return nil, usageErrorf("--std %q: %v", f.std, err)
		}
		if n.Std[0] == 0 || n.Std[1] == 0 || n.Std[2] == 0 {
			return nil, usageErrorf("--std %q: std %v has a zero", f.std, n.Std)
		}
		steps = append(steps, n)
	}
	return steps, nil
}

// cropSize parses "C" or "HxW".
func cropSize(s string) (h, w int, err error) {
	hs, ws, two := strings.Cut(s, "x")
	if !two {
		ws = hs
	}
	if h, err = strconv.Atoi(hs); err == nil {
		w, err = strconv.Atoi(ws)
	}
	if err != nil || h < 1 || w < 1 {
		return 0, 0, fmt.Errorf("want C or HxW, sizes >= 1")
	}
	return h, w, nil
}

// triple parses "a,b,c" as three float32.
func triple(s string) (v [3]float32, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return v, fmt.Errorf("want three numbers r,g,b")
	}
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 32)
		if err != nil {
			return v, err
		}
		v[i] = float32(f)
	}
	return v, nil
}

func imageEval(e *env, args []string, f evalFlags) error {
	if len(args) != 2 {
		return usageErrorf("want FILE and OUT.npy, got %d arguments", len(args))
	}
	steps, err := f.steps()
	if err != nil {
		return err
	}
	p := augment.New(augment.CHW, steps...)
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
	x := make([]float32, p.Len())
	// The transform draws nothing; Apply still takes a generator.
	if err := p.Apply(x, d, path, data, rand.New(rand.NewPCG(0, 0))); err != nil {
		return err
	}
	shape := p.Shape()
	a, err := arraycontainer.New(x, shape[:], obsdim.First)
	if err != nil {
		return err
	}
	if err := npy.Save(out, a); err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(imageEvaluated{path, shape, decoderName(cfg.Format)})
}
