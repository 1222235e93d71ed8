package main

import (
	"fmt"
	"github.com/obskit/obskit/cmd/internal/progress"
	"maps"
	"slices"
	"strconv"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/datasets"
)

// A dataset is what the demo classifies: features with one observation per
// index of their first axis, and the class of every observation.
type dataset[E arraycontainer.Number] struct {
	source  string                   // where the data came from, for the report
	x       *arraycontainer.Array[E] // features, observations along the first axis
	y       []int                    // class codes 0..len(classes)-1, one per observation
	classes []string                 // class names: code k is classes[k]
}

// A job is a dataset of any element type: the loaders choose the type from the
// file, the experiment runs on it.
type job interface {
	experiment(cfg config, p *progress.Progress) (*report, error)
}

// load returns the data cfg names: the files of -x and -y (or -target), or the
// embedded digits when there are none.
func load(cfg config) (job, error) {
	if cfg.x == "" {
		return digits()
	}
	return loadFiles(cfg)
}

// digits returns the handwritten digits embedded in package datasets.
func digits() (job, error) {
	t := datasets.Digits()
	lab := labels{name: "datasets.Digits"}
	lab.codes, lab.classes = encode(t.Y())
	return newDataset("the handwritten digits embedded in the binary (datasets.Digits)", "datasets.Digits", t.X(), lab)
}

// labels are the classes of the observations, read from a file, a CSV column
// or the embedded data.
type labels struct {
	name    string   // where they came from, for errors
	codes   []int    // class codes 0..len(classes)-1, one per observation
	classes []string // class names: code k is classes[k]
}

// newDataset returns the dataset of the features x, read from xName,
// and lab, after checking that x holds observations, one per label.
func newDataset[E arraycontainer.Number](source, xName string, x *arraycontainer.Array[E], lab labels) (job, error) {
	d := &dataset[E]{source: source, x: x, y: lab.codes, classes: lab.classes}
	var err error
	switch {
	case x.Rank() == 0:
		err = fmt.Errorf("%s holds a single value (a 0-d array), not observations", xName)
	case x.Nobs() == 0:
		err = fmt.Errorf("%s holds no observations", xName)
	case x.Nobs() != len(lab.codes):
		err = fmt.Errorf("%s holds %d observations but %s holds %d labels: they must match one to one",
			xName, x.Nobs(), lab.name, len(lab.codes))
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// encode numbers the distinct values in increasing order: codes[i] is the
// position of values[i] among them, and classes names them.
func encode(values []int) (codes []int, classes []string) {
	index := make(map[int]int)
	for _, v := range values {
		index[v] = 0
	}
	sorted := slices.Sorted(maps.Keys(index))
	classes = make([]string, len(sorted))
	for k, v := range sorted {
		index[v] = k
		classes[k] = strconv.Itoa(v)
	}
	codes = make([]int, len(values))
	for i, v := range values {
		codes[i] = index[v]
	}
	return codes, classes
}
