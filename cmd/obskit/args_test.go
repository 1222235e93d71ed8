package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitFlags: flags with their values are taken from anywhere among the
// arguments, -- ends them, and a bool flag takes no value.
func TestSplitFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Bool("raw", false, "")
	fs.String("o", "", "")
	fs.Var(mxnetFlag{new(string), true}, "rand_crop", "")
	fs.Var(mxnetFlag{new(string), false}, "data_shape", "")
	for _, tc := range []struct {
		args            []string
		flags, operands []string
	}{
		{[]string{"a", "b"}, nil, []string{"a", "b"}},
		{[]string{"a", "-o", "x", "b"}, []string{"-o", "x"}, []string{"a", "b"}},
		{[]string{"a", "b", "--raw", "--o=x"}, []string{"--raw", "--o=x"}, []string{"a", "b"}},
		{[]string{"a", "--rand_crop", "b", "--data_shape", "3,4,5"}, []string{"--rand_crop", "--data_shape", "3,4,5"}, []string{"a", "b"}},
		{[]string{"-o", "-raw", "a"}, []string{"-o", "-raw"}, []string{"a"}}, // -o's value
		{[]string{"a", "--", "-o", "b"}, nil, []string{"a", "-o", "b"}},
		{[]string{"-", "-raw"}, []string{"-raw"}, []string{"-"}},
		{[]string{"a", "-bogus", "b"}, []string{"-bogus"}, []string{"a", "b"}},
		{[]string{"a", "-o"}, []string{"-o"}, []string{"a"}}, // Parse reports the missing value
	} {
		flags, operands := splitFlags(fs, tc.args)
		if d := cmp.Diff(tc.flags, flags); d != "" {
			t.Errorf("%q: flags mismatch (-want +got):\n%s", tc.args, d)
		}
		if d := cmp.Diff(tc.operands, operands); d != "" {
			t.Errorf("%q: arguments mismatch (-want +got):\n%s", tc.args, d)
		}
	}
}

// TestFlagsAfterArguments: every command reads a flag given after its
// arguments (here one it does not define, which it reports as a flag, where it
// used to count it as one more argument), and its -h says flags may go there.
func TestFlagsAfterArguments(t *testing.T) {
	for _, c := range commands {
		name := c.group + " " + c.name
		status, _, stderr := run(c.group, c.name, "no-such-file", "no-such-file", "--bogus-flag")
		if status != 2 || !strings.Contains(stderr, "flag provided but not defined: -bogus-flag") {
			t.Errorf("obskit %s ARGS --bogus-flag: status %d, stderr %q; want 2 and the flag reported", name, status, stderr)
		}
		status, _, stderr = run(c.group, c.name, "no-such-file", "-h")
		if status != 0 || !strings.Contains(stderr, "usage: obskit "+name+" [flags] "+c.args) {
			t.Errorf("obskit %s ARG -h: status %d, stderr %q; want 0 and the usage", name, status, stderr)
		}
		if hasFlags(flagSetOf(c)) && !strings.Contains(stderr, "flags (before or after the arguments; -- ends them):") {
			t.Errorf("obskit %s -h: %q does not say where flags go", name, stderr)
		}
	}
}

// flagSetOf returns the flags c defines.
func flagSetOf(c command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.flags(fs)
	return fs
}

// TestFlagsAnywhere runs commands with their flags after and between their
// arguments, and an argument that starts with "-" after --.
func TestFlagsAnywhere(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "out")
	if status, stdout, stderr := run("table", "to-npy", fixture("js.arrow"), "-x", "x", "-o", prefix); status != 0 || !strings.Contains(stdout, prefix+"-x.npy") {
		t.Errorf("table to-npy FILE -x x -o PREFIX: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "photos.lst"), readFile(t, im2rec+"photos.lst"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "rec", "pack", filepath.Join(dir, "photos"), "--num-thread", "2", photos, "--pass-through")
	if got, want := readFile(t, filepath.Join(dir, "photos.rec")), readFile(t, im2rec+"pack/photos.rec"); string(got) != string(want) {
		t.Errorf("rec pack PREFIX --num-thread 2 ROOT --pass-through: the .rec differs from the golden one")
	}
	// After --, "-h" is a file name.
	status, _, stderr := run("npy", "stat", "--", "-h")
	if status != 1 || !strings.Contains(stderr, "-h") || strings.Contains(stderr, "usage:") {
		t.Errorf("npy stat -- -h: status %d, stderr %q; want 1 and an error about the file -h", status, stderr)
	}
}
