// Command buildweed builds the SeaweedFS server of the tests into its cache
// directory unless it is there (s3test.Build), and prints its path: `make
// weed` runs it, and `make test` before the tests.
package main

import (
	"fmt"
	"os"

	"github.com/obskit/obskit/objstore/s3test"
)

func main() {
	bin, err := s3test.Build(os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(bin)
}
