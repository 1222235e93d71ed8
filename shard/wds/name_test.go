package wds

import (
	"regexp"
	"testing"
)

// webdataset's patterns in Go's syntax, Python's "$" (the end, or before a
// final newline) spelled out.
var (
	basePlusExt = regexp.MustCompile(`^((?:.*/|)[^.]+)[.]([^/]*)\n?\z`)
	skipMeta    = regexp.MustCompile(`^__[^/]*__(?:\n?\z|/)`)
)

// reference is KeyExt by webdataset's own pattern.
func reference(name string) (key, ext string, ok bool) {
	m := basePlusExt.FindStringSubmatch(name)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// metaReference is Meta by tar_file_iterator's two checks.
func metaReference(name string) bool {
	noSlash := true
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			noSlash = false
		}
	}
	if noSlash && len(name) >= 2 && name[:2] == "__" && name[len(name)-2:] == "__" {
		return true
	}
	return skipMeta.MatchString(name)
}

func TestKeyExt(t *testing.T) {
	for _, tc := range []struct {
		name, key, ext string
		ok             bool
	}{
		{"000017.jpg", "000017", "jpg", true},
		{"sample/000017.seg.png", "sample/000017", "seg.png", true},
		{"a.b/c.d", "a.b/c", "d", true},
		{"a/b.JPG", "a/b", "JPG", true},
		{"noext", "", "", false},
		{"dir/noext", "", "", false},
		{"dir.x/noext", "", "", false},
		{".hidden.jpg", "", "", false},
		{"dir/.hidden.jpg", "dir/", "hidden.jpg", true},
		{"x.y/.hidden.jpg", "", "", false},
		{"a/b/.c", "a/b/", "c", true},
		{"a.", "a", "", true},
		{"a/", "", "", false},
		{"a.b\n/c.d", "", "", false},
		{"ab\n/c.d", "ab\n/c", "d", true},
	} {
		key, ext, ok := KeyExt(tc.name)
		if key != tc.key || ext != tc.ext || ok != tc.ok {
			t.Errorf("KeyExt(%q) = %q, %q, %v, want %q, %q, %v", tc.name, key, ext, ok, tc.key, tc.ext, tc.ok)
		}
		rk, re, rok := reference(tc.name)
		if rk != key || re != ext || rok != ok {
			t.Errorf("KeyExt(%q) = %q, %q, %v; webdataset's pattern gives %q, %q, %v", tc.name, key, ext, ok, rk, re, rok)
		}
	}
}

func TestMeta(t *testing.T) {
	for name, want := range map[string]bool{
		"__meta__":           true,
		"__":                 true,
		"___":                true,
		"____":               true,
		"__meta__/info.json": true,
		"__x__\n":            true,
		"__meta__.json":      false,
		"__key__.jpg":        false,
		"_meta_":             false,
		"a/__meta__":         false,
		"___/x":              false,
		"____/x":             true,
		"__a/b__":            false,
	} {
		if got := Meta(name); got != want {
			t.Errorf("Meta(%q) = %v, want %v", name, got, want)
		}
		if ref := metaReference(name); ref != want {
			t.Errorf("webdataset's checks give %v for %q, the table %v", ref, name, want)
		}
	}
}

// FuzzKeyExt holds KeyExt and Meta to webdataset's patterns on any name.
func FuzzKeyExt(f *testing.F) {
	for _, s := range []string{"000017.jpg", "a/b.c.d", "dir/.x.y", "__m__/x", "a.b\n/c.d", "x/\n.y", "..", "/.", "a//.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		key, ext, ok := KeyExt(name)
		rk, re, rok := reference(name)
		if rk != key || re != ext || rok != ok {
			t.Fatalf("KeyExt(%q) = %q, %q, %v; webdataset's pattern gives %q, %q, %v", name, key, ext, ok, rk, re, rok)
		}
		if got, want := Meta(name), metaReference(name); got != want {
			t.Fatalf("Meta(%q) = %v, webdataset's checks %v", name, got, want)
		}
	})
}
