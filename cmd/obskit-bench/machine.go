package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/obskit/obskit/internal/gather"
)

// Machine describes where the figures were measured, read from the system
// rather than typed by hand. Fields the system does not provide are empty.
type Machine struct {
	CPU  string `json:"cpu"`  // model name (/proc/cpuinfo)
	CPUs int    `json:"cpus"` // logical CPUs the Go runtime sees
	// Family names the processor beyond its model name, which a virtual
	// machine may shorten to "AMD EPYC": vendor, family, model and stepping
	// (/proc/cpuinfo).
	Family string `json:"family,omitempty"`
	// Microarch is the microarchitecture of Family, where its family and
	// model are known to this program: "Zen 5".
	Microarch string `json:"microarch,omitempty"`
	// Features are the CPU features the gather kernels care about, of those
	// /proc/cpuinfo lists: AVX2, AVX-512, ERMS and FSRM (fast REP MOVSB).
	Features string `json:"features,omitempty"`
	// Caches are the cache sizes: per core and shared, from sysfs, else the
	// totals lscpu reports.
	Caches string `json:"caches"`
	// Kernel is how the row kernel copies rows on this machine
	// (gather.Describe).
	Kernel     string `json:"kernel,omitempty"`
	Hypervisor string `json:"hypervisor"` // virtualization (lscpu), empty on bare metal
	Memory     string `json:"memory"`     // MemTotal (/proc/meminfo)
	OS         string `json:"os"`         // GOOS/GOARCH and kernel release
	Go         string `json:"go"`         // the toolchain that ran the benchmarks (go env GOVERSION)
	HugePages  string `json:"huge_pages"` // transparent huge pages mode
	// LoadBefore is the 1-minute load average when the run started: the
	// machine's other work (and what ran just before).
	LoadBefore float64 `json:"load_before"`
	// Load is the 1-minute load average sampled every few seconds while the
	// suite ran: its minimum, maximum and the samples' mean. The suite itself
	// keeps one thread busy most of the time (two in the prefetch and parallel
	// map benchmarks), so on an idle machine it reads about 1.
	Load LoadStats `json:"load"`
}

// LoadStats summarizes the load average samples of a run.
type LoadStats struct {
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Mean    float64 `json:"mean"`
	Samples int     `json:"samples"`
}

func (l LoadStats) String() string {
	if l.Samples == 0 {
		return "not read"
	}
	return fmt.Sprintf("%.1f - %.1f (mean %.1f of %d samples)", l.Min, l.Max, l.Mean, l.Samples)
}

// readMachine describes this machine; goCmd is the go command that runs the
// benchmarks.
func readMachine(ctx context.Context, goCmd string) Machine {
	m := Machine{CPUs: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	m.LoadBefore, _ = loadAverage()
	m.Caches = sysCaches("/sys/devices/system/cpu/cpu0/cache")
	cpuinfo := readFile("/proc/cpuinfo")
	m.CPU = field(cpuinfo, "model name")
	m.Family, m.Microarch = family(cpuinfo)
	m.Features = features(field(cpuinfo, "flags"))
	m.Kernel = gather.Describe()
	if kb, err := strconv.Atoi(strings.Fields(field(readFile("/proc/meminfo"), "MemTotal") + " 0")[0]); err == nil && kb > 0 {
		m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	if rel := strings.TrimSpace(readFile("/proc/sys/kernel/osrelease")); rel != "" {
		m.OS += ", Linux " + rel
	}
	if out, err := exec.CommandContext(ctx, "lscpu").Output(); err == nil {
		ls := string(out)
		m.CPU = cmp.Or(m.CPU, field(ls, "Model name"))
		if m.Caches == "" {
			var caches []string
			for _, c := range []string{"L1d", "L2", "L3"} {
				if v := field(ls, c+" cache"); v != "" {
					caches = append(caches, c+" "+v)
				}
			}
			m.Caches = strings.Join(caches, ", ")
		}
		m.Hypervisor = field(ls, "Hypervisor vendor")
	}
	if out, err := exec.CommandContext(ctx, goCmd, "env", "GOVERSION").Output(); err == nil {
		m.Go = strings.TrimSpace(string(out))
	}
	thp := readFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if i, j := strings.IndexByte(thp, '['), strings.IndexByte(thp, ']'); i >= 0 && j > i {
		m.HugePages = thp[i+1 : j]
	}
	return m
}

// String describes the machine in one line, as bench and compare print it
// before they measure.
func (m Machine) String() string {
	var b strings.Builder
	b.WriteString(cmp.Or(m.CPU, "unknown CPU"))
	if p := m.processor(); p != "" {
		fmt.Fprintf(&b, " (%s)", p)
	}
	fmt.Fprintf(&b, ", %d logical CPUs", m.CPUs)
	for _, s := range []string{m.Caches, m.Features} {
		if s != "" {
			b.WriteString("; " + s)
		}
	}
	if m.Hypervisor != "" {
		fmt.Fprintf(&b, "; a %s virtual machine", m.Hypervisor)
	}
	if m.Kernel != "" {
		b.WriteString("; row kernel: " + m.Kernel)
	}
	return b.String()
}

// processor describes the processor beyond its model name: its family and,
// where known, its microarchitecture.
func (m Machine) processor() string {
	if m.Microarch == "" {
		return m.Family
	}
	return m.Family + ", " + m.Microarch
}

// family names the first processor of a /proc/cpuinfo: vendor, family, model
// and stepping, and, where known, its microarchitecture.
func family(cpuinfo string) (name, micro string) {
	vendor := field(cpuinfo, "vendor_id")
	fam, err1 := strconv.Atoi(field(cpuinfo, "cpu family"))
	model, err2 := strconv.Atoi(field(cpuinfo, "model"))
	if vendor == "" || err1 != nil || err2 != nil {
		return "", ""
	}
	name = fmt.Sprintf("%s family %d model %d", vendor, fam, model)
	if st := field(cpuinfo, "stepping"); st != "" {
		name += " stepping " + st
	}
	return name, microarch(vendor, fam, model)
}

// microarch names the microarchitecture of the families the benchmarks have
// run on and their neighbours; others are left unnamed.
func microarch(vendor string, fam, model int) string {
	switch vendor {
	case "AuthenticAMD":
		switch {
		case fam == 0x17 && model < 0x30:
			return "Zen / Zen+"
		case fam == 0x17:
			return "Zen 2"
		case fam == 0x19 && (model < 0x10 || model >= 0x20 && model < 0x60):
			return "Zen 3"
		case fam == 0x19:
			return "Zen 4"
		case fam == 0x1a:
			return "Zen 5"
		}
	case "GenuineIntel":
		if fam == 6 {
			return map[int]string{85: "Skylake-SP / Cascade Lake", 106: "Ice Lake-SP", 143: "Sapphire Rapids",
				207: "Emerald Rapids", 173: "Granite Rapids"}[model]
		}
	}
	return ""
}

// features lists the flags of a /proc/cpuinfo "flags" line that decide how
// the kernels copy: vector widths and fast string moves.
func features(flags string) string {
	have := map[string]bool{}
	for _, f := range strings.Fields(flags) {
		have[f] = true
	}
	var out []string
	for _, f := range []struct{ flag, name string }{
		{"avx2", "AVX2"}, {"avx512f", "AVX-512"}, {"erms", "ERMS"}, {"fsrm", "FSRM"},
	} {
		if have[f.flag] {
			out = append(out, f.name)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "features " + strings.Join(out, ", ")
}

// sysCaches describes the data and unified caches of one CPU from sysfs (dir
// is /sys/devices/system/cpu/cpu0/cache): "L1d 48 KiB per core, L2 1 MiB per
// core, L3 32 MiB shared by 2 CPUs". It is empty where sysfs has no caches.
func sysCaches(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var out []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "index") {
			continue
		}
		read := func(f string) string { return strings.TrimSpace(readFile(filepath.Join(dir, e.Name(), f))) }
		typ, level, size := read("type"), read("level"), read("size")
		if typ == "Instruction" || level == "" || size == "" {
			continue
		}
		name := "L" + level
		if typ == "Data" {
			name += "d"
		}
		share := "per core"
		if n := cpuCount(read("shared_cpu_list")); n > 1 {
			share = fmt.Sprintf("shared by %d CPUs", n)
		}
		out = append(out, fmt.Sprintf("%s %s %s", name, kib(size), share))
	}
	return strings.Join(out, ", ")
}

// kib rewrites a sysfs cache size ("1024K") in KiB or MiB.
func kib(size string) string {
	n, err := strconv.Atoi(strings.TrimSuffix(size, "K"))
	if err != nil || !strings.HasSuffix(size, "K") {
		return size
	}
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%d MiB", n/1024)
	}
	return fmt.Sprintf("%d KiB", n)
}

// cpuCount counts the CPUs of a sysfs CPU list such as "0-3,8".
func cpuCount(list string) int {
	n := 0
	for _, part := range strings.Split(list, ",") {
		lo, hi, found := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		if err1 != nil {
			continue
		}
		b := a
		if found {
			if v, err := strconv.Atoi(hi); err == nil {
				b = v
			}
		}
		n += b - a + 1
	}
	return n
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// field returns the value of the first "key: value" line of text with that key.
func field(text, key string) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage returns the 1-minute load average, or false where the system does
// not provide it.
func loadAverage() (float64, bool) {
	f := bytes.Fields([]byte(readFile("/proc/loadavg")))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(f[0]), 64)
	return v, err == nil
}

// sampleLoad samples the load average every interval until stop is called,
// which returns the statistics of the samples (one is taken at each end).
func sampleLoad(interval time.Duration) (stop func() LoadStats) {
	var (
		mu  sync.Mutex
		st  LoadStats
		sum float64
	)
	take := func() {
		v, ok := loadAverage()
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if st.Samples == 0 || v < st.Min {
			st.Min = v
		}
		st.Max = max(st.Max, v)
		st.Samples++
		sum += v
		st.Mean = sum / float64(st.Samples)
	}
	take()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				take()
			}
		}
	}()
	return func() LoadStats {
		close(done)
		<-finished
		take()
		mu.Lock()
		defer mu.Unlock()
		return st
	}
}
