// Package interop holds what the tests of the format packages know about the
// fixtures of testdata/interop, written by independent writers (apache-arrow,
// parquet-wasm, DuckDB with gen.mjs; arrow-go with arrowgo/main.go for the
// compressed Arrow files): the formula every row follows, the files
// and where they are, and how to run the generator again; and the damage the
// tests do to files of every writer (bits flipped, files cut short) with the
// measure of what a reader then allocates.
package interop

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Dir returns the directory of the committed fixtures.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "interop")
}

// Path returns the path of the committed fixture name.
func Path(name string) string { return filepath.Join(Dir(), name) }

// Row is row i of every fixture, as gen.mjs documents it.
type Row struct {
	ID    int64
	Label int64
	U8    uint8
	X     [4]float32
	F64   float64
	Name  *string // nil for a null
	Cat   string
	Toks  []*int32 // nil slice for a null list; nil element for a null value
	Bin   []byte
	TS    time.Time
	Flag  bool
}

// Want returns row i.
func Want(i int) Row {
	r := Row{
		ID:    int64(i),
		Label: 1<<33 + 7*int64(i),
		U8:    uint8(i % 256),
		X:     [4]float32{float32(i), float32(i) + 0.5, -float32(i), float32(i) / 4},
		F64:   float64(i) / 10,
		Cat:   []string{"red", "green", "blue"}[i%3],
		Bin:   []byte{byte(i % 256), byte(3 * i % 256)},
		TS:    time.Unix(1700000000+int64(i), 0).UTC(),
		Flag:  i%2 == 0,
	}
	switch i {
	case 1:
		r.F64 = math.NaN()
	case 2:
		r.F64 = math.Inf(1)
	case 3:
		r.F64 = math.Inf(-1)
	}
	if i%5 != 0 {
		s := fmt.Sprintf("name-%d", i)
		r.Name = &s
	}
	if m := i % 4; m != 0 {
		r.Toks = []*int32{}
		for k := 0; m > 1 && k < m; k++ {
			if k == 0 && i%7 == 3 {
				r.Toks = append(r.Toks, nil)
				continue
			}
			v := int32(i + k)
			r.Toks = append(r.Toks, &v)
		}
	}
	return r
}

// A Fixture is one committed file and what it holds.
type Fixture struct {
	Name      string
	Rows      int
	Chunks    int    // record batches or row groups
	Codec     string // "" for none
	Writer    string
	FixedList bool // x is an Arrow fixed_size_list (Parquet writers make it a list)
}

// Arrow lists the Arrow IPC fixtures.
var Arrow = []Fixture{
	{Name: "js.arrow", Rows: 1000, Chunks: 4, Writer: "apache-arrow", FixedList: true},
	{Name: "js.arrows", Rows: 1000, Chunks: 4, Writer: "apache-arrow", FixedList: true},
	{Name: "go-lz4.arrow", Rows: 1000, Chunks: 4, Codec: "lz4_frame", Writer: "arrow-go", FixedList: true},
	{Name: "go-zstd.arrows", Rows: 1000, Chunks: 4, Codec: "zstd", Writer: "arrow-go", FixedList: true},
}

// Parquet lists the Parquet fixtures.
var Parquet = []Fixture{
	{Name: "rs-snappy.parquet", Rows: 1000, Chunks: 4, Codec: "SNAPPY", Writer: "parquet-wasm (arrow-rs)"},
	{Name: "rs-zstd.parquet", Rows: 1000, Chunks: 1, Codec: "ZSTD", Writer: "parquet-wasm (arrow-rs)"},
	{Name: "duckdb-zstd.parquet", Rows: 6000, Chunks: 3, Codec: "ZSTD", Writer: "DuckDB"},
	{Name: "duckdb-snappy.parquet", Rows: 3000, Chunks: 1, Codec: "SNAPPY", Writer: "DuckDB"},
	{Name: "duckdb-gzip.parquet", Rows: 3000, Chunks: 1, Codec: "GZIP", Writer: "DuckDB"},
}

// Regenerate runs gen.mjs into a temporary directory when node and the npm
// packages of testdata/interop are installed (make interop installs them), and
// checks that it writes the committed Parquet-independent facts again: every
// fixture exists. It returns the directory, or skips t with the reason.
func Regenerate(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the committed fixtures are tested, not regenerated")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "apache-arrow")); err != nil {
		t.Skip("the npm packages of testdata/interop are not installed (make interop): the committed fixtures are tested, not regenerated")
	}
	out := t.TempDir()
	cmd := exec.Command(node, "gen.mjs", out)
	cmd.Dir = Dir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node gen.mjs: %v\n%s", err, stderr.Bytes())
	}
	return out
}

// NameOr returns the row's name, or empty for a null: what a Strings container
// read with NullEmpty gives.
func (r Row) NameOr() string {
	if r.Name == nil {
		return ""
	}
	return *r.Name
}

// TokensFilled returns the row's tokens with fill for each null value, and
// an empty list for a null list: what a Lists container read with NullEmpty and
// Fill(fill) gives.
func (r Row) TokensFilled(fill int32) []int32 {
	out := []int32{}
	for _, v := range r.Toks {
		if v == nil {
			out = append(out, fill)
		} else {
			out = append(out, *v)
		}
	}
	return out
}
