// Package imagedata holds data sets of images as containers: a folder per
// class (torchvision's ImageFolder), an im2rec image list (.lst) with the
// folder its paths are relative to, and a RecordIO file of image records
// (im2rec's .rec, MXNet ImageRecordIter's input).
//
// # Observations
//
// Each data set is labeled data: a container of tuples.Pair[[]byte, L] whose X
// is an image's encoded bytes (a JPEG or PNG file as it is stored) and whose Y
// is its label. It is a tuples.Tuple2 of two members ([Labeled]): the images,
// read when asked for, and the labels, read when the data set is opened. So the
// kit's labeled tools take these data sets unchanged and read the labels
// without reading an image:
//
//	data, err := imagedata.OpenFolder("train", imagedata.FolderOptions{})
//	if err != nil { ... }
//	parts, err := subset.StratifiedSplit(data, rng, 0.8)   // the class proportions kept
//	for b := range eachobs.Batches(parts[0], 64, eachobs.Shuffle(seed)) {
//		// b.Data.X: 64 encoded images ([][]byte), b.Data.Y: their classes ([]int)
//	}
//
// Decoding the bytes into pixels is package imagecodec's work.
//
// # Labels
//
// A folder's labels are class numbers (int): the class folders sorted by name
// are 0, 1, 2... ([Folder].Classes names them). Lists and image records hold
// one or more float labels per image; [OpenList] and [OpenRecords] take a
// function that makes an observation's label of them, and its result type is
// the data set's label type: [First] (float32, ImageRecordIter's label with
// label_width 1), [Class] (int, refusing labels that are not whole numbers) or
// [All] ([]float32, every label), or the caller's own.
//
// # Reading
//
// [Files] reads each image from its file when asked (an open, reads, a close);
// [RecordImages] reads it from a memory-mapped RecordIO file (one copy, and no
// allocation with a reused batch). Both hand out memory the caller owns, and
// reuse the byte slices of a batch passed back to GetObsInto. Opening a folder
// or a list reads no image; opening a RecordIO file reads every record's
// header (a page of the file per record) for the labels.
//
// # Errors
//
// Opening returns errors naming the file and the line or record: a malformed
// list ([ErrFormat]), a label the label function refuses ([ErrLabel]), a folder
// without classes or a class without images ([ErrEmpty]), the errors of
// package recordio. A read that fails later (a file removed since, a record
// that is not an image record) panics, since GetObs returns no error, with an
// error wrapping [ErrRead] and its cause that names the file (and the
// record's key and offset); the kit's loops deliver it as a
// *container.PanicError.
package imagedata
