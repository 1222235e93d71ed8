package s3test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Module and Version name the SeaweedFS source the tests run: a pseudo-version
// of its repository (it tags releases as "3.99", which Go does not read as
// versions), checked on this project's machines. Change both here only; the
// cached binary is kept per version.
const (
	Module  = "github.com/seaweedfs/seaweedfs"
	Version = "v0.0.0-20261109003541-7506e5f91cd6"
)

// ErrNotBuilt is wrapped by the errors of [Binary] and [Start] when the
// SeaweedFS binary has not been built: `make weed` (part of `make test`)
// builds it.
var ErrNotBuilt = errors.New("s3test: the SeaweedFS server is not built (make weed builds it, once per version)")

// CacheDir returns the directory that holds the binary of [Version]:
// OBSKIT_WEED_CACHE when set, otherwise obskit/seaweedfs-<Version> under the
// user's cache directory ($XDG_CACHE_HOME, or ~/.cache on Linux), outside the
// repository, so that every clone and every run shares one build.
func CacheDir() (string, error) {
	if d := os.Getenv("OBSKIT_WEED_CACHE"); d != "" {
		return filepath.Join(d, "seaweedfs-"+Version), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("s3test: no cache directory for the SeaweedFS binary (set OBSKIT_WEED_CACHE): %w", err)
	}
	return filepath.Join(d, "obskit", "seaweedfs-"+Version), nil
}

// Binary returns the path of the built weed binary, or an error wrapping
// [ErrNotBuilt] that names where it was looked for.
func Binary() (string, error) {
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "weed")
	if fi, err := os.Stat(bin); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%w: no %s", ErrNotBuilt, bin)
	}
	return bin, nil
}

// Build builds the weed binary of [Version] into [CacheDir] unless it is
// there, and returns its path. It runs the go command (GO, or go on PATH):
// `go mod download -json Module@Version` fetches the source from the Go
// module proxy (the module has a replace directive, so `go install
// module@version` refuses it), a writable copy of it is built with `go build
// ./weed` (about 7 CPU-minutes, 11 minutes of wall time on 2 cores with the
// downloads), and the binary is renamed into place, so that an interrupted
// build leaves nothing that looks built. Two builds at once both finish; the
// last rename wins. Progress goes to log.
func Build(log io.Writer) (string, error) {
	if bin, err := Binary(); err == nil {
		return bin, nil
	}
	dir, err := CacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("s3test: build: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".build-*")
	if err != nil {
		return "", fmt.Errorf("s3test: build: %w", err)
	}
	defer os.RemoveAll(tmp)
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	start := time.Now()
	fmt.Fprintf(log, "s3test: building SeaweedFS %s@%s into %s (once per version)\n", Module, Version, dir)

	var out bytes.Buffer
	dl := exec.Command(goCmd, "mod", "download", "-json", Module+"@"+Version)
	dl.Dir, dl.Stdout, dl.Stderr = tmp, &out, log
	dl.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if err := dl.Run(); err != nil {
		return "", fmt.Errorf("s3test: go mod download %s@%s: %w: %s", Module, Version, err, out.Bytes())
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out.Bytes(), &mod); err != nil || mod.Dir == "" {
		return "", fmt.Errorf("s3test: go mod download %s@%s gave no directory (%v): %s", Module, Version, err, mod.Error)
	}
	fmt.Fprintf(log, "s3test: source in %s (%.0fs)\n", mod.Dir, time.Since(start).Seconds())

	// The module cache is read-only; the build writes nothing into the
	// source, but a copy keeps the cache pristine whatever the toolchain does.
	src := filepath.Join(tmp, "src")
	if err := os.CopyFS(src, os.DirFS(mod.Dir)); err != nil {
		return "", fmt.Errorf("s3test: copy %s: %w", mod.Dir, err)
	}
	bin := filepath.Join(tmp, "weed")
	build := exec.Command(goCmd, "build", "-ldflags=-s -w", "-o", bin, "./weed")
	build.Dir, build.Stdout, build.Stderr = src, log, log
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly -buildvcs=false")
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("s3test: go build ./weed in a copy of %s: %w", mod.Dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("s3test: build: %w", err)
	}
	final := filepath.Join(dir, "weed")
	if err := os.Rename(bin, final); err != nil {
		return "", fmt.Errorf("s3test: build: %w", err)
	}
	fmt.Fprintf(log, "s3test: built %s in %.0fs\n", final, time.Since(start).Seconds())
	return final, nil
}
