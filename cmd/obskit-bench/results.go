package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Results is everything one run of the suite measured: the machine, the commands,
// every benchmark value, and what was derived from them. It is a machine's file
// in bench/results/, from which report draws that machine's tables and charts.
type Results struct {
	Date     time.Time `json:"date"`
	Duration string    `json:"duration"`
	// Count is the number of runs of every benchmark (go test -count, peers.py
	// --runs); Quick says the runs were cut to one iteration each, to test the
	// pipeline, so the figures mean nothing.
	Count int  `json:"count"`
	Quick bool `json:"quick,omitempty"`
	// Commands are the exact commands that produced the figures, in order.
	Commands []string `json:"commands"`
	Machine  Machine  `json:"machine"`
	// Python describes the interpreter and packages of the peers, when they ran.
	Python *PythonInfo `json:"python,omitempty"`
	// Skipped lists the peers that were not measured and why.
	Skipped   []Skip     `json:"skipped,omitempty"`
	Workloads []Workload `json:"workloads"`
	Targets   []Target   `json:"targets"`
	// Context holds figures that explain the targets (their Want is empty).
	Context []Target `json:"context,omitempty"`
	// Failures lists the go test runs that failed; their benchmarks are missing.
	Failures []string `json:"failures,omitempty"`
	// Benchmarks holds every value go test reported, by benchmark and unit.
	Benchmarks Samples `json:"benchmarks"`
}

// PythonInfo describes the Python side of a comparison.
type PythonInfo struct {
	Interpreter string            `json:"interpreter"`
	Versions    map[string]string `json:"versions"`
}

// Skip is a set of peers that were not measured, with the reason.
type Skip struct {
	Peers  string `json:"peers"`
	Reason string `json:"reason"`
}

// Measure is one quantity measured in several runs: a throughput in its
// workload's unit, or a target's metric.
type Measure struct {
	Name   string    `json:"name"`
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Runs   []float64 `json:"runs"`
}

// newMeasure summarizes the values of runs.
func newMeasure(name string, runs []float64) Measure {
	s := slices.Clone(runs)
	slices.Sort(s)
	m := Measure{Name: name, Runs: runs}
	if n := len(s); n > 0 {
		m.Min, m.Max = s[0], s[n-1]
		m.Median = s[n/2]
		if n%2 == 0 {
			m.Median = (s[n/2-1] + s[n/2]) / 2
		}
	}
	return m
}

func (r *Results) save(path string) error {
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Slug names the machine in file names, from its CPU model, microarchitecture
// and number of CPUs: "amd-epyc-zen-5-2cpu". Results of one machine replace
// each other; those of others sit beside them.
func (m Machine) Slug() string {
	name := m.CPU + " " + m.Microarch
	var b strings.Builder
	dash := false
	for _, r := range strings.NewReplacer("(r)", "", "(tm)", "").Replace(strings.ToLower(name)) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	slug := strings.TrimSuffix(b.String(), "-")
	if slug == "" {
		slug = "unknown-cpu"
	}
	return fmt.Sprintf("%s-%dcpu", slug, m.CPUs)
}

// resultsPath is where compare writes the results of machine m: out itself,
// or the machine's file in out when out is a directory (or ends in a slash).
func resultsPath(out string, m Machine) string {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() || strings.HasSuffix(out, "/") {
		return filepath.Join(out, m.Slug()+".json")
	}
	return out
}

// loadAll reads the results file at path, or every .json file of the
// directory at path, newest run first.
func loadAll(path string) ([]*Results, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		r, err := loadResults(path)
		if err != nil {
			return nil, err
		}
		return []*Results{r}, nil
	}
	files, err := filepath.Glob(filepath.Join(path, "*.json"))
	if err != nil {
		return nil, err
	}
	var rs []*Results
	for _, f := range files {
		r, err := loadResults(f)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s: no results files (*.json)", path)
	}
	slices.SortStableFunc(rs, func(a, b *Results) int { return b.Date.Compare(a.Date) })
	return rs, nil
}

func loadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}
