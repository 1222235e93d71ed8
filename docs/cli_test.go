package docs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTableCommands runs the obskit commands that columnar.md shows, each sh
// block as written, in a directory holding the files of
// columnar/testdata/interop they read (links), with an obskit built from cmd/
// first on the PATH, and compares what each prints with the text block after
// it.
func TestTableCommands(t *testing.T) {
	var pg page
	for _, p := range readPages(t) {
		if p.path == "docs/columnar.md" {
			pg = p
		}
	}
	bs := blocks(pg)
	type command struct{ cmd, want block }
	var cmds []command
	for i, b := range bs {
		if b.lang != "sh" || !strings.HasPrefix(b.body, "obskit ") {
			continue
		}
		if i+1 == len(bs) || bs[i+1].lang != "text" {
			t.Fatalf("docs/columnar.md:%d: an obskit command with no text block of its output after it", b.line)
		}
		cmds = append(cmds, command{b, bs[i+1]})
	}
	if len(cmds) < 4 {
		t.Fatalf("docs/columnar.md shows %d obskit commands; the test no longer reads the page", len(cmds))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	run(t, filepath.Join(abs, "cmd"), "go build -o "+filepath.Join(bin, "obskit")+" ./obskit")
	dir := t.TempDir()
	for _, name := range []string{"js.arrow", "rs-snappy.parquet"} {
		if err := os.Symlink(filepath.Join(abs, "columnar", "testdata", "interop", name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, c := range cmds {
		if got := run(t, dir, c.cmd.body, path); got != c.want.body {
			t.Errorf("docs/columnar.md:%d: %s printed\n%s\nthe page says\n%s", c.cmd.line, strings.TrimSpace(c.cmd.body), got, c.want.body)
		}
	}
}
