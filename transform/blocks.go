package transform

import "github.com/obskit/obskit/container"

// BlockStarts returns the blocks of the join (container.Blocked): the blocks of
// each part, one after another, a part with no blocks of its own being one
// block, so that a join of files (several RecordIO files, Parquet columns of
// several files) has a block per file or the files' own blocks. It allocates
// the starts on every call.
func (j *Joined[T]) BlockStarts() []int {
	var starts []int
	for p, part := range j.parts {
		s := container.BlockStarts(part)
		if s == nil {
			starts = append(starts, j.start[p])
			continue
		}
		for _, x := range s[:len(s)-1] {
			starts = append(starts, j.start[p]+x)
		}
	}
	return append(starts, j.Nobs())
}
