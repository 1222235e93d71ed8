package augment

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/internal/pypeer"
)

// torchvision runs a Python program under Debian's interpreter with
// torchvision and decodes the JSON it prints into out, or skips the
// comparison (logged) when torchvision is absent: the test's own checks, from
// torchvision's documented formulas, run either way.
func torchvision(t *testing.T, program string, out any) bool {
	t.Helper()
	if testing.Short() {
		t.Log("not compared with torchvision itself with -short")
		return false
	}
	if err := pypeer.Has("torchvision"); err != nil {
		t.Logf("not compared with torchvision itself: %v", err)
		return false
	}
	cmd := exec.Command(pypeer.Python(), "-c", program)
	cmd.Dir = t.TempDir()
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("torchvision's side: %v", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("torchvision's side printed %q: %v", b, err)
	}
	return true
}

// TestRandomResizedCropFullImage checks that RandomResizedCrop returns the
// whole image when torchvision does: with scale (1, 1) and the ratio fixed to
// the image's own, every try of the loop fits the image exactly; with a scale
// above 1 no try fits, and torchvision's fallback, a centred crop at the
// nearest ratio in range, is the whole image when the image's ratio is in
// range. Images square, wide, tall, of odd sides and of one pixel;
// torchvision's get_params, when present (not with -short), gives the whole
// image for the same parameters.
func TestRandomResizedCropFullImage(t *testing.T) {
	type rrcCase struct {
		W, H  int
		Scale [2]float64
		Ratio [2]float64
	}
	var cases []rrcCase
	for _, s := range []image.Point{{100, 100}, {640, 480}, {97, 301}, {1, 1}, {3001, 7}} {
		r := float64(s.X) / float64(s.Y)
		cases = append(cases,
			rrcCase{s.X, s.Y, [2]float64{1, 1}, [2]float64{r, r}},                              // the loop
			rrcCase{s.X, s.Y, [2]float64{4, 9}, [2]float64{r / 2, r * 2}},                      // the fallback
			rrcCase{s.X, s.Y, [2]float64{4, 9}, [2]float64{r, math.Nextafter(r, math.Inf(1))}}, // the fallback at an end
		)
	}
	const draws = 300
	for _, c := range cases {
		rrc := RandomResizedCrop{Size: image.Pt(8, 8), Scale: c.Scale, Ratio: c.Ratio}
		if err := rrc.check(); err != nil {
			t.Fatal(err)
		}
		src := image.Pt(c.W, c.H)
		counter := &countingSource{src: rand.NewPCG(uint64(c.W), uint64(c.H))}
		rng := rand.New(counter)
		for k := range draws {
			before := counter.n
			if b := rrc.Box(src, rng); b != (image.Rectangle{Max: src}) {
				t.Fatalf("%v scale %v ratio %v: draw %d is %v, want the whole image", src, c.Scale, c.Ratio, k, b)
			}
			// The loop's first try fits (two numbers for the area and the
			// ratio, one for each position); the fallback follows ten
			// tries that do not.
			want := 4
			if c.Scale[0] > 1 {
				want = 20
			}
			if used := counter.n - before; used != want {
				t.Fatalf("%v scale %v ratio %v: draw %d took %d numbers from the generator, want %d", src, c.Scale, c.Ratio, k, used, want)
			}
		}
	}
	var tv [][4]int
	cj, _ := json.Marshal(cases)
	program := fmt.Sprintf(`
import json, torch, torchvision.transforms as T
torch.manual_seed(0)
out = []
for c in json.loads(%q):
    img = torch.empty(1, c["H"], c["W"])
    for _ in range(%d):
        i, j, h, w = T.RandomResizedCrop.get_params(img, c["Scale"], c["Ratio"])
        out.append([j, i, w, h])
print(json.dumps(out))
`, cj, draws/10)
	if torchvision(t, program, &tv) {
		for k, b := range tv {
			c := cases[k/(draws/10)]
			if b != [4]int{0, 0, c.W, c.H} {
				t.Errorf("torchvision's box (x, y, w, h) %v for %dx%d scale %v ratio %v: the expectation is wrong", b, c.W, c.H, c.Scale, c.Ratio)
			}
		}
	}
}

// TestCenterCropOddSpare checks CenterCrop's offset when the spare size (the
// image's side less the crop's) is odd, where the rounding decides a pixel:
// torchvision crops at int(round((n - c) / 2.0)), Python rounding halves to
// even (a spare of 5 starts at 2, of 7 at 4), and pads a side shorter than
// the crop with (c - n) // 2 before it. The image's pixels hold their own
// coordinates (red x+1, green y+1, zero the padding), so the output shows
// where each pixel came from; the expected offsets are computed here from
// those formulas and, when torchvision is present, compared with its
// CenterCrop on the same image.
func TestCenterCropOddSpare(t *testing.T) {
	type cropCase struct{ W, H, CW, CH int }
	var cases []cropCase
	for _, spare := range []int{1, 3, 5, 7, 9, 11, -1, -3, -5} {
		cases = append(cases, cropCase{20 + spare, 13, 20, 13 - spare}, cropCase{9, 30 + spare, 9 + spare, 30})
	}
	// axis returns the source coordinate (+1; 0 for padding) of output
	// sample k along one axis of n samples cropped to c.
	axis := func(n, c, k int) int {
		if c > n {
			k -= (c - n) / 2 // floor division: c > n
			if k < 0 || k >= n {
				return 0
			}
			return k + 1
		}
		return k + int(math.RoundToEven(float64(n-c)/2)) + 1
	}
	got := make([][2][]int, len(cases))
	for i, c := range cases {
		img := &imagecodec.RGB{Pix: make([]uint8, 3*c.W*c.H), Stride: 3 * c.W, Rect: image.Rect(0, 0, c.W, c.H)}
		for y := range c.H {
			for x := range c.W {
				img.Pix[y*img.Stride+3*x], img.Pix[y*img.Stride+3*x+1] = uint8(x+1), uint8(y+1)
			}
		}
		p := New(HWC, CenterCrop{Size: image.Pt(c.CW, c.CH)})
		out := make([]uint8, p.Len())
		if err := p.ApplyRGBUint8(out, img, rand.New(rand.NewPCG(1, 1))); err != nil {
			t.Fatal(err)
		}
		for y := range c.CH {
			for x := range c.CW {
				wantX, wantY := axis(c.W, c.CW, x), axis(c.H, c.CH, y)
				if wantX == 0 || wantY == 0 {
					wantX, wantY = 0, 0
				}
				if gx, gy := int(out[3*(y*c.CW+x)]), int(out[3*(y*c.CW+x)+1]); gx != wantX || gy != wantY {
					t.Fatalf("%dx%d cropped to %dx%d: output (%d, %d) holds source (%d, %d) (+1), want (%d, %d)", c.W, c.H, c.CW, c.CH, x, y, gx, gy, wantX, wantY)
				}
			}
		}
		// The middle row's red and the middle column's green (inside the
		// image along the other axis), for torchvision.
		for x := range c.CW {
			got[i][0] = append(got[i][0], int(out[3*(c.CH/2*c.CW+x)]))
		}
		for y := range c.CH {
			got[i][1] = append(got[i][1], int(out[3*(y*c.CW+c.CW/2)+1]))
		}
	}
	var tv [][2][]int
	cj, _ := json.Marshal(cases)
	program := fmt.Sprintf(`
import json, torch, torchvision.transforms as T
out = []
for c in json.loads(%q):
    xs = torch.arange(1, c["W"] + 1).view(1, c["W"]).expand(c["H"], c["W"])
    ys = torch.arange(1, c["H"] + 1).view(c["H"], 1).expand(c["H"], c["W"])
    r = T.CenterCrop((c["CH"], c["CW"]))(torch.stack([xs, ys]))
    out.append([r[0, c["CH"] // 2, :].tolist(), r[1, :, c["CW"] // 2].tolist()])
print(json.dumps(out))
`, cj)
	if torchvision(t, program, &tv) {
		for i, c := range cases {
			if diff := cmp.Diff(tv[i], got[i]); diff != "" {
				t.Errorf("%dx%d cropped to %dx%d: the middle row's x and column's y (-torchvision +kit):\n%s", c.W, c.H, c.CW, c.CH, diff)
			}
		}
	}
}

// countingSource counts the numbers drawn from src.
type countingSource struct {
	src rand.Source
	n   int
}

func (s *countingSource) Uint64() uint64 { s.n++; return s.src.Uint64() }
