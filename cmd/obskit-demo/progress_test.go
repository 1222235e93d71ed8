package main

import (
	"bytes"
	"github.com/obskit/obskit/cmd/internal/progress"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// syncBuffer is a bytes.Buffer that the bars' goroutines and the test may
// use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With bars drawn (on a buffer standing in for a terminal), the bars go to
// their own writer, one per fold and one for the final model, full; the report
// is the one of a run without bars; and every goroutine of the bars has ended
// when run returns.
func TestProgressBars(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var bars syncBuffer
	got, err := run(cfg, progress.New(&bars))
	if err != nil {
		t.Fatal(err)
	}
	want, err := run(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, ignoreMeters); diff != "" {
		t.Errorf("report with bars differs from the report without (-without +with):\n%s", diff)
	}
	out := bars.String()
	for _, line := range []string{"fold 1/5", "fold 5/5", "final"} {
		if !strings.Contains(out, line) {
			t.Errorf("bars lack %q:\n%s", line, out)
		}
	}
	if !strings.Contains(out, "1438/1438 obs") || !strings.Contains(out, "1797/1797 obs") {
		t.Errorf("bars are not drawn full (1438 observations per fold, 1797 for the final model):\n%s", out)
	}
}

// A run that fails stops the bars' goroutines too.
func TestProgressBarsOnError(t *testing.T) {
	defer goleak.VerifyNone(t)
	cfg, err := parseFlags([]string{"-x", digitImages, "-y", digitLabels, "-folds", "2000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(cfg, progress.New(io.Discard)); err == nil {
		t.Fatal("run with 2000 folds of 1438 training observations: no error")
	}
}

// Bars are drawn only on a terminal: not on a pipe or file, and never when
// -progress=false.
func TestBarOutput(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		name string
		w    io.Writer
		on   bool
	}{
		{"buffer", &bytes.Buffer{}, true},
		{"file", f, true},
		{"off", os.Stderr, false},
	} {
		if w := progress.Output(tc.w, tc.on); w != nil {
			t.Errorf("%s: barOutput = %v, want nil (no bars)", tc.name, w)
		}
	}
}
