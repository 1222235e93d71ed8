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

// records returns a reader of n records of users user-0 .. user-(m-1), then
// err if it is not nil.
func records(n, m int, err error) stream.Reader[record] {
	return func(yield func(record, error) bool) {
		for i := range n {
			if !yield(record{fmt.Sprint("user-", i*7%m), i}, nil) {
				return
			}
		}
		if err != nil {
			yield(record{}, err)
		}
	}
}

// TestHashPart: the parts of a stream are those subset.HashSplit makes of the
// same records held in a container, in order, every record in exactly one.
func TestHashPart(t *testing.T) {
	const n = 500
	h, err := subset.NewHash("stream", 0.6, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	var all []record
	for r := range records(n, 97, nil) {
		all = append(all, r)
	}
	parts, err := subset.HashSplit(container.FromSlice(all), container.FromFunc(n, func(i int) string { return all[i].User }), h)
	if err != nil {
		t.Fatal(err)
	}
	user := func(r record) string { return r.User }
	total := 0
	for p := range h.Parts() {
		var got []record
		for r, err := range stream.HashPart(records(n, 97, nil), h, p, user) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, r)
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
	for r, err := range stream.HashPart(records(n, 97, nil), h, 1, userBytes) {
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
	var last error
	count := 0
	for _, err := range stream.HashPart(records(40, 40, fail), h, 0, user) {
		if last != nil {
			t.Fatal("a value after the error")
		}
		if err != nil {
			last = err
			continue
		}
		count++
	}
	if !errors.Is(last, fail) || count == 0 || count == 40 {
		t.Errorf("%d records then %v, want some of 40 then the source's error", count, last)
	}
	for range stream.HashPart(records(40, 40, nil), h, 0, user) {
		break // an early break stops the pass
	}
	for _, tc := range []struct {
		arg string
		f   func()
	}{
		{"reader", func() { stream.HashPart(nil, h, 0, user) }},
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

func ExampleHashPart() {
	// A log of events by user: the events of a held-out quarter of the users
	// (part 1 of 0.75 and the rest), stable as the log grows, read as it streams.
	type event struct {
		User string
		Page int
	}
	log := stream.Reader[event](func(yield func(event, error) bool) {
		for i := range 12 {
			if !yield(event{fmt.Sprint("user-", i%5), i}, nil) {
				return
			}
		}
	})
	h, err := subset.NewHash("holdout-v1", 0.75)
	if err != nil {
		panic(err)
	}
	user := func(e event) string { return e.User }
	for e, err := range stream.HashPart(log, h, 1, user) {
		if err != nil {
			panic(err)
		}
		fmt.Println(e)
	}
	// Output:
	// {user-0 0}
	// {user-4 4}
	// {user-0 5}
	// {user-4 9}
	// {user-0 10}
}
