// Package cpuclock reads the CPU time of the calling thread, for benchmarks that
// compare a kit operation with its baseline on a machine shared with other work.
//
// Wall time counts the moments a benchmark's thread waited for a core while other
// processes ran; on a busy 2-core machine that noise swamps the difference being
// measured. Thread CPU time counts only the time the thread ran, memory stalls
// included. A benchmark locks its goroutine to its thread (runtime.LockOSThread)
// and brackets each side with [Thread].
package cpuclock
