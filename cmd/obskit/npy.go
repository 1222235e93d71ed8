package main

import (
	"encoding/json"
	"flag"

	"github.com/obskit/obskit/npy"
)

func init() {
	register(command{
		group: "npy", name: "stat", args: "FILE.npy...",
		summary: "print the header of each .npy file as one JSON object per line: path, dtype, go_type, shape, fortran, data_offset, data_bytes",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return npyStat
		},
	})
}

// npyHeader is the JSON line of obskit npy stat.
type npyHeader struct {
	Path       string `json:"path"`
	Dtype      string `json:"dtype"`
	GoType     string `json:"go_type,omitempty"`
	Shape      []int  `json:"shape"`
	Fortran    bool   `json:"fortran"`
	DataOffset int64  `json:"data_offset"`
	DataBytes  int64  `json:"data_bytes"`
}

func npyStat(e *env, args []string) error {
	if len(args) == 0 {
		return usageErrorf("no file named")
	}
	enc := json.NewEncoder(e.stdout)
	for _, path := range args {
		h, err := npy.Stat(path)
		if err != nil {
			return err // names the file
		}
		shape := h.Shape
		if shape == nil {
			shape = []int{}
		}
		if err := enc.Encode(npyHeader{path, h.Dtype.Descr, h.Dtype.GoType(), shape, h.Fortran, h.DataOffset, h.DataSize()}); err != nil {
			return err
		}
	}
	return nil
}
