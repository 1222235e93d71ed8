package index_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/index"
)

func ExampleNewSteps() {
	// A loop's batches are the steps of a schedule of one part: 10 positions
	// per epoch in batches of 3, the four tails. A batch holds stream
	// positions, position g being position g%10 of epoch g/10.
	for _, tail := range []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver} {
		s := index.NewSteps(10, 3, 1, false, tail)
		fmt.Printf("%-9s", tail)
		for e := range 2 {
			fmt.Print(" |")
			for k := range s.Len(e) {
				pos, real := s.Batch(nil, e, k, 0)
				fmt.Print(" ", pos[:real], pos[real:])
			}
		}
		fmt.Println()
	}
	// Output:
	// keep      | [0 1 2] [] [3 4 5] [] [6 7 8] [] [9] [] | [10 11 12] [] [13 14 15] [] [16 17 18] [] [19] []
	// drop      | [0 1 2] [] [3 4 5] [] [6 7 8] [] | [10 11 12] [] [13 14 15] [] [16 17 18] []
	// pad       | [0 1 2] [] [3 4 5] [] [6 7 8] [] [9] [0 1] | [10 11 12] [] [13 14 15] [] [16 17 18] [] [19] [10 11]
	// roll-over | [0 1 2] [] [3 4 5] [] [6 7 8] [] | [9 10 11] [] [12 13 14] [] [15 16 17] []
}

func ExampleSteps_Span() {
	// With roll-over a batch may start in the previous epoch: it belongs to
	// the epoch of its last position.
	s := index.NewSteps(10, 4, 1, false, index.RollOver)
	for e := range 3 {
		fmt.Print("epoch ", e, ":")
		for k := range s.Len(e) {
			start, end := s.Span(e, k)
			fmt.Printf(" [%d,%d)", start, end)
		}
		fmt.Println()
	}
	// Output:
	// epoch 0: [0,4) [4,8)
	// epoch 1: [8,12) [12,16) [16,20)
	// epoch 2: [20,24) [24,28)
}

func ExampleSteps_Batch() {
	// A loop that shuffles every epoch maps each stream position through the
	// permutation of its epoch: a roll-over batch reads the end of one epoch's
	// permutation and the start of the next one's.
	perms := [][]int{{4, 2, 0, 1, 3}, {1, 0, 3, 4, 2}}
	s := index.NewSteps(5, 3, 1, false, index.RollOver)
	for k := range s.Len(1) {
		pos, _ := s.Batch(nil, 1, k, 0)
		for j, g := range pos {
			pos[j] = perms[g/5][g%5]
		}
		fmt.Println(pos)
	}
	// Output:
	// [1 3 1]
	// [0 3 4]
}

func ExampleSteps_MaxEpoch() {
	s := index.NewSteps(1_000_000, 128, 1, false, index.Keep)
	fmt.Println(s.MaxEpoch())
	// Output: 9223372036853
}

func ExamplePart() {
	// Three workers, PyTorch DistributedSampler style: strided, padded so every
	// worker gets the same count; and MXNet style: contiguous blocks, together
	// exactly the positions.
	for rank := range 3 {
		ddp := index.Part{Index: rank, Parts: 3, Strided: true, Tail: index.Pad}
		mx := index.Part{Index: rank, Parts: 3}
		fmt.Println(rank, ddp.Positions(10), mx.Positions(10))
	}
	// Output:
	// 0 [0 3 6 9] [0 1 2 3]
	// 1 [1 4 7 0] [4 5 6]
	// 2 [2 5 8 1] [7 8 9]
}

func ExamplePart_Pos() {
	// The partition rule as index arithmetic: a batch loop maps these positions
	// through its own per-epoch permutation, without building a list.
	p := index.Part{Index: 1, Parts: 4, Strided: true, Tail: index.Drop}
	n := 10
	for i := range p.Len(n) {
		fmt.Print(p.Pos(n, i), " ")
	}
	fmt.Println()
	// Output: 1 5
}

func ExamplePart_Validate() {
	p := index.Part{Index: 3, Parts: 3}
	fmt.Println(p.Validate())
	// Output: index.Part: part 3 outside [0, 3): invalid part
}

func ExampleChunk() {
	// 10 positions in 3 blocks: the larger blocks first.
	for j := range 3 {
		lo, hi := index.Chunk(10, 3, j)
		fmt.Printf("[%d,%d) ", lo, hi)
	}
	fmt.Println()
	// Output: [0,4) [4,7) [7,10)
}

func ExamplePermInto() {
	// One slice reused for every epoch's permutation; it equals rng.Perm.
	perm := make([]int, 6)
	a, b := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	for range 2 {
		index.PermInto(perm, a)
		fmt.Println(perm, b.Perm(6))
	}
	// Output:
	// [1 5 2 0 3 4] [1 5 2 0 3 4]
	// [1 3 5 4 2 0] [1 3 5 4 2 0]
}

func ExampleShuffle() {
	// Shuffle moves any list of positions by the permutation PermInto draws.
	batch := []int{10, 11, 12, 13, 14, 15}
	index.Shuffle(batch, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(batch)
	// Output: [11 15 12 10 13 14]
}

func ExampleTail() {
	for _, t := range []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver} {
		fmt.Print(t, " ")
	}
	fmt.Println()
	// Output: keep drop pad roll-over
}

func ExampleCipher() {
	// A permutation of 10 positions computed position by position: no array,
	// and any position of any epoch at once.
	for epoch := range 2 {
		c := index.NewCipher(10, 42, epoch)
		for i := range c.N() {
			fmt.Print(c.At(i), " ")
		}
		fmt.Println("| element 3 is at", c.Pos(3))
	}
	big := index.NewCipher(1_000_000_000_000, 42, 0) // 10^12 positions in 240 bytes
	fmt.Println(big.At(999_999_999_999), big.Pos(big.At(999_999_999_999)))
	// Output:
	// 5 4 2 3 6 0 9 7 8 1 | element 3 is at 3
	// 8 5 0 6 9 2 3 7 1 4 | element 3 is at 6
	// 889315574037 999999999999
}

func ExampleCipher_Batches() {
	// One shuffled epoch of 10 positions in batches of 4, the short batch
	// dropped: the index lists of a stream over a container
	// (stream.Gather(x, c.Batches(4, index.Drop))), with no permutation array.
	c := index.NewCipher(10, 42, 0)
	for idx := range c.Batches(4, index.Drop) {
		fmt.Println(idx)
	}
	// Output:
	// [5 4 2 3]
	// [6 0 9 7]
}

func ExampleBlocks() {
	// 20 positions in blocks of 4, shuffled within windows of 2 blocks: each
	// group of 8 positions reads 2 blocks only (a file is read two blocks at a
	// time), in a random order.
	b := index.NewBlocks(20, 4, 2, 42, 0)
	for i := range b.N() {
		fmt.Print(b.At(i), " ")
		if i == 7 || i == 15 {
			fmt.Print("| ")
		}
	}
	fmt.Println()
	// Output:
	// 6 13 14 12 4 15 5 7 | 8 1 11 0 3 2 10 9 | 19 17 18 16
}

func ExampleSteps() {
	// 10 positions, 2 parts taking batches of 2: each step takes 4 positions.
	// The job stops after one step and resumes with 4 parts of 1: the rest of
	// the epoch is dealt out anew, nothing lost, nothing twice; the last step
	// is padded (after the real positions) with the epoch's first ones.
	s := index.NewSteps(10, 2, 2, false, index.Pad)
	show := func(s index.Steps, e, k int) {
		for p := range s.Parts() {
			pos, real := s.Batch(nil, e, k, p)
			if p > 0 {
				fmt.Print("; ")
			}
			fmt.Print("part ", p, " ", pos[:real], pos[real:])
		}
		fmt.Println()
	}
	show(s, 0, 0)
	epoch, consumed, step := s.After(0, 0)
	fmt.Println("saved: epoch", epoch, "consumed", consumed, "step", step)
	r, err := index.NewSteps(10, 1, 4, false, index.Pad).Resume(epoch, consumed, step)
	if err != nil {
		panic(err)
	}
	for k := range r.Len(0) {
		show(r, 0, k)
	}
	// Output:
	// part 0 [0 1] []; part 1 [2 3] []
	// saved: epoch 0 consumed 4 step 1
	// part 0 [4] []; part 1 [5] []; part 2 [6] []; part 3 [7] []
	// part 0 [8] []; part 1 [9] []; part 2 [] [0]; part 3 [] [1]
}
