// Package cputime reads the CPU time of the process and of the calling
// thread, for the benchmarks and reports that count work per CPU second (a
// figure a busy machine disturbs less than the wall clock).
package cputime
