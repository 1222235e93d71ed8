package recordio

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"testing"

	"github.com/obskit/obskit/internal/pypeer"
)

// TestPackMXNet checks Pack byte for byte against MXNet's image record as
// python/mxnet/recordio.py pack defines it: the struct "IfQQ" (flag, label,
// id, id2) in little-endian order; a number label gives flag 0 and that
// label; an array of labels gives flag = its length and label 0, and the
// labels follow as float32 before the image. The expected bytes are written
// here from that definition, field by field; the caller's Flag and, with
// labels, its Label are not what is written. When Debian's python has MXNet
// (not with -short), its pack gives the same bytes.
func TestPackMXNet(t *testing.T) {
	cases := []struct {
		name   string
		h      Header
		labels []float32
		img    []byte
	}{
		{"number", Header{Label: 2.5, ID: 7, ID2: 1}, nil, []byte("jpeg")},
		{"number, flag set by the caller", Header{Flag: 4, Label: -1, ID: 1 << 40}, nil, []byte{0xff, 0xd8}},
		{"one label", Header{Label: 9, ID: 3}, []float32{7}, []byte("png")},
		{"several labels", Header{Label: 5, ID: 8, ID2: 2}, []float32{1, 0.5, -3, 1e-7}, []byte("img")},
		{"several labels, flag set by the caller", Header{Flag: 1, Label: 5, ID: math.MaxUint64}, []float32{-65504, 0, 65536.25}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			flag, label := uint32(0), c.h.Label
			if len(c.labels) > 0 {
				flag, label = uint32(len(c.labels)), 0
			}
			var want bytes.Buffer
			binary.Write(&want, binary.LittleEndian, struct {
				Flag    uint32
				Label   float32
				ID, ID2 uint64
			}{flag, label, c.h.ID, c.h.ID2})
			binary.Write(&want, binary.LittleEndian, c.labels)
			want.Write(c.img)
			prefix := []byte("kept")
			got := Pack(append([]byte(nil), prefix...), c.h, c.labels, c.img)
			if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want.Bytes()) {
				t.Fatalf("Pack = %x, want %x after %x", got, want.Bytes(), prefix)
			}
			h, labels, img, err := Unpack(got[len(prefix):], nil)
			wantLabels := c.labels
			if len(c.labels) == 0 {
				wantLabels = []float32{c.h.Label}
			}
			if err != nil || h.Flag != flag || h.Label != label || h.ID != c.h.ID || h.ID2 != c.h.ID2 ||
				fmt.Sprint(labels) != fmt.Sprint(wantLabels) || !bytes.Equal(img, c.img) {
				t.Errorf("Unpack = %+v, %v, %q, %v; want flag %d label %v labels %v image %q", h, labels, img, err, flag, label, wantLabels, c.img)
			}
			if h.Size() != int64(want.Len()-len(c.img)) {
				t.Errorf("Size() = %d, want %d: the image starts there", h.Size(), want.Len()-len(c.img))
			}
		})
	}
	if testing.Short() {
		return
	}
	if err := pypeer.Has("mxnet.recordio"); err != nil {
		t.Logf("not compared with MXNet's pack: %v", err)
		return
	}
	for _, c := range cases {
		var label any = c.h.Label
		if len(c.labels) > 0 {
			label = c.labels
		}
		args, _ := json.Marshal([]any{c.h.Flag, label, c.h.ID, c.h.ID2, hex.EncodeToString(c.img)})
		out, err := exec.Command(pypeer.Python(), "-c", `
import json, sys, mxnet.recordio as r
flag, label, i, i2, img = json.loads(sys.argv[1])
print(r.pack(r.IRHeader(flag, label, i, i2), bytes.fromhex(img)).hex())`, string(args)).Output()
		if err != nil {
			t.Fatalf("%s: MXNet's pack: %v", c.name, err)
		}
		if got := hex.EncodeToString(Pack(nil, c.h, c.labels, c.img)); got+"\n" != string(out) {
			t.Errorf("%s: Pack = %s, MXNet's pack %s", c.name, got, out)
		}
	}
}
