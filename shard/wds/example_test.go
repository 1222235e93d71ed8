package wds_test

import (
	"archive/tar"
	"bytes"
	"fmt"
	"log"

	"github.com/obskit/obskit/shard/wds"
)

// A Scanner groups a tar stream's members into samples as webdataset does:
// consecutive members sharing a key, fields lower-cased, members that are no
// regular file or have no extension skipped and counted.
func ExampleScanner() {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range []struct{ name, data string }{
		{"sample/000017.jpg", "JPEG bytes"},
		{"sample/000017.CLS", "3"},
		{"sample/000017.seg.png", "PNG bytes"},
		{"README", "no extension: skipped"},
		{"sample/000018.jpg", "more JPEG bytes"},
	} {
		tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data))})
		tw.Write([]byte(m.data))
	}
	tw.Close()

	s := wds.NewScanner(&buf, "example.tar", wds.ScanOptions{Data: true})
	for s.Next() {
		smp := s.Sample()
		fmt.Print(smp.Key, ":")
		for _, m := range smp.Members {
			fmt.Printf(" %s=%q (offset %d)", m.Field, m.Data, m.Offset)
		}
		fmt.Println()
	}
	fmt.Printf("%+v %v\n", s.Skips(), s.Err())
	// Output:
	// sample/000017: jpg="JPEG bytes" (offset 512) cls="3" (offset 1536) seg.png="PNG bytes" (offset 2560)
	// sample/000018: jpg="more JPEG bytes" (offset 4608)
	// {NotRegular:0 Meta:0 NoKey:1} <nil>
}

// A Writer writes samples that read back as written, and refuses one that
// would not.
func ExampleWriter() {
	var buf bytes.Buffer
	w := wds.NewWriter(&buf)
	fields := func(yield func(string, []byte) bool) {
		_ = yield("jpg", []byte("JPEG bytes")) && yield("cls", []byte("3"))
	}
	members, err := w.WriteSample("000017", fields)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range members {
		fmt.Println(m.Name, m.Offset, m.Size)
	}
	_, err = w.WriteSample("000018.v2", fields)
	fmt.Println(err)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(buf.Len(), "bytes")
	// Output:
	// 000017.jpg 512 10
	// 000017.cls 1536 1
	// sample cannot be written to a tar shard: sample "000018.v2": member "000018.v2.jpg" would be read as key "000018", field "v2.jpg" (a key's last element holds no dot, a field no slash)
	// 3072 bytes
}

// KeyExt splits a member's name at the first dot of its last element.
func ExampleKeyExt() {
	for _, name := range []string{"sample/000017.seg.png", "a.b/c.JPG", "README", ".hidden.jpg"} {
		key, ext, ok := wds.KeyExt(name)
		fmt.Printf("%q: key %q, field %q, %v\n", name, key, wds.Field(ext), ok)
	}
	// Output:
	// "sample/000017.seg.png": key "sample/000017", field "seg.png", true
	// "a.b/c.JPG": key "a.b/c", field "jpg", true
	// "README": key "", field "", false
	// ".hidden.jpg": key "", field "", false
}
