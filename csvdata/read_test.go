package csvdata

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/container/containertest"
	"github.com/obskit/obskit/internal/filetest"
)

var (
	nan    = math.NaN()
	cmpNaN = cmpopts.EquateNaNs()
)

func TestIris(t *testing.T) {
	tab, err := Load[float64]("../datasets/data/iris.csv", Options{Target: "species"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"sepal_length", "sepal_width", "petal_length", "petal_width"}, tab.Features); d != "" {
		t.Errorf("Features mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{150, 4}, tab.X.Shape()); d != "" {
		t.Errorf("X shape mismatch (-want +got):\n%s", d)
	}
	values := filetest.Float64s(tab.X)
	if d := cmp.Diff([]float64{5.1, 3.5, 1.4, 0.2}, values[:4]); d != "" {
		t.Errorf("first row mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]float64{5.9, 3.0, 5.1, 1.8}, values[len(values)-4:]); d != "" {
		t.Errorf("last row mismatch (-want +got):\n%s", d)
	}
	codes, names := tab.Classes()
	if d := cmp.Diff([]string{"setosa", "versicolor", "virginica"}, names); d != "" {
		t.Errorf("Classes names mismatch (-want +got):\n%s", d)
	}
	counts := make([]int, len(names))
	for i, c := range codes {
		counts[c]++
		if names[c] != tab.Y[i] {
			t.Fatalf("code %d of row %d is %q, Y is %q", c, i, names[c], tab.Y[i])
		}
	}
	if d := cmp.Diff([]int{50, 50, 50}, counts); d != "" {
		t.Errorf("class counts mismatch (-want +got):\n%s", d)
	}
	t.Run("X", func(t *testing.T) { containertest.Run(t, tab.X, filetest.ArrayConfig[float64]()) })
	t.Run("Y", func(t *testing.T) { containertest.Run(t, tab.Y, containertest.SliceConfig[string]()) })
}

func TestOptions(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		opts     Options
		features []string
		x        []float64
		y        container.Slice[string]
	}{
		{"no target", "a,b\n1,2\n3,4\n", Options{}, []string{"a", "b"}, []float64{1, 2, 3, 4}, nil},
		{"feature order and skipped column", "a,b,c,t\n1,2,3,x\n4,5,6,y\n", Options{Target: "t", Features: []string{"c", "a"}},
			[]string{"c", "a"}, []float64{3, 1, 6, 4}, container.Slice[string]{"x", "y"}},
		{"semicolons, comments, CRLF, BOM, quotes, spaces", "\ufeffa;\"b\";t\r\n# note\r\n 1 ;\"2.5\"; yes \r\n-3;NaN;\"no, really\"\r\n",
			Options{Target: "t", Comma: ';', Comment: '#'}, []string{"a", "b"}, []float64{1, 2.5, -3, nan}, container.Slice[string]{"yes", "no, really"}},
		{"header only", "a,t\n", Options{Target: "t"}, []string{"a"}, []float64{}, container.Slice[string]{}},
		{"target first", "t,a\nq,1\n", Options{Target: "t"}, []string{"a"}, []float64{1}, container.Slice[string]{"q"}},
		{"CR line ends (classic Mac OS)", "a,b,t\r1,2,x\r\r3,4,\"y\rz\"\r", Options{Target: "t"}, []string{"a", "b"}, []float64{1, 2, 3, 4}, container.Slice[string]{"x", "y\nz"}},
		{"CR line ends, no final one", "a\r1\r2", Options{}, []string{"a"}, []float64{1, 2}, nil},
		{"CR line end of one line", "a,t\r", Options{Target: "t"}, []string{"a"}, []float64{}, container.Slice[string]{}},
		{"CRLF keeps a lone CR in a quoted cell", "a,t\r\n1,\"p\rq\"\r\n", Options{Target: "t"}, []string{"a"}, []float64{1}, container.Slice[string]{"p\rq"}},
		{"BOM before a quoted header", "\ufeff\"a\",\"t\"\n1,x\n", Options{Target: "t"}, []string{"a"}, []float64{1}, container.Slice[string]{"x"}},
		{"BOM and CR line ends", "\ufeffa\r5\r", Options{}, []string{"a"}, []float64{5}, nil},
		{"floats NumPy reads", "a\n1e3\n-.5\n+2.\ninf\n-Infinity\n", Options{}, []string{"a"}, []float64{1000, -0.5, 2, math.Inf(1), math.Inf(-1)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read[float64](strings.NewReader(tc.in), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.features, tab.Features); d != "" {
				t.Errorf("Features mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.x, filetest.Float64s(tab.X), cmpNaN); d != "" {
				t.Errorf("X mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.y, tab.Y); d != "" {
				t.Errorf("Y mismatch (-want +got):\n%s", d)
			}
			if tab.X.Nobs() != len(tab.lines) || (tab.Y != nil && len(tab.Y) != tab.X.Nobs()) {
				t.Errorf("X has %d rows, Y %d", tab.X.Nobs(), len(tab.Y))
			}
		})
	}
}

func TestIntegerElements(t *testing.T) {
	tab, err := Read[uint8](strings.NewReader("p,q,label\n0,255,3\n16,7,-1\n"), Options{Target: "label"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]float64{0, 255, 16, 7}, filetest.Float64s(tab.X)); d != "" {
		t.Errorf("X mismatch (-want +got):\n%s", d)
	}
	y, err := tab.IntTargets()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(container.Slice[int]{3, -1}, y); d != "" {
		t.Errorf("IntTargets mismatch (-want +got):\n%s", d)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		opts     Options
		read     func(string, Options) error
		target   error
		want     string
	}{
		{"empty", "", Options{}, readF64, ErrFormat, "empty file"},
		{"ragged short", "a,b,c\n1,2,3\n4,5\n", Options{}, readF64, ErrFormat, "line 3: 2 fields, the header has 3 (a ragged row)"},
		{"ragged long", "a,b\n1,2\n\n4,5,6\n", Options{}, readF64, ErrFormat, "line 4: 3 fields, the header has 2"},
		{"text cell", "a,b\n1,2\n3,abc\n", Options{}, readF64, ErrValue, `line 3, column 2 ("b"): "abc" is not a number of type float64`},
		{"empty cell", "a,b\n1,\n", Options{}, readF64, ErrValue, `line 2, column 2 ("b"): empty cell`},
		{"fraction for int", "a\n1.5\n", Options{}, readI32, ErrValue, `"1.5" is not an integer of type int32`},
		{"out of range", "a\n300\n", Options{}, readU8, ErrValue, `"300" is out of range for an integer of type uint8`},
		{"negative unsigned", "a\n-1\n", Options{}, readU8, ErrValue, `"-1" is not an integer of type uint8`},
		{"float32 overflow", "a\n1e39\n", Options{}, readF32, ErrValue, "out of range"},
		{"bare quote", "a,b\n1,2\n3,x\"y\n", Options{Target: "b"}, readF64, ErrFormat, "line 3, character 4: bare \" in non-quoted-field"},
		{"no target column", "a,b\n1,2\n", Options{Target: "species"}, readF64, ErrColumn, `target column "species" is not in the header ["a" "b"]`},
		{"no feature column", "a,b\n1,2\n", Options{Features: []string{"a", "z"}}, readF64, ErrColumn, `feature column "z"`},
		{"duplicate name", "a,b,a\n1,2,3\n", Options{}, readF64, ErrFormat, `columns 1 and 3 are both named "a"`},
		{"empty name", "a,,c\n1,2,3\n", Options{}, readF64, ErrFormat, "column 2 has no name"},
		{"int targets", "x,t\n1,3\n2,three\n", Options{Target: "t"}, intTargets, ErrValue, `line 3, column 2 ("t"): "three" is not an integer target`},
		{"int targets without target", "x\n1\n", Options{}, intTargets, ErrColumn, "no target column"},
		{"CR line ends: line numbers", "a,b\r1,2\r3,q\r", Options{}, readF64, ErrValue, `line 3, column 2 ("b"): "q" is not a number`},
		{"digit separator", "a,b\n1,1_000\n", Options{}, readF64, ErrValue, `line 2, column 2 ("b"): "1_000" is not a number of type float64 (digit separators are not accepted)`},
		{"hexadecimal float", "a\n0x1p-2\n", Options{}, readF32, ErrValue, `line 2, column 1 ("a"): "0x1p-2" is not a number of type float32 (hexadecimal floats are not accepted)`},
		{"hexadecimal int", "a\n0x10\n", Options{}, readI32, ErrValue, `"0x10" is not an integer of type int32`},
		{"digit separator in int", "a\n1_0\n", Options{}, readI32, ErrValue, `"1_0" is not an integer of type int32`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read(tc.in, tc.opts)
			if !errors.Is(err, tc.target) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "csvdata: stream: ") {
				t.Errorf("error = %v, want %v containing %q", err, tc.target, tc.want)
			}
		})
	}
}

// TestTextIsNotBlamedOnLiterals is issue 14's misleading message: a cell of text
// with an x or an _ was blamed on hexadecimal floats or digit separators. Only a
// cell Go would read as such a literal is.
func TestTextIsNotBlamedOnLiterals(t *testing.T) {
	for cell, want := range map[string]string{
		"max":    `"max" is not a number of type float64`,
		"n_a":    `"n_a" is not a number of type float64`,
		"0xZZ":   `"0xZZ" is not a number of type float64`,
		"1_000":  `"1_000" is not a number of type float64 (digit separators are not accepted)`,
		"0X1P-2": `"0X1P-2" is not a number of type float64 (hexadecimal floats are not accepted)`,
	} {
		err := readF64("a\n"+cell+"\n", Options{})
		if !errors.Is(err, ErrValue) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("cell %q: error = %v, want one ending %q", cell, err, want)
		}
	}
}

// TestLongValuesInErrors checks that an error quotes at most a short prefix of a
// huge cell or column name, with its length, so that a bad 10 MB cell does not
// make a 10 MB message.
func TestLongValuesInErrors(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	many := make([]string, 1000)
	for i := range many {
		many[i] = fmt.Sprintf("column%04d", i)
	}
	tests := []struct {
		name, in string
		opts     Options
		read     func(string, Options) error
		want     []string
	}{
		{"cell", "a\n" + huge + "\n", Options{}, readF64,
			[]string{`line 2, column 1 ("a"): "` + strings.Repeat("x", 40) + `..." (10485760 bytes) is not a number of type float64`}},
		{"target cell", "a,t\n1," + huge + "\n", Options{Target: "t"}, intTargets,
			[]string{`"` + strings.Repeat("x", 40) + `..." (10485760 bytes) is not an integer target`}},
		{"column name", huge + "\nq\n", Options{}, readF64,
			[]string{`line 2, column 1 ("` + strings.Repeat("x", 40) + `..." (10485760 bytes)): "q" is not a number`}},
		{"multi-byte runes are not cut", "a\n" + strings.Repeat("é", 30) + "\n", Options{}, readF64,
			[]string{`"` + strings.Repeat("é", 20) + `..." (60 bytes)`}},
		{"header listing", strings.Join(many, ",") + "\n", Options{Target: "species"}, readF64,
			[]string{`target column "species" is not in the header ["column0000" "column0001" "column0002" "column0003" "column0004" "column0005" "column0006" "column0007" ... (1000 columns)]`}},
		{"missing column name", "a\n1\n", Options{Features: []string{huge}}, readF64,
			[]string{`feature column "` + strings.Repeat("x", 40) + `..." (10485760 bytes) is not in the header ["a"]`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read(tc.in, tc.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if len(err.Error()) > 400 {
				t.Errorf("error message of %d bytes: %.200s...", len(err.Error()), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error = %.300s, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadNamesFile(t *testing.T) {
	path := t.TempDir() + "/bad.csv"
	if err := os.WriteFile(path, []byte("a,b\n1,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load[float32](path, Options{})
	if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), path+": ") {
		t.Errorf("Load error = %v, want ErrValue naming %s", err, path)
	}
}

func readF64(s string, o Options) error { _, err := Read[float64](strings.NewReader(s), o); return err }
func readF32(s string, o Options) error { _, err := Read[float32](strings.NewReader(s), o); return err }
func readI32(s string, o Options) error { _, err := Read[int32](strings.NewReader(s), o); return err }
func readU8(s string, o Options) error  { _, err := Read[uint8](strings.NewReader(s), o); return err }
func intTargets(s string, o Options) error {
	tab, err := Read[float64](strings.NewReader(s), o)
	if err != nil {
		return err
	}
	_, err = tab.IntTargets()
	return err
}

// FuzzRead feeds arbitrary text to the reader: it returns a table or an error
// wrapping one of the sentinels, never panics, and a table has one target per row.
func FuzzRead(f *testing.F) {
	iris, _ := os.ReadFile("../datasets/data/iris.csv")
	f.Add(string(iris[:300]), "species")
	f.Add("a,b\n1,2\n3\n", "")
	f.Add("\ufeffx;\"y\"\n1;\"2\"\n", "y")
	f.Add("\ufeff\"a\",\"b\"\r1,x\r\"2\r\",y\r", "b")
	f.Add("a,b\r\n1,0x1p-2\r\n1_000,\"q\rz\"\r", "a")
	f.Fuzz(func(t *testing.T, in, target string) {
		for _, read := range []func() (int, int, error){
			func() (int, int, error) {
				tab, err := Read[float64](strings.NewReader(in), Options{Target: target})
				if err != nil {
					return 0, 0, err
				}
				return tab.X.Nobs(), len(tab.Y), nil
			},
			func() (int, int, error) {
				tab, err := Read[int16](strings.NewReader(in), Options{Target: target, Comma: ';'})
				if err != nil {
					return 0, 0, err
				}
				return tab.X.Nobs(), len(tab.Y), nil
			},
		} {
			rows, ys, err := read()
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrValue) && !errors.Is(err, ErrColumn) {
					t.Fatalf("error %v wraps none of the sentinels", err)
				}
				continue
			}
			if target != "" && ys != rows {
				t.Fatalf("%d rows but %d targets", rows, ys)
			}
		}
	})
}

// TestNoHeader reads files without a header line, as MXNet's CSVIter does:
// the columns are named by their positions, and the first line is data.
func TestNoHeader(t *testing.T) {
	tests := []struct {
		name, text string
		opts       Options
		features   []string
		x          []float64
		y          []string
	}{
		{"all features", "1,2,3\n4,5,6\n", Options{NoHeader: true}, []string{"1", "2", "3"}, []float64{1, 2, 3, 4, 5, 6}, nil},
		{"target by position", "1,2,a\n4,5,b\n", Options{NoHeader: true, Target: "3"}, []string{"1", "2"}, []float64{1, 2, 4, 5}, []string{"a", "b"}},
		{"features by position", "1,2,3\n4,5,6", Options{NoHeader: true, Features: []string{"3", "1"}}, []string{"3", "1"}, []float64{3, 1, 6, 4}, nil},
		{"one line, CR ends", "7;8\r", Options{NoHeader: true, Comma: ';'}, []string{"1", "2"}, []float64{7, 8}, nil},
		{"empty", "", Options{NoHeader: true}, []string{}, []float64{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Read[float64](strings.NewReader(tt.text), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.features, tab.Features, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("Features mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.x, filetest.Float64s(tab.X), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("X mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.y, []string(tab.Y)); d != "" {
				t.Errorf("Y mismatch (-want +got):\n%s", d)
			}
		})
	}
	_, err := Read[float64](strings.NewReader("1,2\n3\n"), Options{NoHeader: true})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "line 2: 1 fields, the first line has 2") {
		t.Errorf("a ragged row: %v, want ErrFormat naming line 2 and the first line", err)
	}
	_, err = Read[float64](strings.NewReader("1,x\n"), Options{NoHeader: true})
	if !errors.Is(err, ErrValue) || !strings.Contains(err.Error(), "line 1, column 2") {
		t.Errorf("a text cell on the first line: %v, want ErrValue naming line 1, column 2", err)
	}
}
