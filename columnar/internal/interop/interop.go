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
	Name   string
	Table  *Table // the formula of its rows
	Rows   int
	Chunks int    // record batches or row groups
	Codec  string // "" for none
	Writer string
	// TS is the unit of its timestamps read as integers ("ms", "us"), for
	// a column of Time "ts".
	TS string
}

// Arrow lists the Arrow IPC fixtures.
var Arrow = []Fixture{
	{Name: "js.arrow", Table: Main, Rows: 1000, Chunks: 4, Writer: "apache-arrow", TS: "ms"},
	{Name: "js.arrows", Table: Main, Rows: 1000, Chunks: 4, Writer: "apache-arrow", TS: "ms"},
	{Name: "go-lz4.arrow", Table: Main, Rows: 1000, Chunks: 4, Codec: "lz4_frame", Writer: "arrow-go", TS: "ms"},
	{Name: "go-zstd.arrows", Table: Main, Rows: 1000, Chunks: 4, Codec: "zstd", Writer: "arrow-go", TS: "ms"},
	{Name: "edge.arrow", Table: Edge, Rows: 200, Chunks: 4, Writer: "apache-arrow"},
	{Name: "edge-go.arrows", Table: Edge, Rows: 200, Chunks: 4, Codec: "zstd", Writer: "arrow-go"},
}

// Parquet lists the Parquet fixtures.
var Parquet = []Fixture{
	{Name: "rs-snappy.parquet", Table: Main, Rows: 1000, Chunks: 4, Codec: "SNAPPY", Writer: "parquet-wasm (arrow-rs)", TS: "ms"},
	{Name: "rs-zstd.parquet", Table: Main, Rows: 1000, Chunks: 1, Codec: "ZSTD", Writer: "parquet-wasm (arrow-rs)", TS: "ms"},
	{Name: "duckdb-zstd.parquet", Table: Main, Rows: 6000, Chunks: 3, Codec: "ZSTD", Writer: "DuckDB", TS: "us"},
	{Name: "duckdb-snappy.parquet", Table: Main, Rows: 3000, Chunks: 1, Codec: "SNAPPY", Writer: "DuckDB", TS: "us"},
	{Name: "duckdb-gzip.parquet", Table: Main, Rows: 3000, Chunks: 1, Codec: "GZIP", Writer: "DuckDB", TS: "us"},
	{Name: "edge-rs.parquet", Table: Edge, Rows: 200, Chunks: 4, Codec: "SNAPPY", Writer: "parquet-wasm (arrow-rs)"},
	{Name: "edge-duckdb.parquet", Table: Edge, Rows: 200, Chunks: 1, Codec: "ZSTD", Writer: "DuckDB"},
}

// Of returns the fixtures of fs whose rows follow table t.
func Of(fs []Fixture, t *Table) []Fixture {
	var out []Fixture
	for _, fx := range fs {
		if fx.Table == t {
			out = append(out, fx)
		}
	}
	return out
}

// Regenerate runs gen.mjs into a temporary directory when asked
// (OBSKIT_INTEROP=1 in the environment, as make interop sets) and node and the
// npm packages of testdata/interop are installed (make interop installs them).
// It returns the directory, or skips t with the reason. Plain go test (and
// make test) reads the committed fixtures only: writing them again costs
// DuckDB's and parquet-wasm's start and the suite's run on every fixture
// twice, half a minute on 2 cores.
func Regenerate(t *testing.T) string {
	t.Helper()
	if os.Getenv("OBSKIT_INTEROP") != "1" {
		t.Skip("OBSKIT_INTEROP=1 is not set (make interop sets it): the committed fixtures are tested, not regenerated")
	}
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
