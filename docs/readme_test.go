package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeSetup returns the README's page, the sh blocks of its setup that end
// in go run (the go.mod route, then the workspace route), its first program
// and what the README says the program prints.
func readmeSetup(t *testing.T) (readme page, routes []block, program, output string) {
	t.Helper()
	for _, p := range readPages(t) {
		if p.path == "README.md" {
			readme = p
		}
	}
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
	if len(routes) != 2 || !strings.Contains(routes[0].body, "go mod edit") || !strings.Contains(routes[1].body, "go work init") || program == "" || output == "" {
		t.Fatalf("README: %d setup routes, a program of %d bytes, an output of %d: want 2 routes (go.mod, then go work), then the program and what it prints", len(routes), len(program), len(output))
	}
	return readme, routes, program, output
}

// scratch makes the directories of a reader who follows the README: a
// directory holding the clone of the repository as obskit (a link to this
// one) and a new module, yourmodule (go mod init), whose main.go is program.
// It returns the directory above both and the module's.
func scratch(t *testing.T, program string) (above, mod string) {
	t.Helper()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	above = t.TempDir()
	mod = filepath.Join(above, "yourmodule")
	if err := os.Symlink(abs, filepath.Join(above, "obskit")); err != nil {
		t.Fatal(err)
	}
	run(t, above, "mkdir yourmodule && cd yourmodule && go mod init example.com/yourmodule")
	if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	return above, mod
}

// routeDir returns where a setup route's commands run: the workspace route's
// (go work) in the directory above the module, the go.mod route's in the
// module.
func routeDir(route block, above, mod string) string {
	if strings.Contains(route.body, "go work") {
		return above
	}
	return mod
}

// TestReadme builds and runs the README's first program in a scratch module set
// up exactly as the README says, by each of its two routes: the commands of its
// setup blocks run as they are written (the go.mod route in the module, the
// workspace route in the directory above it), next to a clone of the repository
// at ../obskit (a link to this one), and the program must print what the README
// says it prints. The module itself is the reader's (go mod init).
func TestReadme(t *testing.T) {
	_, routes, program, output := readmeSetup(t)
	for _, route := range routes {
		t.Run(strings.Fields(route.body)[1], func(t *testing.T) {
			t.Parallel()
			above, mod := scratch(t, program)
			if got := run(t, routeDir(route, above, mod), route.body); got != output {
				t.Errorf("README.md:%d: the program printed\n%s\nthe README says\n%s", route.line, got, output)
			}
		})
	}
}

// moduleRowRE finds a row of the README's table of library modules.
var moduleRowRE = regexp.MustCompile("(?m)^\\| `github\\.com/obskit/obskit/([^`]+)` \\|")

// modulePrograms are programs that import each library module of the
// repository, and what they print when run from the README's scratch module
// (whose ../obskit is the clone): TestReadmeModules runs each after the
// README's commands for its module.
var modulePrograms = map[string]struct{ src, want string }{
	"columnar": {`package main

import (
	"fmt"

	"github.com/obskit/obskit/columnar/arrowipc"
	"github.com/obskit/obskit/columnar/parquet"
)

func main() {
	a, err := arrowipc.Open("../obskit/columnar/testdata/interop/js.arrow")
	if err != nil {
		panic(err)
	}
	p, err := parquet.Open("../obskit/columnar/testdata/interop/rs-snappy.parquet")
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Nobs(), "Arrow rows,", p.Nobs(), "Parquet rows")
}
`, "1000 Arrow rows, 1000 Parquet rows\n"},
	"gomlx": {`package main

import (
	"fmt"

	"github.com/obskit/obskit/gomlx"
)

func main() {
	fmt.Println(gomlx.ChannelsLast, gomlx.ChannelsFirst)
}
`, "ChannelsLast ChannelsFirst\n"},
	"objstore": {`package main

import (
	"fmt"

	"github.com/obskit/obskit/objstore"
)

func main() {
	bucket, prefix, err := objstore.ParseURL("s3://data/imagenet/train")
	fmt.Println(bucket, prefix, err)
}
`, "data imagenet/train <nil>\n"},
	"arraycontainer/dense": {`package main

import (
	"fmt"

	"github.com/obskit/obskit/arraycontainer"
	"github.com/obskit/obskit/arraycontainer/dense"
	"github.com/obskit/obskit/obsdim"
)

func main() {
	a, err := arraycontainer.New([]float64{1, 2, 3, 4, 5, 6}, []int{2, 3}, obsdim.First)
	if err != nil {
		panic(err)
	}
	m, err := dense.FromArray(a)
	if err != nil {
		panic(err)
	}
	r, c := m.Dims()
	fmt.Println(r, c, m.At(1, 2))
}
`, "2 3 6\n"},
}

// TestReadmeModules follows the README's section on the other library modules
// for each module its table lists, by each route: in a scratch module set up
// by the README's route for the kit (whose first program runs), the section's
// commands for that route run as written, with the module's directory in place
// of columnar as the README says, and then a program that imports the module
// (modulePrograms) must build and run. The table must list every library
// module of the repository (every module but the root, the docs and the tools
// under cmd/ and bench/), so that a module added later is documented.
func TestReadmeModules(t *testing.T) {
	readme, routes, program, output := readmeSetup(t)
	var adds []block // the section's go.mod route, then its workspace route
	for _, b := range blocks(readme) {
		if b.lang == "sh" && section(readme, b.line) == "The other library modules" {
			adds = append(adds, b)
		}
	}
	if len(adds) != 2 || !strings.Contains(adds[0].body, "go mod edit") || !strings.Contains(adds[1].body, "go work use") {
		t.Fatalf("README: the section \"The other library modules\" has %d sh blocks: want 2, the go.mod route (go mod edit) and the workspace route (go work use)", len(adds))
	}
	for _, b := range adds {
		if !strings.Contains(b.body, "columnar") {
			t.Fatalf("README.md:%d: the commands name no columnar module, whose directory the test replaces by each module's", b.line)
		}
	}
	var listed, want []string
	for _, m := range moduleRowRE.FindAllStringSubmatch(readme.text, -1) {
		listed = append(listed, m[1])
	}
	for _, m := range modules(t) {
		if m.dir != "." && m.dir != "docs" && !tool(m.dir) {
			want = append(want, m.dir)
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Fatalf("README's table of library modules lists %v; the repository's library modules are %v", listed, want)
	}
	for _, dir := range listed {
		prog, ok := modulePrograms[dir]
		if !ok {
			t.Fatalf("no program of module %s in modulePrograms", dir)
		}
		for i, add := range adds {
			route := routes[i]
			t.Run(dir+"/"+strings.Fields(route.body)[1], func(t *testing.T) {
				t.Parallel()
				above, mod := scratch(t, program)
				if got := run(t, routeDir(route, above, mod), route.body); got != output {
					t.Fatalf("README.md:%d: the first program printed\n%s\nthe README says\n%s", route.line, got, output)
				}
				if err := os.WriteFile(filepath.Join(mod, "main.go"), []byte(prog.src), 0o644); err != nil {
					t.Fatal(err)
				}
				run(t, routeDir(add, above, mod), strings.ReplaceAll(add.body, "columnar", dir))
				if got := run(t, mod, "go run ."); got != prog.want {
					t.Errorf("README.md:%d: after the commands for %s, a program importing it printed\n%s\nwant\n%s", add.line, dir, got, prog.want)
				}
			})
		}
	}
}

// TestReadmeCLI runs the README's commands that install the command-line tool
// from the clone (go install -C cmd ./obskit) as written, in the directory
// holding the clone (a link to this repository), with GOBIN a directory of the
// test's on the PATH: they must succeed, and the installed obskit must answer
// -h with its usage.
func TestReadmeCLI(t *testing.T) {
	readme, _, _, _ := readmeSetup(t)
	var install *block
	for _, b := range blocks(readme) {
		if b.lang == "sh" && section(readme, b.line) == "The command-line tool" && strings.Contains(b.body, "go install -C cmd ./obskit") {
			install = &b
			break
		}
	}
	if install == nil {
		t.Fatal("README: no sh block with go install -C cmd ./obskit in the section \"The command-line tool\"")
	}
	above, _ := scratch(t, "package main\n\nfunc main() {}\n")
	bin := t.TempDir()
	env := []string{"GOBIN=" + bin, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	run(t, above, install.body, env...)
	if _, err := os.Stat(filepath.Join(bin, "obskit")); err != nil {
		t.Fatalf("README.md:%d: go install put no obskit in GOBIN: %v", install.line, err)
	}
	if got := run(t, above, "obskit -h 2>&1", env...); !strings.HasPrefix(got, "usage: obskit") {
		t.Errorf("README.md:%d: the installed obskit -h printed\n%s\nwant its usage", install.line, got)
	}
}

// section returns the title of the heading of p that line (counted from 1)
// falls under, without its #s ("" before the first heading). A line starting
// with # inside a fenced block is not a heading.
func section(p page, line int) string {
	title, fenced := "", false
	for i, l := range strings.Split(p.text, "\n") {
		if i+1 >= line {
			break
		}
		switch {
		case strings.HasPrefix(l, "```"):
			fenced = !fenced
		case !fenced && strings.HasPrefix(l, "#"):
			title = strings.TrimSpace(strings.TrimLeft(l, "#"))
		}
	}
	return title
}

// run runs script with sh in dir, with the environment of goEnv and env added,
// and returns its standard output; it fails t, with the script's errors, when
// the script fails.
func run(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("sh", "-e", "-c", script)
	cmd.Dir, cmd.Env = dir, append(goEnv(), env...)
	if raceEnabled {
		// Built as the tests were (and GoMLX's backend as make test builds
		// it, without checkptr), the kit's packages come from the build cache
		// instead of being compiled a second time; go mod ignores the flags.
		cmd.Env = append(cmd.Env, "GOFLAGS=-race -gcflags=github.com/gomlx/compute/...=-d=checkptr=0")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("in %s:\n%s\n%v\n%s", dir, script, err, stderr.String())
	}
	return string(out)
}
