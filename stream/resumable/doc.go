// Package resumable is package stream with checkpoints: readers that save where
// they stand in a small serializable value and resume there exactly, after a
// restart, a preemption or a crash, yielding the values the uninterrupted stream
// would have yielded. A shuffle buffer, the rest of a batch, a mix's counters
// and a packer's open rows are part of the saved state, so nothing is lost or
// repeated on resume (the shuffle buffers of Hugging Face datasets and
// WebDataset are lost on resume: datasets #7901, webdataset #234).
//
//	s := resumable.Batches(resumable.ShuffleBuffer(resumable.Lines(open, 1<<20), 10000, seed), 32, index.Drop)
//	p, err := s.Start(saved) // saved: nil at the start, or the checkpoint of an earlier run
//	for batch, err := range p.All() {
//		train(batch)
//		if step%1000 == 0 {
//			saved, err = p.Save() // a few bytes, plus the values the nodes hold
//		}
//	}
//
// # Streams and passes
//
// A [Stream] is built like a chain of stream decorators, from sources ([Slice],
// [Seek], [Replay], [Lines]) through decorators named as package stream's ([Map],
// [MapErr], [Filter], [Take], [Batches], [Unbatch], [ShuffleBuffer],
// [BlockShuffle], [Cache]) and the two this package adds, [Mix] (mixing streams by
// weights, the stream form of package mix) and [Pack] (sequence packing). Each
// decorator yields what its namesake in package stream yields (the shuffles from
// rand.New(rand.NewPCG(seed, epoch))); [Repeat] runs epochs, each drawing its own
// order.
//
// [Stream.All] is a plain stream.Reader: every range is a new pass from the
// start, and it composes with every decorator of package stream (a
// stream.Prefetch at the end, say; decorators of package stream hold no saved
// state, so put the ones that hold values inside the resumable part). To save,
// start a [Pass] with [Stream.Start] and call [Pass.Save] between two values.
//
// # Why a pass, and not the Reader itself
//
// A stream.Reader is a function: the state of a pass lives in its local
// variables, which nothing outside it can read. So a resumable stream is a tree
// of nodes that each know their state, pulled value by value; between two values
// every node stands still and its state is that of the values it has yielded.
// The plain reader is kept as the way to consume a stream ([Pass.All] and
// [Stream.All] are stream.Readers), and the state is reached through the pass
// that the consumer holds, never through the values.
//
// # The saved state
//
// [Pass.Save] returns a versioned binary value: the kind, the settings and the
// state of each node, in order, closed by a CRC-32C checksum of all its bytes.
// [Stream.Start] checks the checksum before it reads anything else, so a state
// damaged on its way (a flipped bit, a cut, bytes added) returns an error
// wrapping [ErrState] that says so; it then checks the kinds and settings
// against the stream it resumes and returns an error wrapping [ErrState] that
// names the node and the difference (a buffer size of 10 in the state and 20 in
// the stream), rather than resuming into other data. Its size: 18 bytes of
// envelope (the magic, the version, the checksum), a few bytes per node, plus
// the values some nodes hold, encoded with encoding/gob (so they must be values
// gob encodes: exported fields, no functions or channels):
//
//	Slice, Seek, Replay, Lines         the position: a few bytes
//	Map, MapErr, Filter, Batches       nothing of their own (a batch is made within one step)
//	Take, Repeat, Mix                  counts: a few bytes (per source for Mix)
//	Unbatch                            the rest of the current batch
//	ShuffleBuffer, BlockShuffle        the buffer (up to its size) and the generator
//	Pack                               the sequences of the rows not yet yielded
//	Cache                              a position; the cached values are not saved
//
// Sources resume in O(1) ([Slice], [Seek], [Lines] by seeking to a byte offset)
// or by reading again what came before ([Replay], for any reader that yields the
// same values on every pass).
package resumable
