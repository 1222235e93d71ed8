package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagecodec/turbo"
	"github.com/obskit/obskit/internal/pypeer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

const augmentData = "../../augment/testdata/"

// TestImageEval checks obskit image eval's output against the pipeline it
// runs, with and without Normalize and with a non-square crop.
func TestImageEval(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args  []string
		steps []augment.Step
		shape [3]int
	}{
		{[]string{"--resize", "64", "--crop", "56", "--mean", "0.485,0.456,0.406", "--std", "0.229,0.224,0.225"},
			[]augment.Step{augment.Resize{Size: 64}, augment.CenterCrop{Size: pt(56, 56)}, augment.ImageNet}, [3]int{3, 56, 56}},
		{[]string{"--resize", "40", "--crop", "30x50", "--filter", "bicubic"},
			[]augment.Step{augment.Resize{Size: 40, Filter: augment.Bicubic}, augment.CenterCrop{Size: pt(50, 30)}}, [3]int{3, 30, 50}},
	} {
		path, out := augmentData+"coffee_q85_422.jpg", filepath.Join(dir, "out.npy")
		args := append(append([]string{"image", "eval"}, tc.args...), path, out)
		status, stdout, stderr := run(args...)
		if status != 0 {
			t.Fatalf("obskit %s: status %d: %s", strings.Join(args, " "), status, stderr)
		}
		var got imageEvaluated
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v", stdout, err)
		}
		want := imageEvaluated{Path: path, Shape: tc.shape, Decoder: decoderName(imagecodec.JPEG)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("obskit %s mismatch (-want +got):\n%s", strings.Join(tc.args, " "), diff)
		}
		a, err := npy.Load[float32](out, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		p := augment.New(augment.CHW, tc.steps...)
		data, _ := os.ReadFile(path)
		x := make([]float32, p.Len())
		if err := p.Apply(x, turbo.New(imagecodec.Options{}), path, data, rand.New(rand.NewPCG(1, 1))); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Data(), x) || !slices.Equal(a.Shape(), tc.shape[:]) {
			t.Errorf("obskit %s: the .npy (shape %v) does not hold the pipeline's floats", strings.Join(tc.args, " "), a.Shape())
		}
	}
}

// TestImageEvalTorchvision runs torchvision's evaluation transform on the
// photographs and compares: equal to the last bit when the decoder is
// libjpeg-turbo (Pillow's own), within 2 levels of 255 otherwise. It skips
// when /usr/bin/python3 (or PYTHON) has no torchvision.
func TestImageEvalTorchvision(t *testing.T) {
	if err := pypeer.Has("torchvision"); err != nil {
		t.Skipf("torchvision is not installed (apt-get install python3-torchvision): %v", err)
	}
	dir := t.TempDir()
	names := []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"}
	// One Python process for every image: importing torch is the slow part.
	const script = `
import sys, numpy as np, torchvision.transforms as T
from PIL import Image
t = T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor(), T.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])])
for src, dst in zip(sys.argv[1::2], sys.argv[2::2]):
    np.save(dst, t(Image.open(src).convert("RGB")).numpy())
`
	pyArgs := []string{"-c", script}
	for i, name := range names {
		pyArgs = append(pyArgs, augmentData+name, filepath.Join(dir, fmt.Sprintf("theirs%d.npy", i)))
	}
	if out, err := exec.Command(pypeer.Python(), pyArgs...).CombinedOutput(); err != nil {
		t.Fatalf("torchvision: %v: %s", err, out)
	}
	for i, name := range names {
		path := augmentData + name
		ours, theirs := filepath.Join(dir, "ours.npy"), filepath.Join(dir, fmt.Sprintf("theirs%d.npy", i))
		if status, _, stderr := run("image", "eval", "--resize", "256", "--crop", "224", "--mean", "0.485,0.456,0.406", "--std", "0.229,0.224,0.225", path, ours); status != 0 {
			t.Fatalf("obskit image eval %s: %s", name, stderr)
		}
		a, err := npy.Load[float32](ours, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		b, err := npy.Load[float32](theirs, obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Shape(), b.Shape()) {
			t.Fatalf("%s: shape %v, torchvision's %v", name, a.Shape(), b.Shape())
		}
		worst := 0.0
		for i, v := range a.Data() {
			worst = max(worst, math.Abs(float64(v-b.Data()[i])))
		}
		// A level of 255 is 1/(255*std) in normalized units: at most 0.0175.
		levels := worst * 0.229 * 255
		t.Logf("%s: largest difference %.3g (%.2f levels)", name, worst, levels)
		if turbo.Available().Turbo() && worst != 0 {
			t.Errorf("%s: differs from torchvision by %.3g with libjpeg-turbo, want 0", name, worst)
		}
		if levels > 2.01 {
			t.Errorf("%s: differs from torchvision by %.2f levels, want <= 2", name, levels)
		}
	}
}

func TestImageEvalErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.npy")
	jpg := augmentData + "chelsea_q95_444.jpg"
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"image", "eval", "--resize", "64", jpg, out}, 2, "--crop is required"},
		{[]string{"image", "eval", "--crop", "0", jpg, out}, 2, `--crop "0": want C or HxW`},
		{[]string{"image", "eval", "--crop", "8", "--mean", "0.5,0.5", "--std", "1,1,1", jpg, out}, 2, "want three numbers"},
		{[]string{"image", "eval", "--crop", "8", "--mean", "0.5,0.5,0.5", jpg, out}, 2, "--mean and --std go together"},
		{[]string{"image", "eval", "--crop", "8", "--std", "0,1,1", "--mean", "0,0,0", jpg, out}, 2, "std [0 1 1] has a zero"},
		{[]string{"image", "eval", "--crop", "8", "--filter", "cv-area", jpg, out}, 2, `--filter "cv-area"`},
		{[]string{"image", "eval", "--crop", "8", "../../imagecodec/testdata/images/bad_truncated.jpg", out}, 1, "bad_truncated.jpg: malformed image"},
		{[]string{"image", "eval", "--crop", "8", augmentData + "nope.jpg", out}, 1, "nope.jpg: no such file"},
		{[]string{"image", "eval", "--crop", "8", jpg}, 2, "want FILE and OUT.npy"},
		{[]string{"image", "eval", "-h"}, 0, "usage: obskit image eval [flags] FILE OUT.npy"},
	} {
		status, _, stderr := run(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit %s: status %d, stderr %q; want %d and %q", strings.Join(tc.args, " "), status, stderr, tc.status, tc.want)
		}
	}
}

func pt(x, y int) image.Point { return image.Pt(x, y) }
