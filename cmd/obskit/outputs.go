package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// An outputs is the files one command writes: all of them, or none. Each is
// written to a temporary file in its target's directory, made by create
// before the work starts (so that an unwritable target fails first); commit
// completes and checks them all, then renames them into place; abort,
// deferred by the caller, removes the temporary files after any failure.
//
// The renames cannot be one atomic step, so commit orders them so that a
// reader never finds files of two runs side by side (a new .rec beside the
// .idx of the old one): it first moves the previous version of every target
// but the first aside, then renames the first into place (replacing its
// previous version in one step), then the others. A reader sees the old first
// target alone, then new targets as they arrive; for a .rec and its .idx, the
// old .rec without an .idx, or the new .rec without one, which a scan reads
// correctly, until the new .idx arrives. If a rename fails, commit puts every
// previous version back (the first through a hard link made before its
// rename), removes what it had placed and returns the error. What is left
// open: a crash (or a kill) between the first rename and the last leaves the
// new first target without the others, and the previous versions of the
// others under their temporary names (".NAME.old-*" beside them); a file
// system without hard links cannot give the first target's previous version
// back after a later rename fails, which the error then says.
type outputs struct {
	files []*output
	done  bool // committed or aborted
}

type output struct {
	path    string   // the target
	tmp     string   // the temporary file, in path's directory
	f       *os.File // tmp open for writing, or nil
	existed bool     // path existed when commit started
	aside   string   // the previous version of path during commit: moved or linked
	placed  bool     // tmp renamed to path
}

// outputHooks let tests make a write or a rename fail; nil in the command.
var outputHooks struct {
	write  func(path string, w io.Writer) io.Writer // wraps the temporary file of path
	rename func(oldpath, newpath string) error      // replaces os.Rename
}

func rename(oldpath, newpath string) error {
	if outputHooks.rename != nil {
		return outputHooks.rename(oldpath, newpath)
	}
	return os.Rename(oldpath, newpath)
}

// checkTarget returns an error when path cannot be replaced by a file.
func checkTarget(path string) error {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.IsDir():
		return fmt.Errorf("%s is a directory", path)
	}
	return nil
}

// create makes the temporary file of path and returns the writer of its
// contents, valid until commit or abort.
func (o *outputs) create(path string) (io.Writer, error) {
	f, err := o.add(path)
	if err != nil {
		return nil, err
	}
	if outputHooks.write != nil {
		return outputHooks.write(path, f.f), nil
	}
	return f.f, nil
}

// createName makes the temporary file of path and returns its name, for a
// writer that opens files by name (npy.Save); what is in that file at commit
// becomes path.
func (o *outputs) createName(path string) (string, error) {
	f, err := o.add(path)
	if err != nil {
		return "", err
	}
	err = f.f.Close()
	f.f = nil
	return f.tmp, err
}

func (o *outputs) add(path string) (*output, error) {
	if o.done {
		panic("obskit: outputs used after commit or abort")
	}
	if err := checkTarget(path); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("%s: cannot write a file beside it: %w", path, err)
	}
	f := &output{path: path, tmp: tmp.Name(), f: tmp}
	o.files = append(o.files, f)
	return f, nil
}

// abort removes the temporary files, unless commit ran. It may be called
// more than once.
func (o *outputs) abort() {
	if o.done {
		return
	}
	o.done = true
	for _, f := range o.files {
		if f.f != nil {
			f.f.Close()
		}
		os.Remove(f.tmp)
	}
}

// commit completes the temporary files (synced to the disk, closed, mode
// 0644) and puts them in place, in the order they were created, as the type's
// comment says. On any failure, the targets are as they were, no temporary
// file remains, and the error names the file.
func (o *outputs) commit() (err error) {
	if o.done {
		panic("obskit: outputs committed after commit or abort")
	}
	o.done = true
	defer func() {
		if err != nil {
			if rerr := o.undo(); rerr != nil {
				err = fmt.Errorf("%w; and putting things back failed: %w", err, rerr)
			}
		}
	}()
	for _, f := range o.files {
		if f.f != nil {
			err := f.f.Sync()
			if cerr := f.f.Close(); err == nil {
				err = cerr
			}
			f.f = nil
			if err != nil {
				return fmt.Errorf("%s: %w", f.path, err)
			}
		}
		if err := os.Chmod(f.tmp, 0o644); err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
	}
	for _, f := range o.files {
		if err := checkTarget(f.path); err != nil {
			return err
		}
	}
	// Keep the previous versions: the first by a link (it is replaced in one
	// step), the others moved aside so that none stays beside a new file.
	for i, f := range o.files {
		if _, err := os.Lstat(f.path); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		f.existed = true
		aside, err := reserve(f.path)
		if err != nil {
			return err
		}
		if i == 0 {
			os.Remove(aside)
			if os.Link(f.path, aside) == nil {
				f.aside = aside
			}
			continue
		}
		if err := rename(f.path, aside); err != nil {
			os.Remove(aside)
			return fmt.Errorf("%s: moving the previous version aside: %w", f.path, err)
		}
		f.aside = aside
	}
	for _, f := range o.files {
		if err := rename(f.tmp, f.path); err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		f.placed = true
	}
	var errs []error
	for _, f := range o.files {
		if f.aside != "" {
			if err := os.Remove(f.aside); err != nil {
				errs = append(errs, fmt.Errorf("%s is written, but its previous version stays at %s: %w", f.path, f.aside, err))
			}
			f.aside = ""
		}
	}
	return errors.Join(errs...)
}

// reserve returns the name of a new empty file beside path, for its previous
// version.
func reserve(path string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".old-*")
	if err != nil {
		return "", fmt.Errorf("%s: cannot keep its previous version beside it: %w", path, err)
	}
	return f.Name(), f.Close()
}

// undo brings the targets back to where they were before a commit that
// failed, and removes every temporary file.
func (o *outputs) undo() error {
	var errs []error
	for i := len(o.files) - 1; i >= 0; i-- {
		f := o.files[i]
		switch {
		case !f.placed:
			if f.f != nil {
				f.f.Close()
			}
			os.Remove(f.tmp)
		case i == 0 && f.aside != "":
			if err := rename(f.aside, f.path); err != nil {
				errs = append(errs, fmt.Errorf("%s: its previous version stays at %s: %w", f.path, f.aside, err))
			}
			f.aside = ""
		case i == 0 && f.existed:
			errs = append(errs, fmt.Errorf("%s is replaced: its previous version could not be kept (no hard link here)", f.path))
		default:
			if err := os.Remove(f.path); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i, f := range o.files {
		switch {
		case f.aside == "":
		case i == 0: // a link, not used
			os.Remove(f.aside)
		default:
			if err := rename(f.aside, f.path); err != nil {
				errs = append(errs, fmt.Errorf("%s: its previous version stays at %s: %w", f.path, f.aside, err))
			}
		}
	}
	return errors.Join(errs...)
}

// writeFileAtomic writes path through write into a temporary file beside it,
// renamed to path once complete, so that a failure leaves no half-written
// file and no temporary file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	var o outputs
	defer o.abort()
	w, err := o.create(path)
	if err != nil {
		return err
	}
	if err := write(w); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return o.commit()
}
