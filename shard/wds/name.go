package wds

import "strings"

// KeyExt splits a member's name into the key of its sample and its
// extension, as webdataset's base_plus_ext does (tariterators.py, the pattern
// ^((?:.*/|)[^.]+)[.]([^/]*)$): the key is the name up to the first dot of its
// last element, the extension what follows that dot, so that
// "sample/000017.seg.png" is extension "seg.png" of sample "sample/000017".
// ok is false, and webdataset skips the member, when the last element has no
// dot, or when the key's last element would be empty: a name such as
// ".hidden.jpg". The pattern lets the key's last element run back over the
// slash when the last element starts with a dot and the directory's last
// element holds none: "dir/.x.jpg" is extension "x.jpg" of the key "dir/".
// The extension is returned as it is; [Field] lower-cases it as webdataset
// does.
func KeyExt(name string) (key, ext string, ok bool) {
	s := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[s+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	sep := s + 1 + dot // the dot between key and extension
	// The key is P+Q: P empty or ending with a slash, with no newline before
	// that slash (Python's "." matches no newline), Q at least one byte and
	// no dot. Take the longest P that leaves Q a byte; a shorter one only
	// adds bytes to Q.
	nl := strings.IndexByte(name, '\n')
	if nl < 0 {
		nl = len(name)
	}
	lo := 0
	if lim := min(sep-2, nl); lim >= 0 {
		lo = strings.LastIndexByte(name[:lim+1], '/') + 1
	}
	if lo >= sep || strings.IndexByte(name[lo:sep], '.') >= 0 {
		return "", "", false
	}
	return name[:sep], name[sep+1:], true
}

// Field returns the field name of the extension ext as webdataset keeps it:
// lower-cased (Python's str.lower and Go's strings.ToLower agree on every
// letter but a few, such as U+0130, which Python lowers to two runes).
func Field(ext string) string {
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return strings.ToLower(ext)
		}
	}
	return ext
}

// Meta reports whether webdataset skips the member name as metadata before
// grouping: a name without a slash that starts and ends with "__" (such as
// "__meta__"), or a name whose first element is "__", anything but a slash,
// then "__" (such as "__meta__/info.json"), as tar_file_iterator's checks and
// its skip_meta pattern __[^/]*__($|/) say.
func Meta(name string) bool {
	if !strings.HasPrefix(name, "__") {
		return false
	}
	first, _, slash := strings.Cut(name, "/")
	if !slash {
		// Python's "$" also matches before a final newline.
		return strings.HasSuffix(name, "__") || len(name) >= 5 && strings.HasSuffix(name, "__\n")
	}
	return len(first) >= 4 && strings.HasSuffix(first, "__")
}

// Reserved reports whether webdataset refuses field as a duplicate of the
// names it gives every sample: "__key__" and "__url__".
func Reserved(field string) bool { return field == "__key__" || field == "__url__" }
