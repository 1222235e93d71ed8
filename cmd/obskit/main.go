// Command obskit is the kit's command-line tool: one binary whose subcommands
// pack, list and inspect the data files the kit reads.
//
// Usage:
//
//	obskit <group> <command> [flags] [arguments]
//	obskit <group> <command> -h
//
// Flags may come before, between or after the arguments; an argument after --
// is never a flag. Each group is a kind of file (the groups are listed by
// obskit -h); each command says what it reads and writes with -h. Commands that
// a program reads print JSON lines, one object per line; long work shows a
// progress bar when stderr is a terminal. A command exits 0 on success, 2 for a
// bad command line and 1 for any other error, printed on one line that names
// the file at fault.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// A command is one subcommand, obskit <group> <name>. Each group registers its
// commands from a file of its own (rec.go, image.go, ...) with register.
type command struct {
	group, name string
	args        string // the synopsis of the arguments after the flags: "PREFIX ROOT"
	summary     string // one line: what the command does
	// flags defines the command's flags on fs and returns the function that runs
	// it with the arguments left after the flags.
	flags func(fs *flag.FlagSet) func(e *env, args []string) error
}

// env is what a running command may use: its output streams, and whether it may
// draw progress bars (stderr is a terminal).
type env struct {
	stdout, stderr io.Writer
}

var commands []command

func register(c command) { commands = append(commands, c) }

// errUsage marks an error of the command line (exit status 2).
var errUsage = errors.New("usage")

// usageErrorf returns an error of the command line.
func usageErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// cli runs the command args name and returns the exit status.
func cli(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) {
		printGroups(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	group := args[0]
	cmds := commandsOf(group)
	if len(cmds) == 0 {
		fmt.Fprintf(stderr, "obskit: unknown group %q\n", group)
		printGroups(stderr)
		return 2
	}
	if len(args) == 1 || isHelp(args[1]) {
		printCommands(stderr, group, cmds)
		if len(args) == 1 {
			return 2
		}
		return 0
	}
	i := slices.IndexFunc(cmds, func(c command) bool { return c.name == args[1] })
	if i < 0 {
		fmt.Fprintf(stderr, "obskit %s: unknown command %q\n", group, args[1])
		printCommands(stderr, group, cmds)
		return 2
	}
	c := cmds[i]
	name := "obskit " + c.group + " " + c.name
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s [flags] %s\n\n%s\n", name, c.args, c.summary)
		if hasFlags(fs) {
			fmt.Fprintf(stderr, "\nflags (before or after the arguments; -- ends them):\n")
			fs.PrintDefaults()
		}
	}
	run := c.flags(fs)
	flags, operands := splitFlags(fs, args[2:])
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	err := run(&env{stdout: stdout, stderr: stderr}, append(fs.Args(), operands...))
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "%s: %s\n", name, strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
		fs.Usage()
		return 2
	default:
		fmt.Fprintf(stderr, "%s: %s\n", name, strings.ReplaceAll(err.Error(), "\n", "; "))
		return 1
	}
}

// splitFlags separates args into the flags (each with its value when it takes
// one) and the other arguments, in their order, so that flags may come before,
// between or after the arguments. "--" ends the flags: every argument after it
// is an argument, even one that starts with "-"; so is "-" alone. A flag fs
// does not define is kept with the flags, for fs.Parse to report.
func splitFlags(fs *flag.FlagSet, args []string) (flags, operands []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(operands, args[i+1:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimPrefix(a[1:], "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, operands
}

func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "help" }

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// commandsOf returns the commands of group, in the order they were registered.
func commandsOf(group string) []command {
	var cs []command
	for _, c := range commands {
		if c.group == group {
			cs = append(cs, c)
		}
	}
	return cs
}

func printGroups(w io.Writer) {
	fmt.Fprintf(w, "usage: obskit <group> <command> [flags] [arguments]\n\ngroups:\n")
	var groups []string
	for _, c := range commands {
		if !slices.Contains(groups, c.group) {
			groups = append(groups, c.group)
		}
	}
	for _, g := range groups {
		var names []string
		for _, c := range commandsOf(g) {
			names = append(names, c.name)
		}
		fmt.Fprintf(w, "  %-8s %s\n", g, strings.Join(names, ", "))
	}
	fmt.Fprintf(w, "\nobskit <group> -h lists a group's commands; obskit <group> <command> -h, a command's flags.\n")
}

func printCommands(w io.Writer, group string, cmds []command) {
	fmt.Fprintf(w, "usage: obskit %s <command> [flags] [arguments]\n\ncommands:\n", group)
	for _, c := range cmds {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}
