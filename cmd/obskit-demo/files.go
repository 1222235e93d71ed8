package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/csvdata"
	"github.com/obskit/obskit/idx"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// format is a file format the demo reads.
type format string

const (
	formatNPY format = ".npy"
	formatIDX format = "IDX"
	formatCSV format = "CSV"
)

// detect tells the format of the file at path from its first bytes (the magic
// string of .npy, the two zero bytes, type code and rank of IDX, the gzip magic
// of a downloaded IDX file) or else from its name: CSV, which has no magic, by
// the .csv extension, and damaged files by .npy or an IDX name (such as
// train-images-idx3-ubyte), so that their reader names the damage.
func detect(path string) (format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return "", fmt.Errorf("%s is a directory, not a data file", path)
	}
	head := make([]byte, 6)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("\x93NUMPY")):
		return formatNPY, nil
	case len(head) >= 4 && head[0] == 0 && head[1] == 0 && isIDXType(head[2]) && head[3] > 0,
		bytes.HasPrefix(head, []byte{0x1f, 0x8b}): // gzip: MNIST is downloaded as .gz
		return formatIDX, nil
	}
	// No magic number: the name decides, and the format's reader says what is
	// wrong with a damaged .npy or IDX file.
	name := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(name, ".csv"):
		return formatCSV, nil
	case strings.HasSuffix(name, ".npy"):
		return formatNPY, nil
	case strings.Contains(name, "idx") || strings.HasSuffix(name, "-ubyte"):
		return formatIDX, nil
	}
	return "", fmt.Errorf("%s: not a .npy, IDX or CSV file (no .npy or IDX magic number, and no .csv, .npy or IDX name)", path)
}

func isIDXType(b byte) bool {
	switch b {
	case idx.Uint8, idx.Int8, idx.Int16, idx.Int32, idx.Float32, idx.Float64:
		return true
	}
	return false
}

// loadFiles reads the files named by cfg.x and cfg.y or cfg.target.
func loadFiles(cfg config) (job, error) {
	fx, err := detect(cfg.x)
	if err != nil {
		return nil, err
	}
	if fx == formatCSV {
		if cfg.y != "" {
			return nil, fmt.Errorf("%s is a CSV file, whose labels are one of its columns: name it with -target instead of -y", cfg.x)
		}
		return loadCSV(cfg.x, cfg.target)
	}
	switch {
	case cfg.target != "":
		return nil, fmt.Errorf("-target names a CSV column, but %s is a %s file: give its labels with -y", cfg.x, fx)
	case cfg.y == "":
		return nil, fmt.Errorf("%s is a %s file of features: give its labels with -y", cfg.x, fx)
	}
	fy, err := detect(cfg.y)
	if err != nil {
		return nil, err
	}
	if fy == formatCSV {
		return nil, fmt.Errorf("-y %s: labels come from a .npy or IDX file (a CSV file goes to -x, with -target)", cfg.y)
	}
	ty, err := elemType(cfg.y, fy)
	if err != nil {
		return nil, err
	}
	lab := labels{name: cfg.y}
	ints, err := ty.labels(cfg.y, fy)
	if err != nil {
		return nil, err
	}
	lab.codes, lab.classes = encode(ints)
	tx, err := elemType(cfg.x, fx)
	if err != nil {
		return nil, err
	}
	return tx.features(cfg.x, fx, lab)
}

// typed holds the loaders instantiated for one element type.
type typed struct {
	features func(path string, f format, lab labels) (job, error)
	labels   func(path string, f format) ([]int, error)
}

// byType maps the Go element type of a file (npy.Dtype.GoType,
// idx.Header.GoType) to its loaders, so that features keep the file's type
// (and its memory map) all the way to the batch loops.
var byType = map[string]typed{
	"uint8":   {openFeatures[uint8], readLabels[uint8]},
	"uint16":  {openFeatures[uint16], readLabels[uint16]},
	"uint32":  {openFeatures[uint32], readLabels[uint32]},
	"uint64":  {openFeatures[uint64], readLabels[uint64]},
	"int8":    {openFeatures[int8], readLabels[int8]},
	"int16":   {openFeatures[int16], readLabels[int16]},
	"int32":   {openFeatures[int32], readLabels[int32]},
	"int64":   {openFeatures[int64], readLabels[int64]},
	"float32": {openFeatures[float32], readLabels[float32]},
	"float64": {openFeatures[float64], readLabels[float64]},
}

// elemType reads the header of the file at path and returns the loaders of
// its element type.
func elemType(path string, f format) (typed, error) {
	var goType, described string
	switch f {
	case formatNPY:
		h, err := npy.Stat(path)
		if err != nil {
			return typed{}, err
		}
		goType, described = h.Dtype.GoType(), "dtype "+h.Dtype.String()
	case formatIDX:
		h, err := idx.Stat(path)
		if err != nil {
			return typed{}, err
		}
		goType, described = h.GoType(), fmt.Sprintf("element type 0x%02X", h.Type)
	}
	t, ok := byType[goType]
	if !ok {
		return typed{}, fmt.Errorf("%s: %s is not numbers the kit reads (bool, integers, float32 or float64)", path, described)
	}
	return t, nil
}

// openFeatures memory-maps the features file at path, or reads it into memory
// when it cannot be mapped (big-endian numbers, gzip), and pairs it with lab.
func openFeatures[E arraycontainer.Number](path string, f format, lab labels) (job, error) {
	var (
		x   *arraycontainer.Array[E]
		how = "memory-mapped"
		err error
	)
	switch f {
	case formatNPY:
		if x, err = npy.Open[E](path, obsdim.First); errors.Is(err, npy.ErrUnsupported) {
			x, err = npy.Load[E](path, obsdim.First)
			how = "read into memory"
		}
	case formatIDX:
		if x, err = idx.Open[E](path, obsdim.First); errors.Is(err, idx.ErrUnsupported) {
			x, err = idx.Load[E](path, obsdim.First)
			how = "read into memory"
		}
	}
	if err != nil {
		return nil, err
	}
	source := fmt.Sprintf("features %s (%s file, %s), labels %s", path, f, how, lab.name)
	return newDataset(source, path, x, lab)
}

// readLabels reads the labels file at path: one whole number per observation,
// in an array of shape [n] (or [n 1]).
func readLabels[E arraycontainer.Number](path string, f format) ([]int, error) {
	var (
		a   *arraycontainer.Array[E]
		err error
	)
	switch f {
	case formatNPY:
		a, err = npy.Load[E](path, obsdim.First)
	case formatIDX:
		a, err = idx.Load[E](path, obsdim.First)
	}
	if err != nil {
		return nil, err
	}
	if a.Rank() == 0 || a.Len() != a.Shape()[0] {
		return nil, fmt.Errorf("%s: labels need one value per observation, shape [n] or [n 1], not %v", path, a.Shape())
	}
	ints := make([]int, a.Len())
	for i, v := range a.Clone().Data() { // a contiguous copy, in observation order
		w := float64(v)
		if w != math.Trunc(w) || math.Abs(w) > 1<<53 {
			return nil, fmt.Errorf("%s: label %v of observation %d is not a whole number: the demo classifies, it does not regress", path, v, i)
		}
		ints[i] = int(w)
	}
	return ints, nil
}

// loadCSV reads a CSV file whose column target holds the labels and whose
// other columns are numeric features.
func loadCSV(path, target string) (job, error) {
	if target == "" {
		cols, err := csvHeader(path)
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is a CSV file: name its label column with -target (its columns: %s)", path, strings.Join(cols, ", "))
	}
	tab, err := csvdata.Load[float64](path, csvdata.Options{Target: target})
	if err != nil {
		return nil, err
	}
	lab := labels{name: "column " + target}
	if ints, err := tab.IntTargets(); err == nil {
		lab.codes, lab.classes = encode(ints)
	} else {
		lab.codes, lab.classes = tab.Classes()
	}
	source := fmt.Sprintf("%s (CSV file, %d feature columns, labels in column %q)", path, len(tab.Features), target)
	return newDataset(source, path, tab.X, lab)
}

// csvHeader returns the column names of the CSV file at path.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	cols, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the header line: %w", path, err)
	}
	return cols, nil
}
