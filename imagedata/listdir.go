package imagedata

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ListExtensions are the extensions of the images [ListDir] takes by default:
// im2rec's --exts.
var ListExtensions = []string{".jpeg", ".jpg", ".png"}

// ListDir lists the images under root as im2rec --list does (its
// list_image), before any shuffle: the entries are numbered 0, 1, 2... in the
// order found and their paths are relative to root.
//
// A file is an image when it is a regular file (or a link to one) whose
// extension, lower-cased, is one of exts (nil means [ListExtensions]); the
// extension is what follows the last dot of the name, leading dots not
// counting (Python's os.path.splitext: ".jpg" alone has none).
//
// Without recursive, the images are those directly in root, sorted by name,
// all labeled 0, and classes is nil. With recursive, ListDir walks root and
// every folder under it, depth first, the files and subfolders of each sorted
// by name, following symbolic links (a link back to a folder it is inside is
// not followed again); each folder that holds an image is a class, labeled
// 0, 1, 2... in the order the walk first finds an image in it, and classes[k]
// is the path of the folder of label k relative to root ("." for root
// itself).
func ListDir(root string, recursive bool, exts []string) (list []ListEntry, classes []string, err error) {
	if exts == nil {
		exts = ListExtensions
	}
	if !recursive {
		names, err := fileNames(root)
		if err != nil {
			return nil, nil, err
		}
		for _, name := range names {
			if isImage(filepath.Join(root, name), exts) {
				list = append(list, ListEntry{Index: int64(len(list)), Labels: []float32{0}, Path: name})
			}
		}
		return list, nil, nil
	}
	var dirs []string
	if err := walkSorted(root, ".", nil, &dirs); err != nil {
		return nil, nil, err
	}
	for _, dir := range dirs {
		names, err := fileNames(filepath.Join(root, dir))
		if err != nil {
			return nil, nil, err
		}
		label := -1
		for _, name := range names {
			rel := filepath.Join(dir, name)
			if !isImage(filepath.Join(root, rel), exts) {
				continue
			}
			if label < 0 {
				label = len(classes)
				classes = append(classes, dir)
			}
			list = append(list, ListEntry{Index: int64(len(list)), Labels: []float32{float32(label)}, Path: rel})
		}
	}
	return list, classes, nil
}

// walkSorted appends to dirs the folder dir (relative to root) and, depth
// first in name order, every folder under it, following symbolic links; seen
// holds the folders dir is inside.
func walkSorted(root, dir string, seen []os.FileInfo, dirs *[]string) error {
	full := filepath.Join(root, dir)
	info, err := os.Stat(full)
	if err != nil {
		return fmt.Errorf("imagedata: %w", err)
	}
	for _, s := range seen {
		if os.SameFile(s, info) {
			return nil
		}
	}
	*dirs = append(*dirs, dir)
	entries, err := os.ReadDir(full)
	if err != nil {
		return fmt.Errorf("imagedata: %w", err)
	}
	var subs []string
	for _, e := range entries {
		if isDir(filepath.Join(full, e.Name()), e) {
			subs = append(subs, e.Name())
		}
	}
	slices.Sort(subs)
	seen = append(seen, info)
	for _, s := range subs {
		if err := walkSorted(root, filepath.Join(dir, s), seen, dirs); err != nil {
			return err
		}
	}
	return nil
}

// isImage reports whether path is a regular file, or a link to one, whose
// lower-cased extension is one of exts.
func isImage(path string, exts []string) bool {
	if !slices.Contains(exts, strings.ToLower(splitExt(filepath.Base(path)))) {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// splitExt returns the extension of name as os.path.splitext does: from its
// last dot, unless every character before that dot is a dot.
func splitExt(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || strings.Trim(name[:i], ".") == "" {
		return ""
	}
	return name[i:]
}
