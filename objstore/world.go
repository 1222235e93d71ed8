package objstore

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/obskit/obskit/index"
)

// ErrWorld is wrapped by the error of [Launched] when the launcher's
// variables do not describe a rank of a world: a number that is not one, a
// rank outside the world, one variable of a pair without the other.
var ErrWorld = errors.New("objstore: bad rank or world size")

// A World is this process's place among the processes of a job: its rank
// in [0, Size), the number of processes, its rank on its machine (which
// picks its cache directory there) and where they came from ("options",
// "torchrun", "slurm", "kubernetes" or "default").
type World struct {
	Rank, Size, LocalRank int
	From                  string
}

// Part returns the share of the loop's steps this process takes: part Rank
// of Size, strided (eachobs.Partition), as the order of
// eachobs.ShuffleBlocksLocal wants it.
func (w World) Part() index.Part { return index.Part{Index: w.Rank, Parts: w.Size, Strided: true} }

// Launched returns this process's [World], from the first of these that
// says it, and from nothing else (no coordinator, no network):
//
//   - the options: rank >= 0 and size >= 1, given by the caller (flags);
//   - torchrun's RANK and WORLD_SIZE, with LOCAL_RANK;
//   - Slurm's SLURM_PROCID and SLURM_NTASKS, with SLURM_LOCALID;
//   - a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, with completions
//     (the Job's spec.completions, which Kubernetes does not put in the
//     environment: the caller passes it; a failed pod restarts with the same
//     index, and so reads the same share);
//   - otherwise rank 0 of 1.
//
// Pass rank -1, size 0 and completions 0 for what the caller does not give.
// It returns an error wrapping [ErrWorld] that names the variables when the
// first source that is present is incomplete or inconsistent (a rank outside
// the world, a value that is not a number, RANK without WORLD_SIZE).
func Launched(rank, size, completions int) (World, error) {
	switch {
	case rank >= 0 || size > 0:
		if rank < 0 || size < 1 || rank >= size {
			return World{}, fmt.Errorf("%w: options: rank %d of %d processes", ErrWorld, rank, size)
		}
		return World{Rank: rank, Size: size, From: "options"}, nil
	case present("RANK", "WORLD_SIZE"):
		return fromEnv("torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK")
	case present("SLURM_PROCID", "SLURM_NTASKS"):
		return fromEnv("slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID")
	case present("JOB_COMPLETION_INDEX"):
		r, err := envInt("JOB_COMPLETION_INDEX")
		if err != nil {
			return World{}, err
		}
		if completions < 1 {
			return World{}, fmt.Errorf("%w: JOB_COMPLETION_INDEX=%d is set, and the Job's completions count (the world size) was not given", ErrWorld, r)
		}
		if r < 0 || r >= completions {
			return World{}, fmt.Errorf("%w: JOB_COMPLETION_INDEX=%d outside [0, %d) completions", ErrWorld, r, completions)
		}
		return World{Rank: r, Size: completions, From: "kubernetes"}, nil
	}
	return World{Rank: 0, Size: 1, From: "default"}, nil
}

// present reports whether any of the variables is set.
func present(vars ...string) bool {
	for _, v := range vars {
		if _, ok := os.LookupEnv(v); ok {
			return true
		}
	}
	return false
}

func envInt(name string) (int, error) {
	s := os.Getenv(name)
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %s=%q is not a number", ErrWorld, name, s)
	}
	return v, nil
}

// fromEnv reads a launcher's rank, world size and local rank (0 when unset).
func fromEnv(from, rankVar, sizeVar, localVar string) (World, error) {
	for _, v := range []string{rankVar, sizeVar} {
		if _, ok := os.LookupEnv(v); !ok {
			return World{}, fmt.Errorf("%w: %s is set without %s", ErrWorld, map[bool]string{true: sizeVar, false: rankVar}[v == rankVar], v)
		}
	}
	r, err := envInt(rankVar)
	if err != nil {
		return World{}, err
	}
	n, err := envInt(sizeVar)
	if err != nil {
		return World{}, err
	}
	if n < 1 || r < 0 || r >= n {
		return World{}, fmt.Errorf("%w: %s=%d outside [0, %s=%d)", ErrWorld, rankVar, r, sizeVar, n)
	}
	w := World{Rank: r, Size: n, From: from}
	if _, ok := os.LookupEnv(localVar); ok {
		if w.LocalRank, err = envInt(localVar); err != nil {
			return World{}, err
		}
		if w.LocalRank < 0 {
			return World{}, fmt.Errorf("%w: %s=%d is negative", ErrWorld, localVar, w.LocalRank)
		}
	}
	return w, nil
}
