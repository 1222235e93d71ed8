package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestField(t *testing.T) {
	text := "processor\t: 0\nmodel name\t: Intel(R) Xeon(R)\nL2 cache:   4 MiB (2 instances)\n"
	for key, want := range map[string]string{"model name": "Intel(R) Xeon(R)", "L2 cache": "4 MiB (2 instances)", "absent": ""} {
		if got := field(text, key); got != want {
			t.Errorf("field(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestReadMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("machine details are read from /proc on Linux")
	}
	m := readMachine(context.Background(), "go")
	if m.CPU == "" || m.CPUs < 1 || m.Memory == "" || m.Go == "" {
		t.Errorf("readMachine() = %+v: CPU, CPUs, Memory and Go should be set", m)
	}
}

func TestSampleLoad(t *testing.T) {
	if _, ok := loadAverage(); !ok {
		t.Skip("no /proc/loadavg")
	}
	stop := sampleLoad(time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	st := stop()
	if st.Samples < 3 || st.Min > st.Max || st.Mean < st.Min-1e-9 || st.Mean > st.Max+1e-9 {
		t.Errorf("sampleLoad() = %+v", st)
	}
}

func TestFamily(t *testing.T) {
	for _, tc := range []struct{ cpuinfo, want, micro string }{
		{"vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\nstepping\t: 1\n",
			"AuthenticAMD family 26 model 2 stepping 1", "Zen 5"},
		{"vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n", "GenuineIntel family 6 model 207", "Emerald Rapids"},
		{"vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 1\n", "GenuineIntel family 6 model 1", ""},
		{"processor\t: 0\n", "", ""},
	} {
		if got, micro := family(tc.cpuinfo); got != tc.want || micro != tc.micro {
			t.Errorf("family(%q) = %q, %q; want %q, %q", tc.cpuinfo, got, micro, tc.want, tc.micro)
		}
	}
}

func TestFeatures(t *testing.T) {
	if got, want := features("fpu sse2 avx2 erms avx512f avx512bw fsrm"), "features AVX2, AVX-512, ERMS, FSRM"; got != want {
		t.Errorf("features = %q, want %q", got, want)
	}
	if got := features("fpu sse2"); got != "" {
		t.Errorf("features without any = %q", got)
	}
}

func TestSysCaches(t *testing.T) {
	dir := t.TempDir()
	for i, c := range [][4]string{
		{"Data", "1", "48K", "0"}, {"Instruction", "1", "32K", "0"}, {"Unified", "2", "1024K", "0"}, {"Unified", "3", "32768K", "0-1"},
	} {
		d := filepath.Join(dir, fmt.Sprintf("index%d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j, f := range []string{"type", "level", "size", "shared_cpu_list"} {
			if err := os.WriteFile(filepath.Join(d, f), []byte(c[j]+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got, want := sysCaches(dir), "L1d 48 KiB per core, L2 1 MiB per core, L3 32 MiB shared by 2 CPUs"; got != want {
		t.Errorf("sysCaches = %q, want %q", got, want)
	}
	if got := sysCaches(filepath.Join(dir, "absent")); got != "" {
		t.Errorf("sysCaches of no directory = %q", got)
	}
	if got := cpuCount("0-3,8,10-11"); got != 7 {
		t.Errorf("cpuCount = %d, want 7", got)
	}
}

func TestMachineString(t *testing.T) {
	m := Machine{CPU: "AMD EPYC", CPUs: 2, Family: "AuthenticAMD family 26 model 2", Microarch: "Zen 5", Caches: "L2 1 MiB per core",
		Features: "features ERMS", Hypervisor: "KVM", Kernel: "amd64 assembly"}
	want := "AMD EPYC (AuthenticAMD family 26 model 2, Zen 5), 2 logical CPUs; L2 1 MiB per core; features ERMS; a KVM virtual machine; row kernel: amd64 assembly"
	if got := m.String(); got != want {
		t.Errorf("String() =\n %q\nwant\n %q", got, want)
	}
	m.Microarch = ""
	want = "AMD EPYC (AuthenticAMD family 26 model 2), 2 logical CPUs; L2 1 MiB per core; features ERMS; a KVM virtual machine; row kernel: amd64 assembly"
	if got := m.String(); got != want {
		t.Errorf("String() without a microarchitecture =\n %q\nwant\n %q", got, want)
	}
}
