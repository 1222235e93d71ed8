package docs_test

// The example of images.md.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/recordio"
)

// packFolder packs the images of a folder per class into dir/train.rec and
// train.idx, as im2rec --pass-through packs them: the file's bytes after an
// image header whose id, the record's key, is the image's position.
func packFolder(root, dir string) error {
	data, err := imagedata.OpenFolder(root, imagedata.FolderOptions{})
	if err != nil {
		return err
	}
	out, err := os.Create(filepath.Join(dir, "train.rec"))
	if err != nil {
		return err
	}
	defer out.Close()
	bw := bufio.NewWriter(out)
	w := recordio.NewWriter(bw)
	var ix recordio.Index
	for i := range data.Nobs() {
		obs := data.GetObs(i) // the file's bytes and the class number
		h := recordio.Header{Label: float32(obs.Y), ID: uint64(i)}
		off, err := w.Write(recordio.Pack(nil, h, nil, obs.X))
		if err != nil {
			return err
		}
		ix = append(ix, recordio.Entry{Key: int64(i), Offset: off})
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	idx, err := os.Create(filepath.Join(dir, "train.idx"))
	if err != nil {
		return err
	}
	defer idx.Close()
	_, err = ix.WriteTo(idx)
	return err
}

func Example_images() {
	dir, _ := os.MkdirTemp("", "obskit")
	defer os.RemoveAll(dir)
	if err := packFolder("../imagedata/testdata/photos", dir); err != nil {
		panic(err)
	}

	// The records as labeled data: the encoded images and their classes, the
	// labels read from the records' headers when the file is opened.
	data, err := imagedata.OpenRecords(filepath.Join(dir, "train.rec"), filepath.Join(dir, "train.idx"), imagedata.Class)
	if err != nil {
		panic(err)
	}

	for b := range eachobs.Batches(data, 2, eachobs.Shuffle(7)) {
		images, classes := b.Data.X, b.Data.Y // [][]byte of JPEG files and []int, reused next step
		fmt.Println("batch", b.Pos.Batch, "classes", classes, "JPEG sizes", len(images[0]), len(images[1]))
	}
	// Output:
	// batch 0 classes [2 1] JPEG sizes 1401 1815
	// batch 1 classes [0 2] JPEG sizes 1620 2557
}
