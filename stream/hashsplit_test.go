package stream_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/stream"
	"github.com/obskit/obskit/subset"
)

type record struct {
	User string
	N    int
}

// records returns a stream of n records of users user-0 .. user-(m-1), then
// err if it is not nil.
func records(n, m int, err error) stream.Stream[record] {
	return stream.Replay(func(yield func(record, error) bool) {
		for i := range n {
			if !yield(record{fmt.Sprint("user-", i*7%m), i}, nil) {
				return
			}
		}
		if err != nil {
			yield(record{}, err)
		}
	})
}

// TestHashPart: the parts of a stream are those subset.HashSplit makes of the
// same records held in a container, in order, every record in exactly one.
func TestHashPart(t *testing.T) {
	const n = 500
	h, err := subset.NewHash("stream", 0.6, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	all, err := stream.Collect(records(n, 97, nil))
	if err != nil {
		t.Fatal(err)
	}
	parts, err := subset.HashSplit(container.FromSlice(all), container.FromFunc(n, func(i int) string { return all[i].User }), h)
	if err != nil {
		t.Fatal(err)
	}
	user := func(r record) string { return r.User }
	total := 0
	for p := range h.Parts() {
		got, err := read(t, stream.HashPart(records(n, 97, nil), h, p, user))
		if err != nil {
			t.Fatal(err)
		}
		if want := container.Collect(parts[p]); !slices.Equal(got, want) {
			t.Errorf("part %d: %d records, want the %d of HashSplit", p, len(got), len(want))
		}
		total += len(got)
	}
	if total != n {
		t.Errorf("the parts hold %d records, want %d", total, n)
	}
	// Ids as bytes give the same parts.
	userBytes := func(r record) []byte { return []byte(r.User) }
	i := 0
	for r, err := range stream.HashPart(records(n, 97, nil), h, 1, userBytes).All() {
		if err != nil || r != parts[1].GetObs(i) {
			t.Fatalf("byte ids: record %d is %v (%v), want %v", i, r, err, parts[1].GetObs(i))
		}
		i++
	}
}

func TestHashPartErrorsAndBreak(t *testing.T) {
	h, err := subset.NewHash("stream", 0.5)
	if err != nil {
		t.Fatal(err)
	}
	user := func(r record) string { return r.User }
	fail := errors.New("source failed")
	got, last := read(t, stream.HashPart(records(40, 40, fail), h, 0, user))
	if !errors.Is(last, fail) || len(got) == 0 || len(got) == 40 {
		t.Errorf("%d records then %v, want some of 40 then the source's error", len(got), last)
	}
	for range stream.HashPart(records(40, 40, nil), h, 0, user).All() {
		break // an early break stops the pass
	}
	for _, tc := range []struct {
		arg string
		f   func()
	}{
		{"stream", func() { stream.HashPart(stream.Stream[record]{}, h, 0, user) }},
		{"hash", func() { stream.HashPart(records(1, 1, nil), nil, 0, user) }},
		{"id function", func() { stream.HashPart[record, string](records(1, 1, nil), h, 0, nil) }},
		{"part", func() { stream.HashPart(records(1, 1, nil), h, 2, user) }},
		{"part", func() { stream.HashPart(records(1, 1, nil), h, -1, user) }},
	} {
		func() {
			defer func() {
				ae, ok := recover().(*container.ArgError)
				if !ok || ae.Op != "stream.HashPart" || ae.Arg != tc.arg {
					t.Errorf("bad %s: panic %v, want *container.ArgError for it", tc.arg, ae)
				}
			}()
			tc.f()
		}()
	}
}
