package gomlx_test

import (
	"strings"
	"testing"

	"github.com/gomlx/gomlx/ml/model"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/gomlx"
	"github.com/obskit/obskit/index"
)

// TestRestoreStateNoValue checks RestoreState of a store whose state variable
// has lost its value (model.Variable.Reset): it reports no state restored,
// with an error naming the dataset and the variable, and the dataset stays at
// its start.
func TestRestoreStateNoValue(t *testing.T) {
	data := digits(t)
	loader := eachobs.NewLoader(data, 100, eachobs.Shuffle(5), eachobs.Tail(index.Drop))
	run, err := gomlx.Labeled(backend(), "train", loader.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer run.Close()
	for b, err := range run.Iter() {
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Finalize(); err != nil {
			t.Fatal(err)
		}
		break
	}
	store := model.NewStore()
	if err := run.SaveState(store); err != nil {
		t.Fatal(err)
	}
	path := gomlx.StateScope + "/train"
	v := store.GetVariable(path)
	if v == nil {
		t.Fatalf("no variable %s after SaveState", path)
	}
	if err := v.Reset(); err != nil {
		t.Fatal(err)
	}
	fresh, err := gomlx.Labeled(backend(), "train", loader.Iter())
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	restored, err := fresh.RestoreState(store)
	if restored || err == nil || !strings.Contains(err.Error(), "train") || !strings.Contains(err.Error(), path) {
		t.Errorf("RestoreState of a variable without a value = %v, %v; want false and an error naming the dataset and %s", restored, err, path)
	}
	if p := fresh.Position(); p.Epoch != 0 || p.Batch != 0 {
		t.Errorf("position after a refused state: %+v, want the start", p)
	}
}
