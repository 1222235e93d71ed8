package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"

	"github.com/obskit/obskit/cmd/internal/progress"
	"github.com/obskit/obskit/shard"
	"github.com/obskit/obskit/shard/wds"
)

// The shard group: sharded data sets (package shard). write is in
// shard_write.go.
func init() {
	register(command{
		group: "shard", name: "ls", args: "FILE.tar|FILE.tar.gz|MANIFEST",
		summary: `print one JSON object per sample, in order: {"key": ..., "fields": {"jpg": {"bytes": N, "sha256": HEX}, ...}}, the members of a tar shard grouped as webdataset groups them (consecutive regular files sharing a key, extensions lower-cased, members without a dot in the last element skipped); a MANIFEST lists its shards' samples in the manifest's order, each shard held to the manifest's size and sample count; a broken shard is an error naming the shard and the offset`,
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return shardLs
		},
	})
	register(command{
		group: "shard", name: "verify", args: "MANIFEST",
		summary: `check every shard of a set against its manifest: each index's size and SHA-256, each file's size and SHA-256, read whole, and the samples in it against its index; print one JSON object per shard that fails ({"shard": ..., "error": ...}), then {"manifest": ..., "shards": N, "samples": N, "bytes": N, "failed": N}; exit 1 when a shard fails`,
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			return shardVerify
		},
	})
	register(command{
		group: "shard", name: "commit", args: "MANIFEST",
		summary: "write MANIFEST listing the shards that -writers obskit shard write -writer runs wrote under -prefix, after all of them finished; print the manifest's summary as one JSON object",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			prefix := fs.String("prefix", "shard", "the shards' prefix given to obskit shard write, relative to MANIFEST's directory")
			writers := fs.Int("writers", 1, "the number of writers")
			return func(e *env, args []string) error { return shardCommit(e, args, *prefix, *writers) }
		},
	})
	register(command{
		group: "shard", name: "index", args: "FILE.tar...",
		summary: "make a shard set of WebDataset tar shards another tool wrote (.tar or .tar.gz, under the manifest's directory): write each one's index beside it and then -o MANIFEST listing them in the order given; print the manifest's summary as one JSON object",
		flags: func(fs *flag.FlagSet) func(*env, []string) error {
			out := fs.String("o", "", "the manifest to write (required)")
			label := fs.String("label", "", `the field that holds each sample's integer label (default: "cls" when every sample has it; "-": none)`)
			return func(e *env, args []string) error { return shardIndex(e, args, *out, *label) }
		},
	})
}

// lsSample is the JSON line of obskit shard ls.
type lsSample struct {
	Key    string             `json:"key"`
	Fields map[string]lsField `json:"fields"`
}

type lsField struct {
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

func shardLs(e *env, args []string) error {
	if len(args) != 1 {
		return usageErrorf("want one FILE.tar, FILE.tar.gz or MANIFEST, got %d arguments", len(args))
	}
	store, name, err := openStore(args[0])
	if err != nil {
		return err
	}
	isManifest, err := looksLikeJSON(store, name)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	p := progress.New(progress.Output(e.stderr, !terminal(e.stdout)))
	defer p.Stop()
	if !isManifest {
		o, err := store.Open(name)
		if err != nil {
			return err
		}
		defer o.Close()
		bar := p.Bar(name, o.Size(), "bytes")
		defer bar.Done()
		_, err = lsTar(enc, o, args[0], bar)
		return err
	}
	m, err := shard.ReadManifest(store, name)
	if err != nil {
		return err
	}
	var total int64
	for _, s := range m.Shards {
		for _, f := range s.Files {
			total += f.Bytes
		}
	}
	bar := p.Bar(name, total, "bytes")
	defer bar.Done()
	if m.Kind == shard.Tar {
		// Each shard read as a stream, as webdataset reads it, then held to
		// the manifest's size and count: a shard cut at a member's end, or
		// that lost whole members, reads without an error of its own.
		for _, s := range m.Shards {
			fname := path.Join(path.Dir(name), s.Files[0].Name)
			o, err := store.Open(fname)
			if err != nil {
				return err
			}
			shown := sibling(args[0], s.Files[0].Name)
			n, err := lsTar(enc, o, shown, bar)
			size := o.Size()
			o.Close()
			if err != nil {
				return err
			}
			if size != s.Files[0].Bytes || n != s.Samples {
				return fmt.Errorf("%s: offset %d: the shard ends there, after %d samples; the manifest says %d bytes and %d samples (obskit shard verify checks every shard)", shown, size, n, s.Files[0].Bytes, s.Samples)
			}
		}
		return nil
	}
	// RecordIO and .npy shards through their indexes.
	set, err := shard.Open(store, name)
	if err != nil {
		return err
	}
	defer set.Close()
	var smp shard.Sample
	for i := range set.Nobs() {
		if err := set.ReadSample(&smp, i); err != nil {
			return err
		}
		line := lsSample{Key: smp.Key, Fields: map[string]lsField{}}
		for _, f := range smp.Fields {
			sum := sha256Hex(f.Data)
			line.Fields[f.Name] = lsField{Bytes: int64(len(f.Data)), SHA256: sum}
			bar.Add(len(f.Data))
		}
		if err := enc.Encode(line); err != nil {
			return err
		}
	}
	return nil
}

// lsTar prints the samples of the tar shard o, called name, and returns how
// many it printed.
func lsTar(enc *json.Encoder, o shard.Object, name string, bar *progress.Bar) (int, error) {
	r := &countReader{r: io.NewSectionReader(o, 0, o.Size()), bar: bar}
	sc := wds.NewScanner(r, name, wds.ScanOptions{SHA256: true})
	n := 0
	for sc.Next() {
		smp := sc.Sample()
		line := lsSample{Key: smp.Key, Fields: make(map[string]lsField, len(smp.Members))}
		for _, m := range smp.Members {
			line.Fields[m.Field] = lsField{Bytes: m.Size, SHA256: hex.EncodeToString(m.SHA256[:])}
		}
		if err := enc.Encode(line); err != nil {
			return n, err
		}
		n++
	}
	return n, sc.Err()
}

// countReader adds what it reads to a progress bar.
type countReader struct {
	r   io.Reader
	bar *progress.Bar
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.Add(n)
	return n, err
}

// looksLikeJSON reports whether the object name starts, after white space,
// with '{': a manifest rather than a tar shard (whose first byte is a name's,
// or gzip's 0x1f).
func looksLikeJSON(store shard.Store, name string) (bool, error) {
	o, err := store.Open(name)
	if err != nil {
		return false, err
	}
	defer o.Close()
	b := make([]byte, min(o.Size(), 512))
	n, err := o.ReadAt(b, 0)
	if err != nil && err != io.EOF {
		return false, err
	}
	b = bytes.TrimLeft(b[:n], " \t\r\n")
	return len(b) > 0 && b[0] == '{', nil
}

// verifyLine is a JSON line of obskit shard verify.
type verifyLine struct {
	Shard string `json:"shard"`
	Error string `json:"error"`
}

type verifySummary struct {
	Manifest string `json:"manifest"`
	Shards   int    `json:"shards"`
	Samples  int    `json:"samples"`
	Bytes    int64  `json:"bytes"`
	Failed   int    `json:"failed"`
}

func shardVerify(e *env, args []string) error {
	if len(args) != 1 {
		return usageErrorf("want one MANIFEST, got %d arguments", len(args))
	}
	store, name, err := openStore(args[0])
	if err != nil {
		return err
	}
	m, err := shard.ReadManifest(store, name)
	if err != nil {
		return err
	}
	var total int64
	for _, s := range m.Shards {
		total += s.Index.Bytes
		for _, f := range s.Files {
			total += f.Bytes
		}
	}
	p := progress.New(progress.Output(e.stderr, true))
	bar := p.Bar(name, total, "bytes")
	var done int64
	rep, err := shard.Verify(store, name, func(n int64) { bar.Add(int(n - done)); done = n })
	bar.Done()
	p.Stop()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(e.stdout)
	for _, pr := range rep.Problems {
		if err := enc.Encode(verifyLine{Shard: shardOf(pr), Error: pr.Error()}); err != nil {
			return err
		}
	}
	if err := enc.Encode(verifySummary{args[0], rep.Shards, rep.Samples, rep.Bytes, len(rep.Problems)}); err != nil {
		return err
	}
	if len(rep.Problems) > 0 {
		return fmt.Errorf("%s: %d of %d shards failed: %w", args[0], len(rep.Problems), rep.Shards, errors.Join(rep.Problems[0]))
	}
	return nil
}

// shardOf returns the shard a problem names: the first word after "shard: ".
func shardOf(err error) string {
	s := strings.TrimPrefix(err.Error(), "shard: ")
	if i := strings.IndexAny(s, ": \n"); i > 0 {
		return s[:i]
	}
	return s
}

// manifestSummary is the JSON line of obskit shard commit, index and write.
type manifestSummary struct {
	Manifest string   `json:"manifest"`
	Format   string   `json:"format"`
	Shards   int      `json:"shards"`
	Samples  int      `json:"samples"`
	Bytes    int64    `json:"bytes"`
	Fields   []string `json:"fields"`
	Label    string   `json:"label,omitempty"`
}

func summary(path string, m *shard.Manifest) manifestSummary {
	s := manifestSummary{Manifest: path, Format: m.Kind.String(), Shards: len(m.Shards), Samples: m.Samples, Label: m.Label, Fields: []string{}}
	for _, sh := range m.Shards {
		for _, f := range sh.Files {
			s.Bytes += f.Bytes
		}
	}
	for _, f := range m.Fields {
		s.Fields = append(s.Fields, f.Name)
	}
	return s
}

func shardCommit(e *env, args []string, prefix string, writers int) error {
	if len(args) != 1 {
		return usageErrorf("want one MANIFEST, got %d arguments", len(args))
	}
	if writers < 1 {
		return usageErrorf("-writers %d: want at least 1", writers)
	}
	store, name, err := openStore(args[0])
	if err != nil {
		return err
	}
	m, err := shard.Commit(store, name, path.Join(path.Dir(name), prefix), writers)
	if err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(summary(args[0], m))
}

func shardIndex(e *env, args []string, out, label string) error {
	if out == "" {
		return usageErrorf("-o MANIFEST is required")
	}
	if len(args) == 0 {
		return usageErrorf("no tar shard named")
	}
	store, name, err := openStore(out)
	if err != nil {
		return err
	}
	names := make([]string, len(args))
	for k, a := range args {
		if names[k], err = nameIn(filepath.Dir(out), a); err != nil {
			return err
		}
	}
	m, err := shard.IndexTars(store, name, names, shard.IndexOptions{Label: label})
	if err != nil {
		return err
	}
	return json.NewEncoder(e.stdout).Encode(summary(out, m))
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
