package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/columnar/parquet"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// The fixtures of package columnar, written by apache-arrow, parquet-wasm and
// DuckDB (columnar/testdata/interop/gen.mjs documents the formula of their
// rows).
var fixtures = filepath.Join("..", "..", "columnar", "testdata", "interop")

func fixture(name string) string { return filepath.Join(fixtures, name) }

// TestTableCatGolden pins the exact text of the first rows.
func TestTableCatGolden(t *testing.T) {
	want := `{"id":0,"label":8589934592,"u8":0,"x":[0,0.5,-0,0],"f64":0,"name":null,"cat":"red","toks":null,"bin":"AAA=","ts":"2023-11-14T22:13:20Z","flag":true}
{"id":1,"label":8589934599,"u8":1,"x":[1,1.5,-1,0.25],"f64":"NaN","name":"name-1","cat":"green","toks":[],"bin":"AQM=","ts":"2023-11-14T22:13:21Z","flag":false}
{"id":2,"label":8589934606,"u8":2,"x":[2,2.5,-2,0.5],"f64":"+Inf","name":"name-2","cat":"blue","toks":[2,3],"bin":"AgY=","ts":"2023-11-14T22:13:22Z","flag":true}
{"id":3,"label":8589934613,"u8":3,"x":[3,3.5,-3,0.75],"f64":"-Inf","name":"name-3","cat":"red","toks":[null,4,5],"bin":"Awk=","ts":"2023-11-14T22:13:23Z","flag":false}
`
	for _, name := range []string{"js.arrow", "js.arrows", "go-lz4.arrow", "go-zstd.arrows", "rs-snappy.parquet"} {
		status, stdout, stderr := run("table", "cat", "--json", "-n", "4", fixture(name))
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, stderr)
		}
		if diff := cmp.Diff(want, stdout); diff != "" {
			t.Errorf("obskit table cat -n 4 %s mismatch (-want +got):\n%s", name, diff)
		}
	}
}

// TestTableCat checks every row of every fixture against the formula: keys in
// schema order, integers exact, the float forms, nulls, lists, base64,
// RFC 3339.
func TestTableCat(t *testing.T) {
	keys := []string{"id", "label", "u8", "x", "f64", "name", "cat", "toks", "bin", "ts", "flag"}
	for _, name := range []string{"js.arrow", "js.arrows", "go-zstd.arrows", "rs-snappy.parquet", "rs-zstd.parquet", "duckdb-zstd.parquet", "duckdb-gzip.parquet"} {
		status, stdout, stderr := run("table", "cat", fixture(name))
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		for i, line := range lines {
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			var got []string
			if _, err := dec.Token(); err != nil {
				t.Fatal(err)
			}
			row := map[string]any{}
			for dec.More() {
				k, _ := dec.Token()
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("%s line %d: %v", name, i, err)
				}
				got = append(got, k.(string))
				row[k.(string)] = v
			}
			if !cmp.Equal(got, keys) {
				t.Fatalf("%s line %d: keys %v, want %v", name, i, got, keys)
			}
			checkRow(t, fmt.Sprintf("%s line %d", name, i), i, row)
		}
		if want := map[bool]int{true: 1000, false: 0}[strings.HasPrefix(name, "js") || strings.HasPrefix(name, "rs") || strings.HasPrefix(name, "go")]; want > 0 && len(lines) != want {
			t.Errorf("%s: %d lines, want %d", name, len(lines), want)
		}
	}
}

func checkRow(t *testing.T, where string, i int, row map[string]any) {
	t.Helper()
	num := func(k string) string { return string(row[k].(json.Number)) }
	if got, want := num("id"), strconv.Itoa(i); got != want {
		t.Fatalf("%s: id %s, want %s", where, got, want)
	}
	if got, want := num("label"), strconv.FormatInt(1<<33+7*int64(i), 10); got != want {
		t.Fatalf("%s: label %s, want %s (exact past 2^32)", where, got, want)
	}
	switch i {
	case 1, 2, 3:
		if got, want := row["f64"], []string{"", "NaN", "+Inf", "-Inf"}[i]; got != want {
			t.Fatalf("%s: f64 %v, want %q", where, got, want)
		}
	default:
		if got, want := num("f64"), strconv.FormatFloat(float64(i)/10, 'g', -1, 64); got != want {
			t.Fatalf("%s: f64 %s, want %s (the shortest form)", where, got, want)
		}
	}
	// x[3] = i/4 in float32: the shortest float32 form.
	if got, want := string(row["x"].([]any)[3].(json.Number)), strconv.FormatFloat(float64(float32(i)/4), 'g', -1, 32); got != want {
		t.Fatalf("%s: x[3] %s, want %s", where, got, want)
	}
	if i%5 == 0 && row["name"] != nil || i%5 != 0 && row["name"] != fmt.Sprintf("name-%d", i) {
		t.Fatalf("%s: name %v", where, row["name"])
	}
	toks, _ := row["toks"].([]any)
	switch m := i % 4; {
	case m == 0 && row["toks"] != nil, m == 1 && (toks == nil || len(toks) != 0), m > 1 && len(toks) != m:
		t.Fatalf("%s: toks %v", where, row["toks"])
	case m > 1 && i%7 == 3 && toks[0] != nil:
		t.Fatalf("%s: toks %v, want a null first", where, toks)
	}
	if got, want := row["bin"], base64.StdEncoding.EncodeToString([]byte{byte(i), byte(3 * i)}); got != want {
		t.Fatalf("%s: bin %v, want %v", where, got, want)
	}
	if got, want := row["ts"], time.Unix(1700000000+int64(i), 0).UTC().Format(time.RFC3339Nano); got != want {
		t.Fatalf("%s: ts %v, want %v", where, got, want)
	}
}

func TestTableSchemaLs(t *testing.T) {
	status, stdout, stderr := run("table", "schema", fixture("js.arrow"))
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var lines []schemaLine
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var s schemaLine
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, s)
	}
	if len(lines) != 11 || lines[3].Type != "fixed_size_list<float32>[4]" || lines[6].Type != "dictionary<int32, utf8>" || *lines[5].Nulls != 200 {
		t.Errorf("schema of js.arrow: %+v", lines)
	}
	status, stdout, stderr = run("table", "ls", fixture("duckdb-zstd.parquet"))
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if n := strings.Count(stdout, "\n"); n != 3 || !strings.Contains(stdout, `"rows":2048`) || !strings.Contains(stdout, `"ZSTD"`) {
		t.Errorf("ls of duckdb-zstd.parquet:\n%s", stdout)
	}
}

func TestTableToNpy(t *testing.T) {
	for _, name := range []string{"js.arrow", "duckdb-zstd.parquet"} {
		prefix := filepath.Join(t.TempDir(), "out")
		status, _, stderr := run("table", "to-npy", "-x", "x", "-y", "label", "-o", prefix, fixture(name))
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, stderr)
		}
		x, err := npy.Load[float32](prefix+"-x.npy", obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		y, err := npy.Load[int64](prefix+"-y.npy", obsdim.First)
		if err != nil {
			t.Fatal(err)
		}
		n := x.Nobs()
		if y.Nobs() != n || !cmp.Equal(x.Shape()[1:], []int{4}) {
			t.Fatalf("%s: shapes %v, %v", name, x.Shape(), y.Shape())
		}
		for i := range n {
			if got, want := x.At(i, 3), float32(i)/4; got != want {
				t.Fatalf("%s: x[%d, 3] = %v, want %v", name, i, got, want)
			}
			if got, want := y.At(i), int64(1<<33+7*i); got != want {
				t.Fatalf("%s: y[%d] = %v, want %v", name, i, got, want)
			}
		}
	}
	// Several scalar columns side by side.
	prefix := filepath.Join(t.TempDir(), "out")
	if status, _, stderr := run("table", "to-npy", "-x", "id,label", "-o", prefix, fixture("js.arrows")); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	x, err := npy.Load[int64](prefix+"-x.npy", obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := []int64{x.At(7, 0), x.At(7, 1)}, []int64{7, 1<<33 + 49}; !cmp.Equal(got, want) {
		t.Errorf("row 7 = %v, want %v", got, want)
	}
}

func TestTableErrors(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(fixture("duckdb-snappy.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.parquet")
	if err := os.WriteFile(truncated, data[:len(data)-100], 0o644); err != nil {
		t.Fatal(err)
	}
	arrow, err := os.ReadFile(fixture("js.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.arrow")
	if err := os.WriteFile(cut, arrow[:len(arrow)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cat", fixture("duckdb-struct.parquet")}, `column "price": decimal(10, 2)`},
		{[]string{"cat", truncated}, "truncated.parquet"},
		{[]string{"schema", cut}, "cut.arrow"},
		{[]string{"to-npy", "-x", "name", "-o", filepath.Join(dir, "o"), fixture("js.arrow")}, `"name"`},
		{[]string{"ls", filepath.Join(dir, "missing.arrow")}, "missing.arrow"},
	} {
		status, _, stderr := run(append([]string{"table"}, tc.args...)...)
		if status != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit table %s: status %d, stderr %q; want 1 and %q", strings.Join(tc.args, " "), status, stderr, tc.want)
		}
	}
	if status, _, _ := run("table", "cat"); status != 2 {
		t.Errorf("obskit table cat with no file: status %d, want 2", status)
	}
}

// TestTableWrongFiles: the format is told by the file's first bytes, not its
// name, and a file of neither is named as such; every error names the file
// (schema of a missing .parquet said "arrowipc: open", of a CSV file
// "malformed Arrow IPC file: metadata of 1634755955 bytes past the end").
func TestTableWrongFiles(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(csv, []byte("a,b,c\n1,2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.arrow")
	if err := os.WriteFile(short, []byte("AR"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.parquet")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schema", missing}, "stat " + missing + ": no such file or directory"},
		{[]string{"cat", missing}, "stat " + missing + ": no such file or directory"},
		{[]string{"schema", csv}, csv + `: not an Arrow or Parquet file (it starts with "a,b,c\n1,")`},
		{[]string{"ls", short}, short + `: not an Arrow or Parquet file (it starts with "AR")`},
	} {
		status, _, stderr := run(append([]string{"table"}, tc.args...)...)
		if status != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "arrowipc") {
			t.Errorf("obskit table %s: status %d, stderr %q; want 1 and %q", strings.Join(tc.args, " "), status, stderr, tc.want)
		}
	}
}

// TestTableDamaged: damaged data is exit status 1 and a message naming the
// file and where, never 2 (a bad command line, or a panic): ls of an Arrow
// file whose first batch's length has bit 34 flipped (it printed a batch of
// 17,179,869,484 rows and exited 0), cat of a Parquet file whose list
// column continues a null list (cat panicked, status 2).
func TestTableDamaged(t *testing.T) {
	dir := t.TempDir()
	arrow, err := os.ReadFile(fixture("js.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	// The first record batch's length: 300 rows, an int64 after the
	// dictionary batch's header.
	var n300 [8]byte
	binary.LittleEndian.PutUint64(n300[:], 300)
	at := bytes.Index(arrow, n300[:])
	if at < 0 {
		t.Fatal("no batch of 300 rows in js.arrow")
	}
	arrow[at+4] ^= 1 << 2
	flipped := filepath.Join(dir, "flipped.arrow")
	if err := os.WriteFile(flipped, arrow, 0o644); err != nil {
		t.Fatal(err)
	}
	pq, err := os.ReadFile(fixture("rs-snappy.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	pq[29076] ^= 1 << 1
	damaged := filepath.Join(dir, "damaged.parquet")
	if err := os.WriteFile(damaged, pq, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ls", flipped}, flipped + ": malformed Arrow IPC file: record batch at byte"},
		{[]string{"cat", damaged}, damaged + `: malformed Parquet file: row group 1, column "toks": row 83: a value inside a null or empty list`},
	} {
		status, _, stderr := run(append([]string{"table"}, tc.args...)...)
		if status != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit table %s: status %d, stderr %q; want 1 and %q", strings.Join(tc.args, " "), status, stderr, tc.want)
		}
	}
}

// TestTableSchemaNulls: schema counts a list column's null lists, as in the
// Arrow file of the same table (it gave the footer's count, which adds the
// empty lists and the null values).
func TestTableSchemaNulls(t *testing.T) {
	for _, name := range []string{"js.arrow", "rs-snappy.parquet", "duckdb-gzip.parquet"} {
		status, stdout, stderr := run("table", "schema", fixture(name))
		if status != 0 {
			t.Fatalf("%s: status %d: %s", name, status, stderr)
		}
		rows := map[bool]int64{true: 3000, false: 1000}[strings.HasPrefix(name, "duckdb")]
		for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var s schemaLine
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{"toks": rows / 4, "name": rows / 5}[s.Column]
			if s.Nulls == nil || *s.Nulls != want {
				t.Errorf("%s: column %s has %v nulls, want %d", name, s.Column, s.Nulls, want)
			}
		}
	}
}

// TestDataPanics: a panic of a container's read with an error about the data
// is the command's error (exit status 1); any other panic goes on.
func TestDataPanics(t *testing.T) {
	data := fmt.Errorf("x.parquet: %w: row group 0", parquet.ErrFormat)
	err := dataPanics(func(*env, []string) error { panic(data) })(nil, nil)
	if err != data {
		t.Errorf("dataPanics: %v, want %v", err, data)
	}
	defer func() {
		if r := recover(); r != "bug" {
			t.Errorf("recovered %v, want the panic bug to go on", r)
		}
	}()
	dataPanics(func(*env, []string) error { panic("bug") })(nil, nil)
}
