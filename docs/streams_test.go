package docs_test

// The example of streams.md.

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/stream"
)

// tokens parses a line of token ids separated by spaces.
func tokens(line string) ([]int, error) {
	var ids []int
	for _, f := range strings.Fields(line) {
		id, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func Example_paddingMasks() {
	// A tokenized corpus, one sentence per line.
	const corpus = "11 12 13\n21 22\n31 32 33 34 35\n41\n51 52\n61 62 63 64 65 66\n"
	lines := stream.Lines(func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(corpus)), nil // os.Open("train.txt") in real life
	})
	sentences := stream.MapErr(lines, tokens)

	// Sort windows of 4 sentences by length so that batches need little
	// padding, batch them by 2, and pad each batch to its longest sentence.
	byLength := stream.SortWindow(sentences, 4, func(a, b []int) int { return len(a) - len(b) })
	for m, err := range stream.Mask(stream.Batches(byLength, 2, index.Keep), 0) {
		if err != nil {
			fmt.Println("error:", err) // a read or parse error ends the stream, in place
			return
		}
		for i := range m.Len() {
			fmt.Print(m.Row(i), m.MaskRow(i), " ")
		}
		fmt.Println("| width", m.Width)
	}
	// Output:
	// [41 0] [1 0] [21 22] [1 1] | width 2
	// [11 12 13 0 0] [1 1 1 0 0] [31 32 33 34 35] [1 1 1 1 1] | width 5
	// [51 52 0 0 0 0] [1 1 0 0 0 0] [61 62 63 64 65 66] [1 1 1 1 1 1] | width 6
}
