package main

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

const (
	digitImages = "../../datasets/data/digits-images-idx3-ubyte"
	digitLabels = "../../datasets/data/digits-labels-idx1-ubyte"
	irisCSV     = "../../datasets/data/iris.csv"
)

// saveNPY writes data of the given shape to name in dir as a .npy file and
// returns its path.
func saveNPY[E arraycontainer.Number](t *testing.T, dir, name string, data []E, shape ...int) string {
	t.Helper()
	a, err := arraycontainer.New(data, shape, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := npy.Save(path, a); err != nil {
		t.Fatal(err)
	}
	return path
}

// gzipFile writes a gzip-compressed copy of src to dir and returns its path.
func gzipFile(t *testing.T, dir, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.Base(src)+".gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// irisArrays returns the embedded iris measurements and species codes.
func irisArrays(t *testing.T) ([]float64, []int) {
	t.Helper()
	d := datasets.Iris()
	return d.X().Clone().Data(), d.Y()
}

// The digits read from their IDX files, memory-mapped or gzip'd (read into
// memory), give the report of the embedded digits, which are the same data.
func TestIDXFiles(t *testing.T) {
	want, _ := demo(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, x, y, how string
	}{
		{"mapped", digitImages, digitLabels, "memory-mapped"},
		{"gzip", gzipFile(t, dir, digitImages), gzipFile(t, dir, digitLabels), "read into memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, text := demo(t, "-x", tc.x, "-y", tc.y)
			if diff := cmp.Diff(want, got, ignoreMeters, cmpopts.IgnoreFields(report{}, "Source")); diff != "" {
				t.Errorf("report from IDX files differs from the embedded digits' (-want +got):\n%s", diff)
			}
			for _, s := range []string{tc.x, tc.y, "IDX file, " + tc.how} {
				if !strings.Contains(got.Source, s) || !strings.Contains(text, s) {
					t.Errorf("report source %q does not name %q", got.Source, s)
				}
			}
		})
	}
}

// .npy features of any element type and labels of any whole-number type,
// including float labels and labels of shape [n 1], classify iris.
func TestNPYFiles(t *testing.T) {
	xs, ys := irisArrays(t)
	dir := t.TempDir()
	x32 := make([]float32, len(xs))
	for i, v := range xs {
		x32[i] = float32(v)
	}
	ints := make([]int64, len(ys))
	floats := make([]float64, len(ys))
	bytes := make([]uint8, len(ys))
	for i, v := range ys {
		ints[i], floats[i], bytes[i] = int64(v)+10, float64(v), uint8(v)
	}
	for _, tc := range []struct {
		name    string
		x, y    string
		classes []string
	}{
		{"float64 features, int64 labels", saveNPY(t, dir, "x64.npy", xs, 150, 4), saveNPY(t, dir, "y64.npy", ints, 150), []string{"10", "11", "12"}},
		{"float32 features, float64 labels", saveNPY(t, dir, "x32.npy", x32, 150, 2, 2), saveNPY(t, dir, "yf.npy", floats, 150), []string{"0", "1", "2"}},
		{"uint8 labels of shape [n 1]", saveNPY(t, dir, "x64b.npy", xs, 150, 4), saveNPY(t, dir, "y8.npy", bytes, 150, 1), []string{"0", "1", "2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, _ := demo(t, "-x", tc.x, "-y", tc.y)
			if diff := cmp.Diff(tc.classes, rep.Classes); diff != "" {
				t.Errorf("classes mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]int{40, 40, 40}, rep.Train); diff != "" {
				t.Errorf("training sizes per class mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(rep.Source, ".npy file, memory-mapped") {
				t.Errorf("source %q: want the features memory-mapped", rep.Source)
			}
			checkAccuracies(t, rep)
		})
	}
}

// A CSV file with a text label column, and one with integer labels (ordered as
// numbers, not as text).
func TestCSVFiles(t *testing.T) {
	rep, text := demo(t, "-x", irisCSV, "-target", "species")
	if diff := cmp.Diff(datasets.IrisSpecies, rep.Classes); diff != "" {
		t.Errorf("classes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{40, 40, 40}, rep.Train); diff != "" {
		t.Errorf("training sizes per class mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(text, "150 observations of 4 float64") || !strings.Contains(text, `labels in column "species"`) {
		t.Errorf("report does not describe the CSV data:\n%s", text)
	}
	checkAccuracies(t, rep)

	// Labels 2, 9 and 10: numbers sort 2 < 9 < 10 where text would put "10" first.
	xs, ys := irisArrays(t)
	var b strings.Builder
	b.WriteString("a,b,label,c,d\n")
	for i, y := range ys {
		r := xs[4*i : 4*i+4]
		b.WriteString(strings.Join([]string{ftoa(r[0]), ftoa(r[1]), []string{"2", "9", "10"}[y], ftoa(r[2]), ftoa(r[3])}, ",") + "\n")
	}
	path := filepath.Join(t.TempDir(), "numbers.CSV")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	num, _ := demo(t, "-x", path, "-target", "label")
	if diff := cmp.Diff([]string{"2", "9", "10"}, num.Classes); diff != "" {
		t.Errorf("integer classes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rep, num, ignoreMeters, cmpopts.IgnoreFields(report{}, "Source", "Classes")); diff != "" {
		t.Errorf("the same data with integer labels gave another report (-text labels +integer labels):\n%s", diff)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// checkAccuracies checks that nearest centroid on iris scores as it does
// (about 0.9): every fold and the test above 0.75.
func checkAccuracies(t *testing.T, rep *report) {
	t.Helper()
	for f, fd := range rep.Folds {
		if acc := fd.Accuracy(); !(acc > 0.75 && acc <= 1) {
			t.Errorf("fold %d: accuracy %v, want above 0.75", f, acc)
		}
	}
	if acc := rep.TestAccuracy(); !(acc > 0.75 && acc <= 1) {
		t.Errorf("test accuracy %v, want above 0.75", acc)
	}
}

// A class too small to be spread over the folds turns stratified k-fold into
// plain k-fold, and the report says so and why.
func TestKFoldsFallback(t *testing.T) {
	xs, ys := irisArrays(t)
	labels := make([]int64, len(ys))
	for i, y := range ys {
		labels[i] = int64(y)
	}
	labels[0], labels[1], labels[2], labels[3] = 7, 7, 7, 7 // setosa keeps 46, round(0.8*46) = 37 to train; class 7 round(0.8*4) = 3, fewer than 5 folds
	dir := t.TempDir()
	rep, text := demo(t, "-x", saveNPY(t, dir, "x.npy", xs, 150, 4), "-y", saveNPY(t, dir, "y.npy", labels, 150))
	if rep.Stratified {
		t.Fatalf("folds are stratified with a class of 3 training observations and 5 folds")
	}
	if diff := cmp.Diff([]int{37, 40, 40, 3}, rep.Train); diff != "" {
		t.Errorf("training sizes per class mismatch (-want +got):\n%s", diff)
	}
	for _, want := range []string{"(subset.KFolds)", "Class 7 has only 3 training observations, fewer than the 5 folds"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if len(rep.Folds) != 5 {
		t.Errorf("%d folds, want 5", len(rep.Folds))
	}
}
