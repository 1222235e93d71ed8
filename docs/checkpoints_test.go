package docs_test

// The example of checkpoints.md.

import (
	"fmt"
	"strings"

	"github.com/obskit/obskit/mix"
	"github.com/obskit/obskit/stream/resumable"
)

// corpus returns a resumable stream of the sentences of a text, one a line,
// each as the lengths of its words (a stand-in for token ids).
func corpus(text string) resumable.Stream[[]int] {
	lines := resumable.Slice(strings.Split(text, "\n")) // resumable.Lines(open, limit) for a file
	return resumable.Map(lines, func(line string) []int {
		var ids []int
		for _, w := range strings.Fields(line) {
			ids = append(ids, len(w))
		}
		return ids
	})
}

// pipeline is built the same way by the first run and by every restart.
func pipeline() resumable.Stream[*resumable.Packed[int]] {
	web := corpus("the cat sat\non the mat\na dog\nran far away\nand back")
	books := corpus("call me ishmael\nit was the best of times")
	mixed := resumable.Mix(mix.AllExhausted, []float64{2, 1}, 7, web, books)
	shuffled := resumable.ShuffleBuffer(mixed, 4, 42)
	return resumable.Pack(shuffled, 6, 2, resumable.PackOptions{Method: resumable.FirstFit, Window: 2})
}

func Example_checkpoints() {
	// The first run packs one batch of 2 rows of 6 tokens and is stopped.
	p, _ := pipeline().Start(nil)
	var saved []byte
	for b, err := range p.All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println("run 1:", b.Tokens, b.Segments)
		saved, _ = p.Save() // a checkpoint: the shuffle buffer and the open rows are in it
		break
	}

	// The restarted run resumes exactly where the first one stood: its batches
	// are those an uninterrupted run packs after the first.
	q, err := pipeline().Start(saved)
	if err != nil {
		fmt.Println("error:", err) // ErrState if the pipeline changed
		return
	}
	for b, err := range q.All() {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println("run 2:", b.Tokens, b.Segments, "real rows", b.Real)
	}
	// Output:
	// run 1: [1 3 3 3 3 0 2 3 3 4 2 5] [1 1 2 2 2 0 1 1 1 1 1 1]
	// run 2: [2 3 3 3 4 0 3 3 4 4 2 7] [1 1 1 2 2 0 1 1 1 2 2 2] real rows 2
}
