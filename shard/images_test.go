package shard_test

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/augment"
	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/imagecodec"
	"github.com/obskit/obskit/imagedata"
	"github.com/obskit/obskit/shard"
	"github.com/obskit/obskit/tuples"
)

// TestDecodeImages: imagedata.Decode over a jpg field and the labels of tar
// shards gives the images and labels it gives over the same files in an
// image folder, batch by batch in the two-level order, reading the field
// through container.Encoded.
func TestDecodeImages(t *testing.T) {
	names := []string{"astronaut_q90_420.jpg", "chelsea_q95_444.jpg", "coffee_q85_422.jpg"}
	root := filepath.Join(t.TempDir(), "folder")
	var smp []shard.Sample
	for i := range 12 {
		data, err := os.ReadFile(filepath.Join("../augment/testdata", names[i%3]))
		if err != nil {
			t.Fatal(err)
		}
		class := i % 2
		os.MkdirAll(filepath.Join(root, fmt.Sprint(class)), 0o777)
		os.WriteFile(filepath.Join(root, fmt.Sprint(class), fmt.Sprintf("%02d.jpg", i)), data, 0o666)
		smp = append(smp, shard.Sample{Key: fmt.Sprintf("%06d", i), Fields: []shard.Field{{Name: "jpg", Data: data}, {Name: "cls", Data: []byte(fmt.Sprint(class))}}})
	}
	// The folder's order: class 0's files, then class 1's; the shards in it.
	slices.SortStableFunc(smp, func(a, b shard.Sample) int { return int(a.Fields[1].Data[0]) - int(b.Fields[1].Data[0]) })
	dir := t.TempDir()
	if _, err := shard.Pack(shard.Dir(dir), "m.json", "s", seq(smp), shard.PackOptions{ShardBytes: 200 << 10}); err != nil {
		t.Fatal(err)
	}
	set, err := shard.Open(shard.Dir(dir), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	labeled, err := shard.LabeledField(set, "jpg")
	if err != nil {
		t.Fatal(err)
	}
	folder, err := imagedata.OpenFolder(root, imagedata.FolderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := augment.New(augment.CHW, augment.Resize{Size: 40}, augment.CenterCrop{Size: image.Pt(32, 32)}, augment.ImageNet)
	dec := imagecodec.New(imagecodec.Options{})
	fromShards, fromFolder := imagedata.Decode(labeled, p, dec), imagedata.Decode(folder, p, dec)
	if len(set.BlockStarts()) < 4 {
		t.Fatalf("%d shards", len(set.BlockStarts())-1)
	}
	var got, want [][]float32
	var labels, wantLabels []int
	for b := range eachobs.Batches(fromShards, 5, eachobs.ShuffleBlocks(3, 2)) {
		want1 := fromFolder.GetObsInto(tuples.Pair[*arraycontainer.Array[float32], []int]{}, b.Indices)
		got = append(got, slices.Clone(b.Data.X.Data()))
		want = append(want, slices.Clone(want1.X.Data()))
		labels = append(labels, b.Data.Y...)
		wantLabels = append(wantLabels, want1.Y...)
	}
	if len(got) != 3 || !slices.EqualFunc(got, want, slices.Equal[[]float32]) || !slices.Equal(labels, wantLabels) {
		t.Errorf("the shards' images or labels differ from the folder's (%d batches; labels %v, the folder's %v)", len(got), labels, wantLabels)
	}
}
