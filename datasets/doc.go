// Package datasets holds small real data sets embedded in the binary with Go's
// embed package, so that examples, tests and demos run with no download and no
// files.
//
// Each data set is returned as an *arraycontainer.LabeledTuple, a tuples.Tuple2
// of (features, labels): the features an array with one observation per row, the
// labels the class of each observation as an int. The tuple is labeled data (its
// observations are tuples.Pair[*arraycontainer.Array[E], int]), ready to split by
// class, fold, shuffle and batch with no type argument, and its members come back
// with their own types:
//
//	digits := datasets.Digits()
//	x, y := digits.X(), digits.Y() // *arraycontainer.Array[uint8], container.Slice[int]
//
// Every call decodes the embedded files into new memory (about 0.1 ms, see
// BenchmarkDecode), so callers may modify what they get without affecting other
// callers.
//
// # Data sets
//
//   - [Iris]: Fisher's iris, 150 flowers x 4 measurements in cm (float64), 3
//     species, 50 each. UCI Machine Learning Repository, as distributed with
//     scikit-learn (BSD-3-Clause).
//   - [Digits]: 1,797 handwritten digits, 8x8 images of pixel counts 0..16
//     (uint8), 10 classes (178 182 177 183 181 182 181 179 174 180 images of 0..9).
//     The UCI "Optical Recognition of Handwritten Digits" test set, as distributed
//     with scikit-learn (BSD-3-Clause), stored in MNIST's IDX format.
//
// The embedded files are the same formats the kit reads from disk (CSV for iris,
// IDX for the digits), read with packages csvdata and idx.
package datasets
