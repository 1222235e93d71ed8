package index

// NewCipherRounds is NewCipher with another number of rounds (even, 2 to 16),
// for the test that compares counts.
func NewCipherRounds(n int, seed uint64, epoch, rounds int) Cipher {
	return newCipher(n, seed, epoch, rounds)
}
