package parquet

import (
	"sync"

	pq "github.com/parquet-go/parquet-go"
)

// The footer's statistics count, for each column chunk, the levels below the
// leaf's maximum definition level: for a list column, null lists, empty lists
// and null values inside lists together. What Arrow counts (a null list is
// null, an empty one is not, a null value inside a list is the values' null)
// and what an accessor must know before it reads (are there null lists? null
// values? lists of one length?) is read from the definition and repetition
// levels themselves, once per column, when the footer cannot tell.
//
// Dremel's levels, for a list column whose list is not null from definition
// level listDef on and whose value is present at maxDef: a row starts at
// repetition level 0; its list is null when the definition level is below
// listDef, empty at listDef, and otherwise holds a value, null below maxDef;
// each entry at repetition level 1 adds a value to the row's list, which
// must then be neither null nor empty. DuckDB writes a null fixed-size list
// (its ARRAY type) as one entry for each element, each at a definition level
// below listDef: the entries after the first belong to the null row (arrow-rs
// and DuckDB read them so), and the walk skips them.

// A census is what the levels of a column hold.
type census struct {
	nulls      int64 // null rows: for a list column, null lists
	empty      int64 // empty lists
	nullValues int64 // null values inside lists
	// minLen and maxLen are the fewest and most values of a list that is not
	// null; -1 when there is none.
	minLen, maxLen int64
}

// A censusOnce computes the census of one column once for a File.
type censusOnce struct {
	once sync.Once
	c    census
	err  error
}

// census returns what the levels of column c hold, reading every row group's
// levels the first time it is asked for c.
func (f *File) census(c Column) (census, error) {
	v, _ := f.censuses.LoadOrStore(c.leaf, &censusOnce{})
	co := v.(*censusOnce)
	co.once.Do(func() { co.c, co.err = f.takeCensus(c) })
	return co.c, co.err
}

func (f *File) takeCensus(c Column) (census, error) {
	out := census{minLen: -1, maxLen: -1}
	for g := range f.groups {
		rows := f.groups[g].rows
		w := levelWalk{f: f, g: g, c: c, rows: rows, row: -1}
		err := f.pages(g, c, func(p pq.Page) error {
			def, rep := p.DefinitionLevels(), p.RepetitionLevels()
			for i := range int(p.NumValues()) {
				var d, r byte
				if i < len(def) {
					d = def[i]
				} else if c.maxDef > 0 {
					return f.chunkErr(g, c, "a page of %d values with %d definition levels", p.NumValues(), len(def))
				}
				if i < len(rep) {
					r = rep[i]
				}
				if err := w.step(r, d, &out); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return out, err
		}
		if err := w.end(&out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// A levelWalk follows the rows of one row group through the levels of its
// values, checking them against Dremel's rules.
type levelWalk struct {
	f    *File
	g    int
	c    Column
	rows int
	row  int
	n    int64 // values of the current row's list, -1 while it is null or empty
	null bool  // the current row's list is null
	// skip is set by step for an entry that adds nothing to its row: one of
	// those DuckDB writes after the first of a null fixed-size list (its
	// ARRAY type), one for each element, each null at the list's level.
	skip bool
}

// step takes the levels of the next value.
func (w *levelWalk) step(rep, def byte, out *census) error {
	w.skip = false
	c := w.c
	if int(def) > c.maxDef || rep > 1 || rep == 1 && !c.list {
		return w.f.chunkErr(w.g, c, "row %d: levels %d, %d past the column's %d, %d", w.row+1, rep, def, 1, c.maxDef)
	}
	if rep == 0 {
		w.close(out)
		w.row++
		if w.row >= w.rows {
			return w.f.chunkErr(w.g, c, "more rows than the %d of the row group", w.rows)
		}
		switch {
		case !c.list:
			if int(def) < c.maxDef {
				out.nulls++
			}
			return nil
		case int(def) < c.listDef:
			out.nulls++
			w.n, w.null = -1, true
			return nil
		case int(def) == c.listDef:
			out.empty++
			out.length(0)
			w.n, w.null = -1, false
			return nil
		}
		w.n, w.null = 0, false
	} else if w.row < 0 {
		return w.f.chunkErr(w.g, c, "a repeated value before the first row")
	} else if w.null && int(def) < c.listDef {
		w.skip = true
		return nil
	} else if w.n < 0 {
		return w.f.chunkErr(w.g, c, "row %d: a value inside a null or empty list", w.row)
	}
	w.n++
	if int(def) < c.maxDef {
		out.nullValues++
	}
	return nil
}

// close ends the current row's list.
func (w *levelWalk) close(out *census) {
	if w.row >= 0 && w.n >= 0 {
		out.length(w.n)
	}
}

// length counts a list of n values that is not null.
func (c *census) length(n int64) {
	if c.minLen < 0 || n < c.minLen {
		c.minLen = n
	}
	c.maxLen = max(c.maxLen, n)
}

// end checks that the row group held its rows.
func (w *levelWalk) end(out *census) error {
	w.close(out)
	if w.row+1 != w.rows {
		return w.f.chunkErr(w.g, w.c, "%d rows for the %d the footer claims", w.row+1, w.rows)
	}
	return nil
}
