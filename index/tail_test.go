package index_test

import (
	"errors"
	"testing"

	"github.com/obskit/obskit/index"
)

var allTails = []index.Tail{index.Keep, index.Drop, index.Pad, index.RollOver}

func TestTailString(t *testing.T) {
	for tail, want := range map[index.Tail]string{
		index.Keep: "keep", index.Drop: "drop", index.Pad: "pad", index.RollOver: "roll-over", 9: "Tail(9)",
	} {
		if got := tail.String(); got != want {
			t.Errorf("Tail(%d).String() = %q, want %q", uint8(tail), got, want)
		}
	}
	var zero index.Tail
	if zero != index.Keep {
		t.Error("the zero Tail is not Keep")
	}
}

func TestTailText(t *testing.T) {
	for _, tail := range allTails {
		b, err := tail.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back index.Tail
		if err := back.UnmarshalText(b); err != nil || back != tail {
			t.Errorf("%v: text %q reads back as %v, %v", tail, b, back, err)
		}
	}
	var bad index.Tail
	if err := bad.UnmarshalText([]byte("Pad")); !errors.Is(err, index.ErrTail) {
		t.Errorf("UnmarshalText(Pad) = %v, want ErrTail", err)
	}
	if _, err := index.Tail(9).MarshalText(); !errors.Is(err, index.ErrTail) {
		t.Errorf("Tail(9).MarshalText() = %v, want ErrTail", err)
	}
}
