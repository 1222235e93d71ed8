package parquet_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	pq "github.com/parquet-go/parquet-go"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/internal/interop"
	"github.com/obskit/obskit/columnar/parquet"
)

// nullsTable has 1000 rows of two list columns: toks, with 20 null lists
// (i%50 == 7), 193 empty lists and lists of 1 or 2 values, none null; and
// holes, with no null list and 13 null values in lists that are not null
// (i%77 == 5). The footer's statistics count 213 "nulls" in toks (its null
// and empty lists together), 13 in holes.
var nullsTable = kitTable{
	rows: 1000,
	lists: map[string]func(int) []*int32{
		"toks": func(i int) []*int32 {
			switch {
			case i%50 == 7:
				return nil
			case i%5 == 1 && i < 965:
				return []*int32{}
			}
			return ints(int32(i), int32(i+1))[:1+i%2]
		},
		"holes": func(i int) []*int32 {
			if i%77 == 5 {
				return []*int32{ptr(int32(i)), nil}
			}
			return ints(int32(i))
		},
	},
	group: 300,
}

// want returns what the lists of column name of nullsTable read as, with
// fill for a null value, and which rows are null lists.
func want(name string, fill int32) (lists [][]int32, null []bool, nulls, empty, nullValues int) {
	for i := range nullsTable.rows {
		l := nullsTable.lists[name](i)
		null = append(null, l == nil)
		row := []int32{}
		switch {
		case l == nil:
			nulls++
		case len(l) == 0:
			empty++
		}
		for _, v := range l {
			if v == nil {
				nullValues++
				row = append(row, fill)
			} else {
				row = append(row, *v)
			}
		}
		lists = append(lists, row)
	}
	return lists, null, nulls, empty, nullValues
}

// TestListNulls: Nulls counts null lists, as Arrow does, not empty lists nor
// null values inside lists (the footer's count of toks is 213: its 20 null
// lists and 193 empty ones); Lists with NullEmpty reads a column of null
// lists and no null value without a Fill (it demanded one); a column of null
// values inside lists that are not null is refused without a Fill, as
// holding null values, and read with one.
func TestListNulls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codec pq.WriterOption
		v2    bool
	}{{"v1", nil, false}, {"v2 snappy", pq.Compression(&pq.Snappy), true}} {
		t.Run(tc.name, func(t *testing.T) {
			k := nullsTable
			k.codec, k.v2 = tc.codec, tc.v2
			path := write(t, t.TempDir(), "lists.parquet", writeKit(t, k))
			f, err := parquet.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			toks, toksNull, nulls, empty, nullValues := want("toks", 0)
			if nulls != 20 || empty != 193 || nullValues != 0 {
				t.Fatalf("the table has %d null lists, %d empty, %d null values; want 20, 193, 0", nulls, empty, nullValues)
			}
			if n, err := f.Nulls("toks"); n != 20 || err != nil {
				t.Errorf("Nulls(toks) = %d, %v; want 20 (the null lists)", n, err)
			}
			if n, err := f.Nulls("holes"); n != 0 || err != nil {
				t.Errorf("Nulls(holes) = %d, %v; want 0 (no list is null)", n, err)
			}
			// Null lists read as empty, no Fill needed: no value is null.
			l, err := parquet.Lists[int32](f, "toks", parquet.NullEmpty())
			if err != nil {
				t.Fatalf("Lists(toks, NullEmpty): %v", err)
			}
			valid, err := parquet.Valid(f, "toks")
			if err != nil {
				t.Fatal(err)
			}
			for i := range l.Nobs() {
				if got := l.GetObs(i); !cmp.Equal(got, toks[i]) || valid[i] == toksNull[i] {
					t.Fatalf("toks[%d] = %v valid %v, want %v valid %v", i, got, valid[i], toks[i], !toksNull[i])
				}
			}
			if _, err := parquet.Lists[int32](f, "toks"); !errors.Is(err, parquet.ErrNull) || !strings.Contains(err.Error(), "20 null lists") {
				t.Errorf("Lists(toks) without NullEmpty: %v, want ErrNull counting 20 null lists", err)
			}
			// holes: no null list (no NullEmpty needed), 13 null values.
			holes, _, _, _, holeValues := want("holes", -1)
			if _, err := parquet.Lists[int32](f, "holes"); !errors.Is(err, parquet.ErrNull) || !strings.Contains(err.Error(), "13 null values") {
				t.Errorf("Lists(holes) without Fill: %v, want ErrNull counting 13 null values (%d)", err, holeValues)
			}
			h, err := parquet.Lists[int32](f, "holes", parquet.Fill(int32(-1)))
			if err != nil {
				t.Fatalf("Lists(holes, Fill): %v", err)
			}
			for i := range h.Nobs() {
				if got := h.GetObs(i); !cmp.Equal(got, holes[i]) {
					t.Fatalf("holes[%d] = %v, want %v", i, got, holes[i])
				}
			}
		})
	}
}

// TestListNullsInterop: on the files of the main table of every other writer,
// Nulls counts the null lists of toks (row i%4 == 0) and the nulls of name
// (i%5 == 0), what package arrowipc counts in the Arrow files of the same
// table; the footers count toks's empty lists and null values with them. (The
// edge table's files have other columns: columnartest's suite counts the
// nulls of every column of every fixture.)
func TestListNullsInterop(t *testing.T) {
	a, err := arrowipc.Open(interop.Path("js.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Nulls("toks") != 250 || a.Nulls("name") != 200 {
		t.Fatalf("js.arrow: %d null lists, %d null names; want 250, 200", a.Nulls("toks"), a.Nulls("name"))
	}
	for _, fx := range interop.Of(interop.Parquet, interop.Main) {
		f, err := parquet.Open(interop.Path(fx.Name))
		if err != nil {
			t.Fatal(err)
		}
		for col, want := range map[string]int64{"toks": int64(fx.Rows / 4), "name": int64(fx.Rows / 5)} {
			if n, err := f.Nulls(col); n != want || err != nil {
				t.Errorf("%s: Nulls(%s) = %d, %v; want %d", fx.Name, col, n, err, want)
			}
		}
	}
	// A struct has no one leaf whose levels say which rows are null.
	f, err := parquet.Open(interop.Path("duckdb-struct.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Nulls("s"); !errors.Is(err, parquet.ErrUnsupported) {
		t.Errorf("Nulls(s) of a struct: %v, want ErrUnsupported", err)
	}
	if _, err := f.Nulls("nope"); !errors.Is(err, parquet.ErrColumn) {
		t.Errorf("Nulls(nope): %v, want ErrColumn", err)
	}
}

// TestNumbersRaggedLists: Numbers refuses a list column whose lists have
// several lengths at the call, naming the column and the lengths (it
// accepted one, and its first gather panicked: "row 1 has 1 values, the
// first row 0"), and a column of null lists; it reads lists of one length.
func TestNumbersRaggedLists(t *testing.T) {
	k := kitTable{rows: 100, group: 40, lists: map[string]func(int) []*int32{
		"ragged": func(i int) []*int32 { return ints(1, 2, 3)[:1+i%3] },
		"fixed":  func(i int) []*int32 { return ints(int32(i), int32(2*i)) },
		"nulls":  func(i int) []*int32 { return map[bool][]*int32{true: nil, false: ints(1, 2)}[i == 50] },
	}}
	f, err := parquet.Open(write(t, t.TempDir(), "ragged.parquet", writeKit(t, k)))
	if err != nil {
		t.Fatal(err)
	}
	_, err = parquet.Numbers[int32](f, []string{"ragged"}, parquet.Fill(int32(0)))
	if !errors.Is(err, parquet.ErrType) || !strings.Contains(err.Error(), `column "ragged": lists of 1 to 3 values`) {
		t.Errorf("Numbers(ragged): %v, want ErrType naming the column and its lengths", err)
	}
	_, err = parquet.Numbers[int32](f, []string{"nulls"})
	if !errors.Is(err, parquet.ErrNull) || !strings.Contains(err.Error(), `column "nulls": 1 null lists`) {
		t.Errorf("Numbers(nulls): %v, want ErrNull naming the column's null list", err)
	}
	x, err := parquet.Numbers[int32](f, []string{"fixed"})
	if err != nil {
		t.Fatal(err)
	}
	if got := x.ObsShape(); !slices.Equal(got, []int{2}) {
		t.Fatalf("ObsShape() = %v, want [2]", got)
	}
	for i := range x.Nobs() {
		if got := x.GetObs(i).Data(); !slices.Equal(got, []int32{int32(i), int32(2 * i)}) {
			t.Fatalf("fixed[%d] = %v", i, got)
		}
	}
	// The interop fixtures' toks: null lists, and lists of 0 to 3 values.
	g, err := parquet.Open(interop.Path("rs-snappy.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parquet.Numbers[int32](g, []string{"toks"}, parquet.Fill(int32(0))); !errors.Is(err, parquet.ErrNull) || !strings.Contains(err.Error(), `column "toks": 250 null lists`) {
		t.Errorf("Numbers(toks) of rs-snappy.parquet: %v, want ErrNull naming its 250 null lists", err)
	}
}
