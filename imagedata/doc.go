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
// # Decoded images
//
// [Decode] turns such a data set (or a view of one: a split part, a fold)
// into a container of float32 images beside the same labels: observation i is
// image i decoded by an imagecodec.Decoder and augmented by an
// augment.Pipeline, a CHW (or HWC) array, and a batch is an array with the
// batch first, each image written by the pipeline straight into its slot of
// the loop's reused batch. It is a tuples.Tuple2 again ([Decoded]), so
// splits and folds still read the labels without decoding an image; decode
// each part with its own pipeline (random crops for training, a centre crop
// for evaluation):
//
//	parts, err := subset.StratifiedSplit(data, rng, 0.8)
//	train := imagedata.Decode(parts[0], trainPipeline, turbo.New(imagecodec.Options{}))
//	for b := range eachobs.Batches(train, 64, eachobs.Shuffle(seed), eachobs.Workers(2)) {
//		// b.Data.X: [64 3 224 224] float32, b.Data.Y: 64 classes
//	}
//
// [NewImages] does the same for a container of encoded images without labels:
// any container of []byte, read with container.AppendObs into a buffer reused
// from image to image. The containers of this package are container.Encoded,
// and so are a recordio.File whose records are images, a binary column and
// the kit's views and joins of any of them: their reads allocate nothing,
// their failures can be skipped ([SkipBad]) and errors name the file or record
// (their Where). [Decode] reads the images of labeled data, its
// tuples.Features, the same way.
//
// [DecodeUint8] and [NewImagesUint8] give the same images as 8-bit pixels
// (uint8 arrays, the pipeline's augment.Pipeline.ApplyUint8), for a trainer
// that normalizes on the device, as gomlx.Normalize does in the obskit/gomlx
// module: a quarter of the bytes, and no float write in the loader.
//
// The images are random (container.Random): image i draws its augmentation
// from the generator of (seed, epoch, i) that the loop hands it, so the
// batches are the same with any number of workers and after a resume. Files
// are read with system calls into reused buffers and records from the file's
// mapping, so with libjpeg-turbo a loop allocates nothing per batch once each
// worker's buffers have grown to the largest image. The Go runtime allocates
// on its own now and then, once and not per batch: a waiter for a contended
// lock or channel on a processor whose cache of them is empty, a thread when
// ReadMemStats restarts the world.
//
// MXNet's ImageRecordIter over these containers, with MXNet's parameters
// and augmenter, is package mxnet's: the data sets here are containers, and
// iterate in any loop.
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
// [RecordImages] reads it from a memory-mapped RecordIO file (one copy). Both
// hand out memory the caller owns, reuse the byte slices of a batch passed
// back to GetObsInto, and allocate nothing then. Both are container.Encoded:
// AppendObs reads one image into a buffer the caller reuses and returns the
// error GetObs panics with, and Where names the file, or the record's file,
// key and offset. Opening a folder
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
// *container.PanicError. A decoded image that cannot be decoded panics the
// same way, the decoder's error wrapped too (imagecodec.ErrFormat,
// imagecodec.ErrUnsupported, imagecodec.ErrTooLarge for a header claiming
// more pixels than the decoder's limit, refused before anything is allocated
// for it...), unless the container was made with
// [SkipBad]: the image is then replaced by the next one of its label that
// decodes, Nobs stays the same, and a [Skips] record says how many images were
// skipped and which, never a silent black image.
package imagedata
