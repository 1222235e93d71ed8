package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// num formats a figure with at least three significant digits and no exponent.
func num(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	case a >= 0.001:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// spread formats a measure as "median (min - max)", or "-" when not measured.
func spread(m Measure) string {
	switch len(m.Runs) {
	case 0:
		return "-"
	case 1:
		return num(m.Median)
	}
	return fmt.Sprintf("%s (%s - %s)", num(m.Median), num(m.Min), num(m.Max))
}

// table writes a markdown table.
func table(w io.Writer, head []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" --- |", len(head)))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
}

// cell escapes text for a markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// targetTable writes the targets and the figures of context (which have no
// want nor status) as one table, a row per command: the figures one command
// measures share its row, so that the report stays short. A command that also
// runs the Python peers (OBSKIT_PYTHON=..., or a peers.py run after it) stands
// for the same command without them.
func targetTable(w io.Writer, ts []Target) {
	var keys []string
	rows := map[string][]string{} // key: issue, figures, command
	for _, t := range ts {
		key := strings.TrimSpace(t.Command)
		if i := strings.Index(key, " "); strings.HasPrefix(key, "OBSKIT_PYTHON=") && i > 0 {
			key = key[i+1:]
		}
		key, _, _ = strings.Cut(key, "; /")
		fig := cell(t.What) + " (" + cell(t.Metric) + "): " + spread(t.Measured)
		if t.Want != "" {
			status := t.Status
			if status != "met" {
				status = "**" + status + "**"
			}
			fig += ", want " + t.Want + ", " + status
		}
		r, ok := rows[key]
		if !ok {
			keys = append(keys, key)
			rows[key] = []string{fmt.Sprint(t.Issue), fig, t.Command}
			continue
		}
		if issue := fmt.Sprint(t.Issue); !slices.Contains(strings.Split(r[0], ", "), issue) {
			r[0] += ", " + issue
		}
		r[1] += "; " + fig
		if len(t.Command) > len(r[2]) {
			r[2] = t.Command // the form that runs the peers too
		}
	}
	var out [][]string
	for _, k := range keys {
		r := rows[k]
		out = append(out, []string{r[0], r[1], "`" + cell(r[2]) + "`"})
	}
	table(w, []string{"issue", "figures (median, min - max)", "command"}, out)
}

// workloadTable writes obskit, the limit and the peers of every workload, a
// row per workload with its peers in one cell.
func workloadTable(w io.Writer, ws []Workload) {
	var rows [][]string
	for _, wl := range ws {
		rate := func(m Measure) string {
			if len(m.Runs) == 0 {
				return "-"
			}
			return num(m.Median) + " " + wl.Unit
		}
		lim, vs := "-", "-"
		if wl.Limit != nil {
			lim = rate(*wl.Limit) + " (" + wl.Limit.Name + ")"
			vs = spread(newMeasure("", ratios(wl.Obskit.Runs, wl.Limit.Runs)))
		}
		var peers []string
		for _, p := range wl.Peers {
			s := cell(p.Name) + " " + rate(p.Measure)
			if p.Ratio != 0 {
				s += " (x" + num(p.Ratio) + ")"
			}
			peers = append(peers, s)
		}
		ps := "-"
		if len(peers) > 0 {
			ps = strings.Join(peers, "; ")
		}
		rows = append(rows, []string{cell(wl.Title), rate(wl.Obskit) + " (`" + wl.Obskit.Name + "`)", lim, vs, ps})
	}
	table(w, []string{"workload", "obskit", "limit", "obskit/limit", "peers: throughput (obskit/peer)"}, rows)
}

// peers returns the peers of w other than Python's own copy, which results
// files written before the peers alternated with obskit hold as a check that
// both processes saw the same machine.
func (w Workload) peers() []Peer {
	return slices.DeleteFunc(slices.Clone(w.Peers), func(p Peer) bool { return p.Kind == "limit" })
}

// A sideTable is an experiment shown as one table: a row per regime and
// sub-benchmark Prefix<row> of package bench, a column per side (its median
// throughput) and per ratio (the median of a metric).
type sideTable struct {
	title, intro, prefix, rowHead string
	sides                         [][2]string // side, head
	ratios                        [][2]string // metric, head
}

var sideTables = []sideTable{
	{"The copy routine by row size", "Rows of one size from random places of the regime's source into batches of about 400 KB, GB/s: the kernel; `copy()` per row (Go's `memmove`); in C, each routine (`memcpy`, glibc's choice; REP MOVSB; 16-, 32- and 64-byte vector moves) with the kernel's prefetch cursor (8 KiB ahead, the first 128 bytes of each row on amd64), and without prefetch (\"none\").",
		"BenchmarkKernel/%s/rows/", "row bytes", [][2]string{{"kit", "kernel"}, {"go", "copy()"}, {"memcpy", "memcpy"}, {"memcpy-0", "none"},
			{"movsb", "REP MOVSB"}, {"movsb-0", "none"}, {"sse", "16-byte"}, {"sse-0", "none"}, {"avx2", "32-byte"}, {"avx2-0", "none"}, {"avx512", "64-byte"}, {"avx512-0", "none"}}, nil},
	{"Prefetch distance", "C's `memcpy` per row with the cursor at other distances ahead of the copy (bytes of the batch in flight), GB/s.",
		"BenchmarkKernel/%s/distance/", "row bytes", [][2]string{{"kit", "kernel"}, {"0KiB", "none"}, {"1KiB", "1 KiB"}, {"2KiB", "2 KiB"},
			{"4KiB", "4 KiB"}, {"8KiB", "8 KiB"}, {"16KiB", "16 KiB"}, {"32KiB", "32 KiB"}}, nil},
	{"How much of each row to prefetch", "From DRAM, C's cursor 8 KiB ahead around the kernel's routine for the row size (32-byte moves below 2 KiB, REP MOVSB from) requesting nothing, the first 64, 128 or 256 bytes of each row, or every line of it, GB/s; the kernel requests the first 128 on amd64.",
		"BenchmarkKernel/%s/head/", "row bytes", [][2]string{{"kit", "kernel"}, {"none", "none"}, {"head64", "64 B"}, {"head128", "128 B"}, {"head256", "256 B"}, {"all", "whole row"}}, nil},
	{"The destination", "3136-byte rows into one reused batch (the kernel, as a user's loop does), rotating among 2 and 8 batches (a prefetching loop), among batches twice the last-level cache (written from memory each time), and into a new batch each time (as NumPy's `X[idx]`), GB/s.",
		"BenchmarkKernel/%s/dst", "", [][2]string{{"kit", "reused"}, {"rotate2", "2 rotating"}, {"rotate8", "8 rotating"}, {"cold", "cold"}, {"fresh", "new each batch"}}, nil},
	{"The suite's harness", "3136-byte rows: the kernel's loop in turns of 500 ms of passes (the suite's harness since issue 15: a side's figure is the fastest pass of its turn), in turns of 8 passes (the harness until then), and with its batches alternating with copy() and two C loops (before issue 15), while another side gathers from another source of the same size between their turns (a peer's array), GB/s; ratios are the turn's time over the other harness's.",
		"BenchmarkKernel/%s/harness", "", [][2]string{{"kit", "turn of 500 ms"}, {"turn8", "turn of 8 passes"}, {"batchwise", "between other sides' batches"}, {"other", "another source"}},
		[][2]string{{"x-turn8", "500 ms / 8 passes"}, {"x-batchwise", "500 ms / batchwise"}}},
	{"The observation-last gather", "float32 stored [784 rows], 32 batches of 128 picks a pass: the kernel's column loop (each pick of the next row prefetched beside the current one) against C loops row by row without prefetch, with each pick prefetched one and two rows ahead, with all of the next row's picks prefetched before each row (the kernel before issue 15), and pick by pick down the rows (PyTorch's `index_select(dim=1)` order), GB/s.",
		"BenchmarkKernel/%s/last", "", [][2]string{{"kit", "kernel"}, {"none", "none"}, {"next", "next row"}, {"ahead2", "2 rows ahead"}, {"burst", "next row first"}, {"pickwise", "pick by pick"}}, nil},
	{"Placement", "3136-byte rows with the batch 4 and 32 bytes off a cache line, the source rows 4 bytes off, and the source in 4 KiB pages instead of 2 MiB ones, GB/s.",
		"BenchmarkKernel/%s/place", "", [][2]string{{"kit", "aligned"}, {"dst+4", "batch +4"}, {"dst+32", "batch +32"}, {"src+4", "source +4"}, {"4k", "4 KiB pages"}}, nil},
	{"A batch split across two goroutines", "One shuffled batch of float32 rows (60000 x 784) gathered by two goroutines, each calling `gather.GatherPart` for half, against one calling `gather.Gather`, and the same in C (two threads each copying half with `memcpy` and the kernel's cursor, against one), GB/s; speedups are one's time over two's, pass by pass. The split pays where the speedup passes 1.",
		"BenchmarkSplit/", "rows per batch", [][2]string{{"one", "one goroutine"}, {"two", "two goroutines"}, {"c-one", "C, one thread"}, {"c-two", "C, two threads"}},
		[][2]string{{"x-one", "speedup"}, {"x-c-one/x-c-two", "C's speedup"}, {"x-c", "kit / C"}}},
}

// tables draws the experiments' tables of s as markdown.
func tables(s Samples, count int) string {
	var b bytes.Buffer
	for _, t := range sideTables {
		var rows [][]string
		keys := []string{""} // the split reads one array, 60000 x 784
		if strings.Contains(t.prefix, "%s") {
			keys = []string{regimes[0].key, regimes[1].key}
		}
		for _, key := range keys {
			prefix := "bench " + strings.ReplaceAll(t.prefix, "%s", key)
			var names []string
			for k := range s {
				if name, ok := strings.CutPrefix(k, prefix); ok {
					names = append(names, name)
				}
			}
			slices.SortFunc(names, func(a, c string) int {
				x, _ := strconv.Atoi(a)
				y, _ := strconv.Atoi(c)
				return cmp.Or(x-y, strings.Compare(a, c))
			})
			for _, name := range names {
				row := []string{strings.TrimSpace(key + " " + name)}
				for _, c := range t.sides {
					row = append(row, gbps(s[prefix+name][c[0]+"-MB/s"]))
				}
				for _, c := range t.ratios {
					num, den, _ := strings.Cut(c[0], "/")
					runs := s[prefix+name][num]
					if den != "" {
						runs = ratios(runs, s[prefix+name][den])
					}
					row = append(row, spread(newMeasure("", runs)))
				}
				rows = append(rows, row)
			}
		}
		if len(rows) == 0 {
			continue
		}
		head := []string{t.rowHead}
		if len(keys) > 1 {
			head[0] = strings.TrimSuffix("regime, "+t.rowHead, ", ")
		}
		for _, c := range append(slices.Clone(t.sides), t.ratios...) {
			head = append(head, c[1])
		}
		fmt.Fprintf(&b, "\n**%s.** %s\n\n", t.title, t.intro)
		table(&b, head, rows)
	}
	if b.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("Medians of %d runs; the sides alternate pass by pass. Command: `%s`.\n", count, benchCommand("bench", "BenchmarkKernel", count)) + b.String()
}

// gbps formats the median of MB/s values in GB/s, or "-".
func gbps(mbs []float64) string {
	if len(mbs) == 0 {
		return "-"
	}
	return num(newMeasure("", mbs).Median / 1e3)
}

// The generated part of docs/performance.md lies between these lines; report
// rewrites it and leaves the rest of the file alone.
const (
	beginMarker = "<!-- obskit-bench:begin: generated by `make chart` from bench/results/; edit cmd/obskit-bench, not this -->"
	endMarker   = "<!-- obskit-bench:end -->"
)

var errNoMarkers = errors.New("markers of the generated section not found")

// updateDoc rewrites the generated section of the markdown file at path with
// a section per results file of rs, each with its chart.
func updateDoc(path string, rs []*Results, charts map[*Results]string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(doc, []byte(beginMarker)), bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i {
		return fmt.Errorf("%s: %w: the file needs a line %q and, after it, a line %q", path, errNoMarkers, beginMarker, endMarker)
	}
	var b bytes.Buffer
	b.Write(doc[:i+len(beginMarker)])
	if len(rs) > 1 {
		fmt.Fprintf(&b, "\n\nFigures of %d machines, the newest run first; each machine's section is its own `make compare` run.\n", len(rs))
	}
	kernel := false // the kernel's experiments are shown for the newest run that has them
	for _, r := range rs {
		fmt.Fprintf(&b, "\n### %s\n\n", machineTitle(r))
		section(&b, r, charts[r], !kernel)
		kernel = kernel || r.Tables != ""
	}
	b.WriteString("\n")
	b.Write(doc[j:])
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// machineTitle heads the section of a run: the machine and the date.
func machineTitle(r *Results) string {
	m := r.Machine
	s := m.CPU
	if m.Microarch != "" {
		s += " (" + m.Microarch + ")"
	}
	s += fmt.Sprintf(", %d CPUs", m.CPUs)
	if m.Hypervisor != "" {
		s += ", " + m.Hypervisor
	}
	return s + ", " + r.Date.UTC().Format("2006-01-02 15:04") + " UTC"
}

// section writes the section of one run: how the figures were made, the
// targets, the experiments (with tables false, only where to find them: an
// older run's experiments measured an older kernel), and the comparison with
// its chart.
func section(b *bytes.Buffer, r *Results, chart string, tables bool) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	m := r.Machine
	if r.Quick {
		p("**Quick run (`-quick`): every benchmark ran one iteration to test the pipeline; the figures below mean nothing.**\n\n")
	}
	p("- Measured %s (UTC), %s in all, %d runs of every benchmark.\n", r.Date.UTC().Format("2006-01-02 15:04"), r.Duration, r.Count)
	p("- Machine: %s; %s memory; %s; %s; transparent huge pages `%s`.\n", m, m.Memory, m.OS, m.Go, m.HugePages)
	p("- Load average (1 minute): %.2f when the run started; while measuring %s on %d CPUs (the suite itself accounts for about 1).", m.LoadBefore, m.Load, m.CPUs)
	if m.Load.Samples > 0 && m.Load.Mean > float64(m.CPUs)+0.5 {
		p(" **The machine was shared: other processes competed for the %d cores, so absolute figures are low and noisy; ratios of sides that alternate within one benchmark are the figures to trust, and even those vary.**", m.CPUs)
	}
	p("\n")
	if r.Python != nil {
		v := []string{r.Python.Interpreter}
		for _, k := range []string{"python", "numpy", "torch", "torch_threads", "sklearn"} {
			if r.Python.Versions[k] != "" {
				v = append(v, k+" "+r.Python.Versions[k])
			}
		}
		p("- Peers: %s.\n", strings.Join(v, ", "))
	}
	for _, s := range r.Skipped {
		p("- **Skipped %s**: %s.\n", s.Peers, s.Reason)
	}
	for _, f := range r.Failures {
		p("- **Failed**: `%s`.\n", f)
	}
	cmds := make([]string, len(r.Commands))
	for i, c := range r.Commands {
		cmds[i] = "`" + cell(c) + "`"
	}
	p("- Commands, in order (all run by `make compare`): %s.\n", strings.Join(cmds, "; "))

	met := 0
	var other []string
	for _, t := range r.Targets {
		if t.Status == "met" {
			met++
		} else {
			other = append(other, fmt.Sprintf("%s (issue %d, %s)", t.What, t.Issue, t.Status))
		}
	}
	p("\n#### Targets\n\n%d of %d targets met.", met, len(r.Targets))
	if len(other) > 0 {
		p(" Not met: %s.", strings.Join(other, "; "))
	}
	p(" Median of %d runs, min - max in parentheses. A row holds the targets, and the figures that explain them (no want of their own), that its command measures alone.\n\n", r.Count)
	targetTable(b, append(slices.Clone(r.Targets), r.Context...))
	if r.Tables != "" && tables {
		p("\n#### Where a shuffled gather's time goes on this machine\n\n%s", r.Tables)
	} else if r.Tables != "" {
		p("\nWhere a shuffled gather's time went on this machine (`BenchmarkKernel`, the kernel of that date): the tables of its results file, bench/results/%s.json (`tables`).\n", r.Machine.Slug())
	}
	p("\n#### obskit against the limit and the peers\n\n")
	p("Median throughput of %d runs. The limit, the C reference and the peers are measured in the same benchmark as obskit, one pass of each in turn; `obskit/limit` and a peer's `x` are obskit's ratio over them pass by pass (higher = obskit faster).\n\n", r.Count)
	if chart != "" {
		p("![Throughput of obskit, its limit and its peers](%s)\n\n", chart)
	}
	workloadTable(b, r.Workloads)
}
