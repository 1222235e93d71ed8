package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadme builds and runs the README's first program in a scratch module set
// up exactly as the README says, by each of its two routes: the commands of its
// setup blocks run as they are written (the go.mod route in the module, the
// workspace route in the directory above it), next to a clone of the repository
// at ../obskit (a link to this one), and the program must print what the README
// says it prints. The module itself is the reader's (go mod init).
func TestReadme(t *testing.T) {
	var readme page
	for _, p := range readPages(t) {
		if p.path == "README.md" {
			readme = p
		}
	}
	var program, output string
	var routes []block // the sh blocks of the setup section
	setup := false
	for _, b := range blocks(readme) {
		switch {
		case b.lang == "sh" && strings.Contains(b.body, "go run ."):
			routes = append(routes, b)
			setup = true
		case setup && b.lang == "go" && program == "":
			program = b.body
		case program != "" && b.lang == "text" && output == "":
			output = b.body
		}
	}
	if len(routes) != 2 || program == "" || output == "" {
		t.Fatalf("README: %d setup routes, a program of %d bytes, an output of %d: want 2 routes (go.mod, go work), then the program and what it prints", len(routes), len(program), len(output))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range routes {
		t.Run(strings.Fields(route.body)[1], func(t *testing.T) {
			t.Parallel()
			above := t.TempDir()
			mod := filepath.Join(above, "yourmodule")
			if err := os.Symlink(abs, filepath.Join(above, "obskit")); err != nil {
				t.Fatal(err)
			}
			run(t, above, "mkdir yourmodule && cd yourmodule && go mod init example.com/yourmodule")
			if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(program), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := mod // the go.mod route runs in the module
			if strings.Contains(route.body, "go work init") {
				dir = above
			}
			if got := run(t, dir, route.body); got != output {
				t.Errorf("README.md:%d: the program printed\n%s\nthe README says\n%s", route.line, got, output)
			}
		})
	}
}

// run runs script with sh in dir and returns its standard output; it fails t,
// with the script's errors, when the script fails.
func run(t *testing.T, dir, script string) string {
	t.Helper()
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir, cmd.Env = dir, goEnv()
	if raceEnabled {
		// Built as the tests were, the kit's packages come from the build cache
		// instead of being compiled a second time; go mod ignores the flag.
		cmd.Env = append(cmd.Env, "GOFLAGS=-race")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("in %s:\n%s\n%v\n%s", dir, script, err, stderr.String())
	}
	return string(out)
}
