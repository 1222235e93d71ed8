package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDemo runs a short demo (two folds of one epoch, two epochs of final
// training, of the CNN with max-pooling) and checks the report and the chart
// it writes.
func TestDemo(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "curves.png")
	var stdout, stderr bytes.Buffer
	// A small CNN (4 and 8 channels), so that the test stays quick under -race.
	code := cli([]string{"-rates", "0.01,0.02", "-folds", "2", "-cv-epochs", "1", "-epochs", "2", "-batch", "32",
		"-filters", "4", "-hidden", "16", "-png", chart}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d, stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"split by class: train 1078, validation 359, test 360",
		"2-fold stratified cross-validation of the learning rate",
		"a CNN (conv 3x3 4, max-pool 2x2, conv 3x3 8, max-pool 2x2, dense 16",
		"GoMLX v0.28.2's pure-Go backend (compute v0.1.3)",
		"  1      ", "  2      ",
		"learning curves: " + chart,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`test accuracy: ([0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no test accuracy in the report:\n%s", out)
	}
	if acc, _ := strconv.ParseFloat(m[1], 64); acc < 0.5 { // 10 classes: chance is 0.1
		t.Errorf("test accuracy %v after two epochs: the model did not learn", acc)
	}
	if !regexp.MustCompile(`waiting for data: [0-9.]+% of the training steps' time \(\d+ steps`).MatchString(out) {
		t.Errorf("the report lacks the share of time waiting for data:\n%s", out)
	}
	f, err := os.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
		t.Errorf("the chart is %v", b)
	}
}

// TestFlags: -h exits 0 with the usage, a bad command line 2 naming the flag.
func TestFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "obskit-train trains a convolutional network with GoMLX"},
		{[]string{"-filters", "0"}, 2, "-filters and -workers must be at least 1"},
		{[]string{"-folds", "1"}, 2, "-folds 1: want at least 2"},
		{[]string{"-rates", "0.1,x"}, 2, `"x" is not a positive number`},
		{[]string{"-shift", "2"}, 2, "-shift 2: want a probability"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := cli(c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit status %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
}

// TestBenchWithoutTorch: -bench runs the GoMLX side alone, saying why, when the
// Python given cannot import PyTorch.
func TestBenchWithoutTorch(t *testing.T) {
	var stdout, stderr bytes.Buffer
	missing := filepath.Join(t.TempDir(), "no-python")
	code := cli([]string{"-bench", "1", "-bench-epochs", "1", "-batch", "128", "-filters", "4", "-hidden", "16", "-python", missing}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit status %d, stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "PyTorch sides skipped: "+missing+" cannot import torch") {
		t.Errorf("the report does not say why PyTorch is skipped:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^ +1 +[1-9]\d* +- +- +- +[0-9.]+% +-`).MatchString(out) {
		t.Errorf("the report lacks the GoMLX side's round:\n%s", out)
	}
}
