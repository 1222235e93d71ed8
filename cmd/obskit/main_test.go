package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/npy"
	"github.com/obskit/obskit/obsdim"
)

// run runs obskit with args and returns its exit status and outputs.
func run(args ...string) (status int, stdout, stderr string) {
	var out, errb bytes.Buffer
	status = cli(args, &out, &errb)
	return status, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{nil, 2, "usage: obskit <group> <command>"},
		{[]string{"-h"}, 0, "npy      stat"},
		{[]string{"npy"}, 2, "usage: obskit npy <command>"},
		{[]string{"npy", "-h"}, 0, "stat     print the header"},
		{[]string{"npy", "stat", "-h"}, 0, "usage: obskit npy stat [flags] FILE.npy..."},
		{[]string{"nope"}, 2, `unknown group "nope"`},
		{[]string{"npy", "nope"}, 2, `unknown command "nope"`},
		{[]string{"npy", "stat"}, 2, "obskit npy stat: no file named"},
		{[]string{"npy", "stat", "-bogus"}, 2, "flag provided but not defined: -bogus"},
	} {
		status, _, stderr := run(tc.args...)
		if status != tc.status || !strings.Contains(stderr, tc.want) {
			t.Errorf("obskit %s: status %d, stderr %q; want status %d and %q", strings.Join(tc.args, " "), status, stderr, tc.status, tc.want)
		}
	}
}

func TestNpyStat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	x, err := arraycontainer.Zeros[float32]([]int{3, 4}, obsdim.First)
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.Save(path, x); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := run("npy", "stat", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	var got npyHeader
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output %q is not one JSON object: %v", stdout, err)
	}
	want := npyHeader{Path: path, Dtype: "<f4", GoType: "float32", Shape: []int{3, 4}, DataOffset: 128, DataBytes: 48}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("npy stat mismatch (-want +got):\n%s", d)
	}

	missing := filepath.Join(dir, "missing.npy")
	status, _, stderr = run("npy", "stat", path, missing)
	if status != 1 || !strings.Contains(stderr, missing) {
		t.Errorf("npy stat of a missing file: status %d, stderr %q; want 1 and the file named", status, stderr)
	}
}
