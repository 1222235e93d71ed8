package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"
)

// Results is everything one run of the suite measured: the machine, the
// commands, every benchmark value, and what was derived from them when they
// were measured (so that a file keeps the targets and tables of its own
// suite). It is a machine's file in bench/results/, from which report draws
// that machine's section and chart.
type Results struct {
	Date     time.Time `json:"date"`
	Duration string    `json:"duration"`
	// Count is the number of runs of every benchmark (go test -count); Quick
	// says the runs were cut to one iteration each, to test the pipeline.
	Count    int      `json:"count"`
	Quick    bool     `json:"quick,omitempty"`
	Commands []string `json:"commands"` // the commands that produced the figures, in order
	Machine  Machine  `json:"machine"`
	// Python describes the interpreter and packages of the peers, when they
	// ran; Skipped lists the peers that were not measured and why.
	Python    *PythonInfo `json:"python,omitempty"`
	Skipped   []Skip      `json:"skipped,omitempty"`
	Workloads []Workload  `json:"workloads"`
	Targets   []Target    `json:"targets"`
	Context   []Target    `json:"context,omitempty"` // figures that explain the targets (no Want)
	// Tables are the experiments' tables (markdown), as drawn when measured.
	Tables     string   `json:"tables,omitempty"`
	Failures   []string `json:"failures,omitempty"` // go test runs that failed
	Benchmarks Samples  `json:"benchmarks"`         // every value go test reported
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

// Measure is one quantity measured in several runs.
type Measure struct {
	Name   string    `json:"name"`
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Runs   []float64 `json:"runs"`
}

// newMeasure summarizes the values of runs (benchmath's median).
func newMeasure(name string, runs []float64) Measure {
	m := Measure{Name: name, Runs: runs}
	if len(runs) > 0 {
		s := benchmath.NewSample(slices.Clone(runs), &benchmath.DefaultThresholds)
		m.Median = benchmath.AssumeNothing.Summary(s, 0.95).Center
		m.Min, m.Max = s.Values[0], s.Values[len(s.Values)-1]
	}
	return m
}

// Slug names the machine in file names, from its CPU model, microarchitecture
// and number of CPUs: "amd-epyc-zen-5-2cpu".
func (m Machine) Slug() string {
	var b strings.Builder
	for _, r := range strings.NewReplacer("(r)", "", "(tm)", "").Replace(strings.ToLower(m.CPU + " " + m.Microarch)) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return fmt.Sprintf("%s-%dcpu", strings.TrimSuffix(b.String(), "-"), m.CPUs)
}

// same reports whether a and b describe one machine: one CPU model and count,
// and the same family and microarchitecture where both files record them
// (results files written before those fields existed lack them).
func (m Machine) same(o Machine) bool {
	eq := func(a, b string) bool { return a == "" || b == "" || a == b }
	return m.CPU == o.CPU && m.CPUs == o.CPUs && eq(m.Family, o.Family) && eq(m.Microarch, o.Microarch)
}

// save writes r to out, or to its machine's file in out when out is a
// directory (or ends in a slash), where it removes the other files of the
// same machine; it returns the path written.
func (r *Results) save(out string) (string, error) {
	data, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return "", err
	}
	path := out
	if fi, err := os.Stat(out); err == nil && fi.IsDir() || strings.HasSuffix(out, "/") {
		path = filepath.Join(out, r.Machine.Slug()+".json")
		old, _ := filepath.Glob(filepath.Join(out, "*.json"))
		for _, f := range old {
			if o, err := loadResults(f); err == nil && f != path && o.Machine.same(r.Machine) {
				if err := os.Remove(f); err != nil {
					return "", err
				}
			}
		}
	}
	return path, os.WriteFile(path, append(data, '\n'), 0o644)
}

// loadAll reads the results file at path, or every .json file of the
// directory at path, newest run first, keeping the newest of each machine.
func loadAll(path string) ([]*Results, error) {
	files := []string{path}
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if fi.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "*.json"))
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no results files (*.json)", path)
		}
	}
	var rs []*Results
	for _, f := range files {
		r, err := loadResults(f)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	slices.SortStableFunc(rs, func(a, b *Results) int { return b.Date.Compare(a.Date) })
	var out []*Results
	for _, r := range rs {
		if !slices.ContainsFunc(out, func(o *Results) bool { return o.Machine.same(r.Machine) }) {
			out = append(out, r)
		}
	}
	return out, nil
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
