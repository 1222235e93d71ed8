package index

// NewCipherRounds is NewCipher with another number of rounds (even, 2 to 16),
// for the test that compares counts.
func NewCipherRounds(n int, seed uint64, epoch, rounds int) Cipher {
	return newCipher(n, seed, epoch, rounds)
}

// TableBlocks is NewBlocksAt that keeps the table whatever the sizes, for the
// test that blocks of one size computed and looked up agree.
func TableBlocks(starts []int, window int, seed uint64, epoch int) Blocks {
	checkStarts("index.TableBlocks", starts)
	return tableBlocks(starts, window, seed, epoch)
}

// Tabled reports whether b keeps a table of its blocks.
func (b *Blocks) Tabled() bool { return b.starts != nil }
