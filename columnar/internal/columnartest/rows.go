package columnartest

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/obskit/obskit/columnar/internal/interop"
)

// goldenRows is the number of rows of each table whose printed form the
// golden files hold: enough for every case of the formulas (the residues of
// i mod 3, 4, 5, 6 and 7, NaN and the infinities, a date before 1970).
const goldenRows = 64

// golden returns the path of golden file name.
func golden(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", name)
}

// compareGolden compares got with golden file name, or writes it with
// -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := golden(name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("%s mismatch (-want +got):\n%s", name, cmp.Diff(string(want), got))
	}
}

// checkSchema compares the fields of a fixture with its golden file,
// testdata/<fixture>.schema, and their names with the table's columns.
func checkSchema(t *testing.T, f File, fx interop.Fixture) {
	t.Helper()
	var b strings.Builder
	var names []string
	for _, fd := range f.Fields() {
		fmt.Fprintf(&b, "%s %s", fd.Name, fd.Type)
		if fd.Nullable {
			b.WriteString(" nullable")
		}
		if fd.ElemNullable {
			b.WriteString(" values-nullable")
		}
		b.WriteString("\n")
		names = append(names, fd.Name)
	}
	var want []string
	for _, c := range fx.Table.Columns {
		want = append(want, c.Name)
	}
	if !cmp.Equal(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}
	compareGolden(t, fx.Name+".schema", b.String())
}

// checkRows compares every row as the reader gives it with the table's
// formula, value for value and type for type, and the printed form of the
// first goldenRows with the table's golden file, testdata/<table>.golden,
// which is the formula's printed form.
func checkRows(t *testing.T, f File, fx interop.Fixture) {
	t.Helper()
	tab := fx.Table
	var want, got strings.Builder
	starts := f.Starts()
	for k := range len(starts) - 1 {
		rows, err := f.ChunkRows(k)
		if err != nil {
			t.Fatalf("rows of chunk %d: %v", k, err)
		}
		if len(rows) != starts[k+1]-starts[k] {
			t.Fatalf("chunk %d: %d rows, want %d", k, len(rows), starts[k+1]-starts[k])
		}
		for r, row := range rows {
			i := starts[k] + r
			w := tab.Row(i)
			if !sameRow(w, row) {
				t.Fatalf("row %d mismatch (-want +got):\n%s", i, cmp.Diff(w, row, equateNaN))
			}
			if i < goldenRows {
				got.WriteString(Print(tab, i, row))
				want.WriteString(Print(tab, i, w))
			}
		}
	}
	compareGolden(t, tab.Name+".golden", want.String())
	if want.String() != got.String() {
		t.Errorf("printed rows mismatch (-want +got):\n%s", cmp.Diff(want.String(), got.String()))
	}
}

// equateNaN makes NaNs equal, of float32 and float64; time.Time values
// compare with their Equal method (cmp's default).
var equateNaN = cmpopts.EquateNaNs()

// sameRow reports whether rows a and b hold the same values of the same
// types: cmp.Equal's answer with equateNaN for the types Row and Rows give,
// without its reflection, which the suite would pay for every row.
func sameRow(a, b []any) bool {
	return len(a) == len(b) && slices.EqualFunc(a, b, sameValue)
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float32:
		y, ok := b.(float32)
		return ok && (x == y || x != x && y != y)
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || x != x && y != y)
	case []byte:
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	case time.Time:
		y, ok := b.(time.Time)
		return ok && x.Equal(y)
	case []any:
		y, ok := b.([]any)
		return ok && sameRow(x, y)
	case int64, uint64, bool, string:
		return a == b
	}
	return cmp.Equal(a, b, equateNaN)
}

// Print returns the printed form of row i of table t, one line: each value
// tagged with its Go type (i: int64, u: uint64, f32:, f64:, t: a time in
// RFC 3339), text quoted, bytes in hex, lists in brackets, null for a null.
func Print(t *interop.Table, i int, row []any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", i)
	for j, v := range row {
		name := fmt.Sprintf("#%d", j)
		if j < len(t.Columns) {
			name = t.Columns[j].Name
		}
		b.WriteString(" " + name + "=")
		printValue(&b, v)
	}
	b.WriteString("\n")
	return b.String()
}

func printValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case int64:
		b.WriteString("i:" + strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString("u:" + strconv.FormatUint(x, 10))
	case float32:
		b.WriteString("f32:" + strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		b.WriteString("f64:" + strconv.FormatFloat(x, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(strconv.Quote(x))
	case []byte:
		b.WriteString("0x" + hex.EncodeToString(x))
	case time.Time:
		b.WriteString("t:" + x.UTC().Format(time.RFC3339Nano))
	case []any:
		b.WriteString("[")
		for k, e := range x {
			if k > 0 {
				b.WriteString(" ")
			}
			printValue(b, e)
		}
		b.WriteString("]")
	default:
		fmt.Fprintf(b, "%T:%v", v, v)
	}
}
