package main

import (
	"errors"
	"fmt"
	"github.com/obskit/obskit/cmd/internal/progress"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// cli runs the demo with the command-line arguments args and returns the exit
// status: 0 after the report (or -h), 2 for a bad command line (the flag
// package's convention), 1 for any other error, printed to stderr on one line.
func cli(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, errHelp):
		return 0
	case err != nil:
		return 2 // parseFlags has printed the problem and how to get help
	}
	rep, err := run(cfg, progress.New(progress.Output(stderr, cfg.progress)))
	if err != nil {
		fmt.Fprintf(stderr, "obskit-demo: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return 1
	}
	rep.print(stdout)
	return 0
}

// run loads the data cfg names and runs the experiment on it, showing progress
// on p, which it stops before returning.
func run(cfg config, p *progress.Progress) (*report, error) {
	defer p.Stop()
	d, err := load(cfg)
	if err != nil {
		return nil, err
	}
	return d.experiment(cfg, p)
}
