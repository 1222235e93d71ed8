package objstore_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/obskit/obskit/objstore"
)

// TestLaunched: the options first, then torchrun's, Slurm's and a
// Kubernetes Indexed Job's variables, in that order and from nothing else;
// a source that is present but incomplete or inconsistent is an error
// naming its variables, never a fall-through to the next.
func TestLaunched(t *testing.T) {
	vars := []string{"RANK", "WORLD_SIZE", "LOCAL_RANK", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "JOB_COMPLETION_INDEX"}
	type args struct{ rank, size, completions int }
	none := args{-1, 0, 0}
	for _, c := range []struct {
		what string
		env  map[string]string
		args args
		want objstore.World
		bad  string
	}{
		{what: "nothing", args: none, want: objstore.World{Rank: 0, Size: 1, From: "default"}},
		{what: "options over torchrun", env: map[string]string{"RANK": "1", "WORLD_SIZE": "4"}, args: args{2, 3, 0}, want: objstore.World{Rank: 2, Size: 3, From: "options"}},
		{what: "torchrun", env: map[string]string{"RANK": "5", "WORLD_SIZE": "8", "LOCAL_RANK": "1", "SLURM_PROCID": "0", "SLURM_NTASKS": "2"}, args: none, want: objstore.World{Rank: 5, Size: 8, LocalRank: 1, From: "torchrun"}},
		{what: "slurm", env: map[string]string{"SLURM_PROCID": "3", "SLURM_NTASKS": "4", "SLURM_LOCALID": "1", "JOB_COMPLETION_INDEX": "0"}, args: none, want: objstore.World{Rank: 3, Size: 4, LocalRank: 1, From: "slurm"}},
		{what: "kubernetes", env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, args: args{-1, 0, 3}, want: objstore.World{Rank: 2, Size: 3, From: "kubernetes"}},
		{what: "options out of range", args: args{3, 3, 0}, bad: "rank 3 of 3"},
		{what: "option size only", args: args{-1, 2, 0}, bad: "rank -1 of 2"},
		{what: "RANK without WORLD_SIZE", env: map[string]string{"RANK": "0", "SLURM_PROCID": "0", "SLURM_NTASKS": "1"}, args: none, bad: "RANK is set without WORLD_SIZE"},
		{what: "WORLD_SIZE without RANK", env: map[string]string{"WORLD_SIZE": "2"}, args: none, bad: "WORLD_SIZE is set without RANK"},
		{what: "RANK not a number", env: map[string]string{"RANK": "one", "WORLD_SIZE": "2"}, args: none, bad: `RANK="one"`},
		{what: "RANK outside", env: map[string]string{"RANK": "2", "WORLD_SIZE": "2"}, args: none, bad: "RANK=2 outside [0, WORLD_SIZE=2)"},
		{what: "SLURM_NTASKS missing", env: map[string]string{"SLURM_PROCID": "1"}, args: none, bad: "SLURM_PROCID is set without SLURM_NTASKS"},
		{what: "index without completions", env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, args: none, bad: "completions count"},
		{what: "index outside completions", env: map[string]string{"JOB_COMPLETION_INDEX": "4"}, args: args{-1, 0, 4}, bad: "JOB_COMPLETION_INDEX=4 outside [0, 4)"},
		{what: "LOCAL_RANK negative", env: map[string]string{"RANK": "0", "WORLD_SIZE": "1", "LOCAL_RANK": "-1"}, args: none, bad: "LOCAL_RANK=-1"},
	} {
		t.Run(c.what, func(t *testing.T) {
			for _, v := range vars {
				t.Setenv(v, "")
				unsetenv(t, v)
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			w, err := objstore.Launched(c.args.rank, c.args.size, c.args.completions)
			if c.bad != "" {
				if !errors.Is(err, objstore.ErrWorld) || !strings.Contains(err.Error(), c.bad) {
					t.Fatalf("Launched = %+v, %v; want ErrWorld naming %s", w, err, c.bad)
				}
				return
			}
			if err != nil || w != c.want {
				t.Fatalf("Launched = %+v, %v; want %+v", w, err, c.want)
			}
		})
	}
}

// unsetenv removes k from the environment for the test (t.Setenv first
// registered its restoration).
func unsetenv(t *testing.T, k string) {
	t.Helper()
	if err := os.Unsetenv(k); err != nil {
		t.Fatal(err)
	}
}
