//go:build !linux

package imagedata

// readFile appends the contents of file i to dst: AppendFile, whose open
// allocates (the Linux build reads with system calls into reused buffers).
func (f *Files) readFile(dst []byte, path *[]byte, i int) ([]byte, error) {
	return f.AppendFile(dst, i)
}
