package stream

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/internal/state"
)

// ErrTooLong is wrapped by the error a [Pack] stream yields for a sequence longer
// than a row.
var ErrTooLong = errors.New("sequence longer than a row")

// A PackMethod says how [Pack] chooses the row of a sequence.
type PackMethod uint8

const (
	// FirstFit keeps Window rows open and puts each sequence, in the order they
	// come, into the first open row with room for it (the oldest first); a
	// sequence that fits none closes the oldest open row and opens a new one.
	// Grain's FirstFitPackIterDataset with a window of num_packing_bins, except
	// that it closes one row at a time instead of all of them.
	FirstFit PackMethod = iota
	// BestFitDecreasing reads Window sequences, sorts them longest first and puts
	// each into the open row with the least room that holds it, opening a row
	// when none does; at the end of the window every row closes. TRL's
	// best-fit-decreasing packing, over a window instead of the whole data set.
	BestFitDecreasing
)

// String returns "first-fit" or "best-fit-decreasing".
func (m PackMethod) String() string {
	if m == FirstFit {
		return "first-fit"
	}
	return "best-fit-decreasing"
}

// PackOptions configure [Pack].
type PackOptions struct {
	Method PackMethod
	// Window is the number of rows FirstFit keeps open, or the number of
	// sequences BestFitDecreasing packs at once: larger windows pad less and hold
	// more in memory (and in the saved state). 0 means 16 rows for FirstFit and
	// 1024 sequences for BestFitDecreasing.
	Window int
}

// A Packed batch holds Rows rows of Length tokens, each row the concatenation of
// whole sequences followed by padding, as row-major matrices ready for a model:
// Tokens, Segments and Positions each hold Rows*Length values, row r at
// [r*Length, (r+1)*Length).
type Packed[E any] struct {
	Tokens []E
	// Segments numbers the sequences of a row 1, 2, ... in order (Grain's
	// segment ids), and is 0 on padding: an attention mask lets a token see the
	// tokens of its own segment only.
	Segments []int32
	// Positions holds each token's position within its sequence, from 0 (the
	// position ids of a packed row), and 0 on padding.
	Positions []int32
	// Rows and Length are the shape; Real is the number of rows holding a
	// sequence (Rows, but in the last batch of a stream), and Padding the number
	// of padding tokens of the batch, its rows without a sequence included.
	Rows, Length, Real, Padding int
}

// Row returns the tokens of row r: a view of p.Tokens capped to the row.
func (p *Packed[E]) Row(r int) []E {
	container.CheckIndex("stream.Packed.Row", r, p.Rows)
	return p.Tokens[r*p.Length : (r+1)*p.Length : (r+1)*p.Length]
}

// Clone returns a copy of p in newly allocated memory, to keep past the step
// that yielded p, or to hand to a decorator that keeps values (a shuffle,
// Batches, stream.Prefetch): Map(packed, (*Packed[E]).Clone).
func (p *Packed[E]) Clone() *Packed[E] {
	q := *p
	q.Tokens = slices.Clone(p.Tokens)
	q.Segments = slices.Clone(p.Segments)
	q.Positions = slices.Clone(p.Positions)
	return &q
}

// Pack returns a [Stream] packing the sequences of s into batches of rows rows
// of length tokens each, with segment ids and positions (sequence packing for
// language models): far less padding than padding every sequence to the
// longest. Rows are filled by opts.Method within opts.Window; every sequence is
// packed whole, and an empty sequence takes no room and is left out. When s
// ends, the open rows close, and the last batch may hold fewer than rows real
// rows (Packed.Real), the others padding.
//
// Pack writes every batch into the same *Packed, reused from step to step (no
// allocation per batch): it is valid until the next step, so copy what must
// outlive it ([Packed.Clone]), and clone before a decorator that keeps values. Pack keeps the sequences it holds until their row is yielded:
// s's values must stay valid (every stream of this package's sources does).
//
// Its state holds the sequences in open and closed rows not yet yielded (at most
// Window+rows rows for FirstFit, the rows of one window for BestFitDecreasing),
// encoded with encoding/gob. A sequence longer than length ends the stream with
// an error wrapping [ErrTooLong]. Pack panics with a [*container.ArgError] if
// length or rows is below 1, opts.Window is negative, or opts.Method is
// unknown.
func Pack[E any](s Stream[[]E], length, rows int, opts PackOptions) Stream[*Packed[E]] {
	const op = "stream.Pack"
	s.check(op)
	container.CheckArg(length >= 1, op, "row length", length, ">= 1")
	container.CheckArg(rows >= 1, op, "rows", rows, ">= 1")
	container.CheckArg(opts.Method <= BestFitDecreasing, op, "method", opts.Method, "FirstFit or BestFitDecreasing")
	container.CheckArg(opts.Window >= 0, op, "window", opts.Window, ">= 0")
	if opts.Window == 0 {
		opts.Window = 16
		if opts.Method == BestFitDecreasing {
			opts.Window = 1024
		}
	}
	return Stream[*Packed[E]]{packNode[E]{s.n, length, rows, opts}}
}

type packNode[E any] struct {
	src          node[[]E]
	length, rows int
	opts         PackOptions
}

func (n packNode[E]) ordered() bool { return n.src.ordered() }
func (n packNode[E]) iter(e int) iterator[*Packed[E]] {
	return &packIter[E]{n: n, src: n.src.iter(e)}
}

// A bin is a row being filled: its sequences in order and their total length.
type bin[E any] struct {
	seqs  [][]E
	used  int
	count int // best-fit: sequences assigned, before the list is carved
}

type packIter[E any] struct {
	n      packNode[E]
	src    iterator[[]E]
	open   []bin[E] // FirstFit: the open rows, oldest first
	ready  []bin[E] // closed rows not yet yielded, in order, from ready[head]
	head   int
	window [][]E // BestFitDecreasing: the sequences of the window being read
	ended  bool
	out    Packed[E]
	// Reused from step to step, so that a warm pass allocates nothing: the
	// sequence lists of yielded rows, and best-fit's rows by room (a list per
	// room and a bit per nonempty list).
	free   [][][]E
	byRoom [][]int
	rooms  []uint64
	rowOf  []int
	arena  [2][][]E
	cur    int
}

func (it *packIter[E]) tooLong(s []E) error {
	return fmt.Errorf("stream.Pack: a sequence of %d tokens in rows of %d: %w", len(s), it.n.length, ErrTooLong)
}

// fill reads sequences until rows rows are ready or the source ends.
func (it *packIter[E]) fill() error {
	for len(it.ready)-it.head < it.n.rows && !it.ended {
		s, err, ok := it.src.next()
		if err != nil {
			return err
		}
		if !ok {
			it.ended = true
			if it.n.opts.Method == FirstFit {
				it.ready = append(it.ready, it.open...)
				it.open = nil
			} else {
				it.packWindow()
			}
			break
		}
		if len(s) > it.n.length {
			return it.tooLong(s)
		}
		if len(s) == 0 {
			continue
		}
		if it.n.opts.Method == FirstFit {
			it.firstFit(s)
			continue
		}
		if it.window = append(it.window, s); len(it.window) == it.n.opts.Window {
			it.packWindow()
		}
	}
	return nil
}

// newBin returns an empty row, with a sequence list of a yielded row if any.
func (it *packIter[E]) newBin() bin[E] {
	if k := len(it.free); k > 0 {
		b := bin[E]{seqs: it.free[k-1]}
		it.free = it.free[:k-1]
		return b
	}
	return bin[E]{}
}

func (it *packIter[E]) firstFit(s []E) {
	for i := range it.open {
		if b := &it.open[i]; b.used+len(s) <= it.n.length {
			b.seqs, b.used = append(b.seqs, s), b.used+len(s)
			return
		}
	}
	if len(it.open) == it.n.opts.Window {
		it.ready = append(it.ready, it.open[0])
		copy(it.open, it.open[1:])
		it.open = it.open[:len(it.open)-1]
	}
	b := it.newBin()
	b.seqs, b.used = append(b.seqs, s), len(s)
	it.open = append(it.open, b)
}

// packWindow packs the window's sequences best-fit-decreasing and closes the
// rows. The rows are kept in lists by room left, with a bit per nonempty list,
// so the best row for a sequence is the first set bit at or above its length.
// The rows' sequence lists are carved from one of two arenas, used in turn: the
// rows of the previous window not yet yielded move into the new one, so a warm
// packer allocates nothing.
func (it *packIter[E]) packWindow() {
	w := it.window
	if len(w) == 0 {
		return
	}
	slices.SortStableFunc(w, func(a, b []E) int { return cmp.Compare(len(b), len(a)) })
	L := it.n.length
	if it.byRoom == nil {
		it.byRoom, it.rooms = make([][]int, L+1), make([]uint64, L/64+1)
	}
	// Move the rows left over to the front of the queue.
	left := copy(it.ready, it.ready[it.head:])
	clear(it.ready[left:])
	it.ready, it.head = it.ready[:left], 0
	// Assign each sequence a row: rowOf, and the rows' uses.
	it.rowOf = it.rowOf[:0]
	first := len(it.ready)
	for _, s := range w {
		r := -1
		if room := it.firstRoom(len(s)); room >= 0 {
			k := len(it.byRoom[room]) - 1
			r = it.byRoom[room][k]
			if it.byRoom[room] = it.byRoom[room][:k]; k == 0 {
				it.rooms[room/64] &^= 1 << (room % 64)
			}
		} else {
			it.ready = append(it.ready, bin[E]{})
			r = len(it.ready) - 1
		}
		it.rowOf = append(it.rowOf, r)
		b := &it.ready[r]
		b.used += len(s)
		b.count++
		room := L - b.used
		it.byRoom[room] = append(it.byRoom[room], r)
		it.rooms[room/64] |= 1 << (room % 64)
	}
	for room := range it.byRoom { // the window's rows are closed
		it.byRoom[room] = it.byRoom[room][:0]
	}
	clear(it.rooms)
	// Carve the rows' lists from the other arena: the rows left over first.
	arena := it.arena[1-it.cur][:0]
	need := len(w)
	for _, b := range it.ready[:first] {
		need += len(b.seqs)
	}
	arena = slices.Grow(arena, need)
	for i := range it.ready[:first] {
		at := len(arena)
		arena = append(arena, it.ready[i].seqs...)
		it.ready[i].seqs = arena[at:len(arena):len(arena)]
	}
	for i := first; i < len(it.ready); i++ {
		b := &it.ready[i]
		at := len(arena)
		arena = arena[:at+b.count]
		b.seqs, b.count = arena[at:at:at+b.count], 0
	}
	for k, s := range w {
		b := &it.ready[it.rowOf[k]]
		b.seqs = append(b.seqs, s)
	}
	clear(it.arena[it.cur]) // the previous window's lists: all moved or yielded
	it.arena[1-it.cur], it.cur = arena, 1-it.cur
	clear(w)
	it.window = w[:0]
}

// firstRoom returns the least room at or above need that some row has, or -1.
func (it *packIter[E]) firstRoom(need int) int {
	for k := need / 64; k < len(it.rooms); k++ {
		word := it.rooms[k]
		if k == need/64 {
			word &^= 1<<(need%64) - 1
		}
		if word != 0 {
			return k*64 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

func (it *packIter[E]) next() (*Packed[E], error, bool) {
	if err := it.fill(); err != nil {
		return nil, err, false
	}
	if it.head == len(it.ready) {
		return nil, nil, false
	}
	rows := it.ready[it.head:min(it.head+it.n.rows, len(it.ready))]
	it.emit(rows)
	for i := range rows {
		if it.n.opts.Method == FirstFit { // best-fit's lists live in its arenas
			clear(rows[i].seqs)
			it.free = append(it.free, rows[i].seqs[:0])
		}
		rows[i] = bin[E]{}
	}
	if it.head += len(rows); it.head == len(it.ready) {
		it.ready, it.head = it.ready[:0], 0
	}
	return &it.out, nil, true
}

// emit writes the rows into the reused batch.
func (it *packIter[E]) emit(rows []bin[E]) {
	p, L := &it.out, it.n.length
	n := it.n.rows * L
	p.Tokens = container.Resize(p.Tokens, n)
	p.Segments = container.Resize(p.Segments, n)
	p.Positions = container.Resize(p.Positions, n)
	p.Rows, p.Length, p.Real, p.Padding = it.n.rows, L, len(rows), 0
	var zero E
	for r := range it.n.rows {
		tok, seg, pos := p.Tokens[r*L:(r+1)*L], p.Segments[r*L:(r+1)*L], p.Positions[r*L:(r+1)*L]
		at := 0
		if r < len(rows) {
			for k, s := range rows[r].seqs {
				copy(tok[at:], s)
				for i := range s {
					seg[at+i], pos[at+i] = int32(k+1), int32(i)
				}
				at += len(s)
			}
		}
		p.Padding += L - at
		for i := at; i < L; i++ {
			tok[i], seg[i], pos[i] = zero, 0, 0
		}
	}
}

func (it *packIter[E]) save(w *state.Writer) {
	w.String("pack")
	w.Int(it.n.length)
	w.Int(it.n.rows)
	w.Int(int(it.n.opts.Method))
	w.Int(it.n.opts.Window)
	w.Bool(it.ended)
	state.SaveValues(w, "stream.Iter.MarshalBinary", seqsOf(it.open))
	state.SaveValues(w, "stream.Iter.MarshalBinary", seqsOf(it.ready[it.head:]))
	state.SaveValues(w, "stream.Iter.MarshalBinary", it.window)
	it.src.save(w)
}

// seqsOf returns the sequences of the rows, a row to an element.
func seqsOf[E any](bins []bin[E]) [][][]E {
	out := make([][][]E, len(bins))
	for i, b := range bins {
		out[i] = b.seqs
	}
	return out
}

func (it *packIter[E]) load(r *state.Reader) {
	r.Enter("pack")
	r.Setting("row length", it.n.length)
	r.Setting("rows", it.n.rows)
	r.Setting("method", int(it.n.opts.Method))
	r.Setting("window", it.n.opts.Window)
	it.ended = r.Bool()
	open := state.LoadValues[[][]E](r, it.n.opts.Window)
	ready := state.LoadValues[[][]E](r, it.n.opts.Window+it.n.rows+len(r.Left()))
	it.window = state.LoadValues[[]E](r, it.n.opts.Window)
	if r.Err() != nil {
		return
	}
	it.open, it.ready, it.head = it.bins(r, open), it.bins(r, ready), 0
	for _, s := range it.window {
		if len(s) > it.n.length {
			r.Fail("a sequence of %d tokens in rows of %d", len(s), it.n.length)
		}
	}
	it.src.load(r)
}

// bins rebuilds rows from their sequences, checking that each fits a row.
func (it *packIter[E]) bins(r *state.Reader, rows [][][]E) []bin[E] {
	out := make([]bin[E], len(rows))
	for i, seqs := range rows {
		out[i].seqs = seqs
		for _, s := range seqs {
			out[i].used += len(s)
		}
		if out[i].used > it.n.length {
			r.Fail("a row of %d tokens in rows of %d", out[i].used, it.n.length)
		}
	}
	return out
}

func (it *packIter[E]) pause() { it.src.pause() }
func (it *packIter[E]) close() { it.src.close() }
