package main

import (
	"github.com/obskit/obskit/cmd/internal/progress"
	"iter"
	"time"

	"github.com/obskit/obskit/eachobs"
)

// A meter adds up what a kind of batch loop did and how long it took.
type meter struct {
	Passes  int   // loops run (one pass over a part of the data each)
	Batches int   // batches yielded
	Obs     int   // observations yielded
	Bytes   int64 // bytes gathered into the batches: features and labels
	// Total is the wall time of the loops; Body the part of it spent in the
	// loop bodies (the classifier's arithmetic). Total-Body is the time the
	// loops took to shuffle and gather the batches.
	Total, Body time.Duration
}

// timed yields the batches of seq and records them in m: the observations,
// obsBytes bytes gathered per observation (every slot of a batch), the time of
// the loop and of its body. It advances bar by the observations of each batch.
func timed[B any](seq iter.Seq[eachobs.Batch[B]], m *meter, obsBytes int64, bar *progress.Bar) iter.Seq[eachobs.Batch[B]] {
	return func(yield func(eachobs.Batch[B]) bool) {
		start := time.Now()
		defer func() {
			m.Total += time.Since(start)
			m.Passes++
		}()
		for b := range seq {
			t := time.Now()
			more := yield(b)
			bar.Add(b.Real)
			m.Body += time.Since(t)
			m.Batches++
			m.Obs += b.Real
			m.Bytes += int64(len(b.Indices)) * obsBytes
			if !more {
				return
			}
		}
	}
}

// ObsPerSec returns the observations per second of the whole loops.
func (m meter) ObsPerSec() float64 { return rate(float64(m.Obs), m.Total) }

// MBPerSec returns the megabytes (10^6 bytes) gathered per second of the whole
// loops.
func (m meter) MBPerSec() float64 { return rate(float64(m.Bytes)/1e6, m.Total) }

// GatherMBPerSec returns the megabytes gathered per second of the loops' own
// time, the loop bodies left out.
func (m meter) GatherMBPerSec() float64 { return rate(float64(m.Bytes)/1e6, m.Total-m.Body) }

func rate(x float64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return x / d.Seconds()
}
