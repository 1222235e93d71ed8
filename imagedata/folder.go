package imagedata

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/tuples"
)

// Extensions are the file name endings of the images [OpenFolder] takes by
// default: torchvision's IMG_EXTENSIONS.
var Extensions = []string{".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp"}

// FolderOptions are the options of [OpenFolder]. The zero value is
// torchvision's ImageFolder defaults.
type FolderOptions struct {
	// Extensions are the endings of the files to take, in lower case, matched
	// against the lower-cased path (torchvision's has_file_allowed_extension);
	// nil means [Extensions].
	Extensions []string
	// AllowEmpty accepts class folders without an image (torchvision's
	// allow_empty); by default they are an error.
	AllowEmpty bool
}

// A Folder is a data set of images in a folder per class, as torchvision's
// ImageFolder reads one: an observation is the bytes of an image file and its
// class number. It is a [Labeled] container (its methods are those of the
// embedded tuple); X() is the [*Files] of the images, Y() the labels.
type Folder struct {
	*Labeled[*Files, int]
	// Classes are the class names, the names of the class folders: label k is
	// Classes[k].
	Classes []string
}

// OpenFolder lists the images under root with torchvision ImageFolder's
// rules, reading no image:
//
//   - the classes are the folders in root (symbolic links to folders count),
//     sorted by name (byte order, which is Python's order for UTF-8 names),
//     and labeled 0, 1, 2... in that order; files directly in root are not
//     images of any class;
//   - the images of a class are the files anywhere under its folder
//     (following symbolic links, as os.walk(followlinks=True)) whose lower-cased
//     path ends with one of the extensions, ordered by their folder's path and
//     then by name, as sorted(os.walk(...)) and sorted(fnames) order them;
//   - the classes come one after the other, in class order.
//
// A folder that leads back to one it is inside (a symbolic link loop) is not
// entered again. OpenFolder returns an error wrapping container.ErrEmpty
// when root has no class folder, or a class folder holds no image and
// opts.AllowEmpty is false, naming those classes (torchvision raises these
// too); an error of the file system names the path.
func OpenFolder(root string, opts FolderOptions) (*Folder, error) {
	exts := opts.Extensions
	if exts == nil {
		exts = Extensions
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("imagedata: %w", err)
	}
	var classes []string
	for _, e := range entries {
		if isDir(filepath.Join(root, e.Name()), e) {
			classes = append(classes, e.Name())
		}
	}
	slices.Sort(classes)
	if len(classes) == 0 {
		return nil, fmt.Errorf("imagedata: %s: %w: no class folder in it", root, container.ErrEmpty)
	}
	var paths []string
	var labels []int
	var empty []string
	for k, class := range classes {
		n := len(paths)
		var dirs []string // the folders under the class folder, relative to root
		if err := walkSorted(root, class, nil, &dirs); err != nil {
			return nil, err
		}
		slices.Sort(dirs) // by path, as sorted(os.walk(...)), not depth first
		for _, dir := range dirs {
			names, err := fileNames(filepath.Join(root, dir))
			if err != nil {
				return nil, err
			}
			for _, name := range names {
				p := dir + string(filepath.Separator) + name
				if hasExtension(p, exts) {
					paths = append(paths, p)
					labels = append(labels, k)
				}
			}
		}
		if len(paths) == n {
			empty = append(empty, class)
		}
	}
	if len(empty) > 0 && !opts.AllowEmpty {
		return nil, fmt.Errorf("imagedata: %s: %w: no image in the class folders %s (the extensions are %s)", root, container.ErrEmpty, strings.Join(empty, ", "), strings.Join(exts, ", "))
	}
	t, err := tuples.Zip2(NewFiles(root, paths), container.Slice[int](labels))
	if err != nil {
		return nil, err // cannot happen: one label a path
	}
	return &Folder{Labeled: t, Classes: classes}, nil
}

// fileNames returns the sorted names of the entries of dir that are not
// folders (os.walk's filenames: files, links to files, broken links).
func fileNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("imagedata: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !isDir(filepath.Join(dir, e.Name()), e) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// isDir reports whether the entry at path is a folder or a symbolic link to
// one (os.DirEntry.is_dir in Python follows links).
func isDir(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink != 0 {
		info, err := os.Stat(path)
		return err == nil && info.IsDir()
	}
	return e.IsDir()
}

// hasExtension reports whether the lower-cased path ends with one of exts.
func hasExtension(path string, exts []string) bool {
	lower := strings.ToLower(path)
	for _, e := range exts {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}
