// Command obskit-demo runs obskit's main job end to end and prints a report
// that needs no knowledge of the kit to read. From the repository:
//
//	make demo
//
// With no flags it classifies the 1,797 handwritten digits embedded in package
// datasets (no files, no network):
//
//  1. a stratified 80/20 train/test split (subset.StratifiedSplit), with a table
//     of the class sizes in each part;
//  2. 5-fold cross-validation of a nearest-centroid classifier on the training
//     part (subset.StratifiedKFolds, or subset.KFolds when a class is too small
//     to be spread over the folds): accuracy per fold, mean and standard
//     deviation;
//  3. the classifier fitted on the whole training part and scored on the test
//     part;
//  4. the throughput of the batch loops that fit and score it.
//
// The classifier is written here: fitting is one shuffled eachobs.Batches loop
// over the training data that sums each class's observations from one reused
// batch buffer; predicting takes the class with the nearest mean.
//
// The same command runs on files, in the formats the kit reads:
//
//	obskit-demo -x images-idx3-ubyte -y labels-idx1-ubyte   # IDX (MNIST), gzip'd too
//	obskit-demo -x features.npy -y labels.npy               # NumPy .npy
//	obskit-demo -x table.csv -target label                  # CSV with a header line
//
// Formats are recognized by their magic numbers, CSV by the .csv extension.
// Features keep the element type of their file and are memory-mapped when the
// file allows it. -seed (default 1) fixes every random choice, so a run is
// reproducible; -h lists every flag.
//
// The report goes to stdout. Progress bars (github.com/vbauerster/mpb) go to
// stderr, and only when stderr is a terminal, so redirected output holds the
// report alone. A bad file, a missing one or features and labels of different
// lengths end the command with a one-line message on stderr and exit status 1;
// a bad command line with status 2.
//
// The program is a few files of one idea each: flags.go (the command line),
// data.go and files.go (loading), experiment.go (split, folds, scores),
// centroid.go (the classifier and its batch loops), meter.go (throughput),
// report.go (the printed report).
package main
