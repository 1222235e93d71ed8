package imagedata

import (
	"cmp"
	"slices"
	"sync"
)

// Skips is the record of the images a container of decoded images skipped
// ([SkipBad]): how many times an image was skipped, and which images, each
// with the reason and the image that took its place. Give the same Skips to
// the containers of one loop, read it during or after the loop. It is safe
// for concurrent use; the zero value is an empty record.
type Skips struct {
	mu     sync.Mutex
	count  int
	images map[int]Skip
}

// A Skip is an image that could not be read or decoded, and the one decoded
// in its place.
type Skip struct {
	Index int   // the skipped image's index in its container
	With  int   // the index of the image decoded in its place (the first time)
	Err   error // why it was skipped (the first time): wraps ErrRead and the cause
}

func (s *Skips) add(k Skip) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	if s.images == nil {
		s.images = map[int]Skip{}
	}
	if _, ok := s.images[k.Index]; !ok {
		s.images[k.Index] = k
	}
}

// Count returns the number of skips so far: an image skipped in three epochs
// counts three times.
func (s *Skips) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// Images returns the images skipped so far, each once, by index, newly
// allocated.
func (s *Skips) Images() []Skip {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Skip, 0, len(s.images))
	for _, k := range s.images {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Skip) int { return cmp.Compare(a.Index, b.Index) })
	return out
}
