package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/obskit/obskit/internal/gather"
)

// Machine describes where the figures were measured, read from the system
// rather than typed by hand. Fields the system does not provide are empty.
type Machine struct {
	CPU  string `json:"cpu"`  // model name (/proc/cpuinfo)
	CPUs int    `json:"cpus"` // logical CPUs the Go runtime sees
	// Family is the vendor, family, model and stepping, which a virtual
	// machine's model name ("AMD EPYC") leaves out; Microarch names it where
	// this program knows the family ("Zen 5").
	Family    string `json:"family,omitempty"`
	Microarch string `json:"microarch,omitempty"`
	// Features are the CPU features the kernels care about: AVX2, AVX-512,
	// ERMS and FSRM (fast REP MOVSB).
	Features string `json:"features,omitempty"`
	Caches   string `json:"caches"` // the size of one of each cache (lscpu -C)
	// Kernel is how the row kernel copies rows here (gather.Describe).
	Kernel     string `json:"kernel,omitempty"`
	Hypervisor string `json:"hypervisor"` // lscpu's, empty on bare metal
	Memory     string `json:"memory"`     // MemTotal (/proc/meminfo)
	OS         string `json:"os"`         // GOOS/GOARCH and kernel release
	Go         string `json:"go"`         // the toolchain of the benchmarks
	HugePages  string `json:"huge_pages"` // transparent huge pages mode
	// LoadBefore is the 1-minute load average when the run started; Load the
	// samples taken every few seconds while it ran. The suite keeps about one
	// core busy itself.
	LoadBefore float64   `json:"load_before"`
	Load       LoadStats `json:"load"`
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

// readMachine describes this machine; goCmd is the go command of the
// benchmarks.
func readMachine(ctx context.Context, goCmd string) Machine {
	m := Machine{CPUs: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, Kernel: gather.Describe()}
	m.LoadBefore, _ = loadAverage()
	cpuinfo := readFile("/proc/cpuinfo")
	m.CPU = field(cpuinfo, "model name")
	fam, err1 := strconv.Atoi(field(cpuinfo, "cpu family"))
	model, err2 := strconv.Atoi(field(cpuinfo, "model"))
	if vendor := field(cpuinfo, "vendor_id"); vendor != "" && err1 == nil && err2 == nil {
		m.Family = fmt.Sprintf("%s family %d model %d stepping %s", vendor, fam, model, field(cpuinfo, "stepping"))
		m.Microarch = microarch(vendor, fam, model)
	}
	var feats []string
	flags := " " + field(cpuinfo, "flags") + " "
	for _, f := range [][2]string{{"avx2", "AVX2"}, {"avx512f", "AVX-512"}, {"erms", "ERMS"}, {"fsrm", "FSRM"}} {
		if strings.Contains(flags, " "+f[0]+" ") {
			feats = append(feats, f[1])
		}
	}
	if len(feats) > 0 {
		m.Features = "features " + strings.Join(feats, ", ")
	}
	if kb, err := strconv.Atoi(strings.TrimSuffix(field(readFile("/proc/meminfo"), "MemTotal"), " kB")); err == nil {
		m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	if rel := strings.TrimSpace(readFile("/proc/sys/kernel/osrelease")); rel != "" {
		m.OS += ", Linux " + rel
	}
	if out, err := exec.CommandContext(ctx, "lscpu").Output(); err == nil {
		m.Hypervisor = field(string(out), "Hypervisor vendor")
	}
	if out, err := exec.CommandContext(ctx, "lscpu", "-C=NAME,ONE-SIZE").Output(); err == nil {
		var cs []string
		for _, l := range strings.Split(string(out), "\n")[1:] {
			if f := strings.Fields(l); len(f) == 2 && f[0] != "L1i" {
				cs = append(cs, f[0]+" "+f[1])
			}
		}
		m.Caches = strings.Join(cs, ", ")
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

// String describes the machine in one line.
func (m Machine) String() string {
	s := cmp.Or(m.CPU, "unknown CPU")
	if m.Family != "" {
		s += " (" + strings.TrimSuffix(m.Family+", "+m.Microarch, ", ") + ")"
	}
	s += fmt.Sprintf(", %d logical CPUs", m.CPUs)
	for _, f := range []string{m.Caches, m.Features} {
		if f != "" {
			s += "; " + f
		}
	}
	if m.Hypervisor != "" {
		s += "; a " + m.Hypervisor + " virtual machine"
	}
	if m.Kernel != "" {
		s += "; row kernel: " + m.Kernel
	}
	return s
}

// microarch names the microarchitecture of the families the benchmarks have
// run on and their neighbours; others are left unnamed.
func microarch(vendor string, fam, model int) string {
	switch {
	case vendor == "AuthenticAMD" && fam == 0x17:
		return map[bool]string{true: "Zen / Zen+", false: "Zen 2"}[model < 0x30]
	case vendor == "AuthenticAMD" && fam == 0x19:
		return map[bool]string{true: "Zen 3", false: "Zen 4"}[model < 0x10 || model >= 0x20 && model < 0x60]
	case vendor == "AuthenticAMD" && fam == 0x1a:
		return "Zen 5"
	case vendor == "GenuineIntel" && fam == 6:
		return map[int]string{85: "Skylake-SP / Cascade Lake", 106: "Ice Lake-SP", 143: "Sapphire Rapids",
			207: "Emerald Rapids", 173: "Granite Rapids"}[model]
	}
	return ""
}

func readFile(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// field returns the value of the first "key: value" line of text with that key.
func field(text, key string) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage returns the 1-minute load average, or false where the system
// does not provide it.
func loadAverage() (float64, bool) {
	f := strings.Fields(readFile("/proc/loadavg"))
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// sampleLoad samples the load average every interval until stop is called,
// which returns the statistics of the samples (one is taken at each end).
func sampleLoad(interval time.Duration) (stop func() LoadStats) {
	var st LoadStats
	take := func() {
		if v, ok := loadAverage(); ok {
			if st.Samples == 0 || v < st.Min {
				st.Min = v
			}
			st.Max = max(st.Max, v)
			st.Mean = (st.Mean*float64(st.Samples) + v) / float64(st.Samples+1)
			st.Samples++
		}
	}
	take()
	done, finished := make(chan struct{}), make(chan struct{})
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
		return st
	}
}
