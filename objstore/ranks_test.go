package objstore_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// sampleOf returns sample i of the test sets: key "s000017", a "bin" field
// of 200 to 1,000 bytes drawn from i, and a "cls" label i%10.
func sampleOf(i int) shard.Sample {
	r := rand.New(rand.NewPCG(uint64(i), 77))
	data := make([]byte, 200+r.IntN(801))
	for j := range data {
		data[j] = byte(r.Uint32())
	}
	return shard.Sample{Key: fmt.Sprintf("s%06d", i), Fields: []shard.Field{
		{Name: "bin", Data: data},
		{Name: "cls", Data: []byte(strconv.Itoa(i % 10))},
	}}
}

// packSet writes n samples (sampleOf) into tar shards of about shardBytes
// under "set/" of s, with the manifest set/manifest.json.
func packSet(t testing.TB, s shard.Store, n int, shardBytes int64) *shard.Manifest {
	t.Helper()
	seq := func(yield func(shard.Sample, error) bool) {
		for i := range n {
			if !yield(sampleOf(i), nil) {
				return
			}
		}
	}
	m, err := shard.Pack(s, "set/manifest.json", "set/s", seq, shard.PackOptions{ShardBytes: shardBytes})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A rankJob is what a rank process of TestRanks is told (in the
// environment variable OBSKIT_RANK_JOB); its rank and world come from
// torchrun's variables.
type rankJob struct {
	Prefix, CacheDir, Out string
	Steps                 int    // steps to run, -1 for the rest of the epoch
	Position              []byte // the saved position to resume, nil for the start
	Batch, Window, Runs   int
	Seed                  uint64
	Limit                 int64 // the cache's bytes
}

// A rankResult is what a rank process reports.
type rankResult struct {
	World    objstore.World
	Read     []int  // the samples it read, in order
	Steps    int    // its steps
	Position []byte // the loop's position after its last step
	Bytes    int64  // bytes it downloaded (GETs)
	Gets     int64
	// The cache's counts: whole copies fetched and their bytes, reads by
	// ranges and their bytes.
	Fetched, FetchedBytes, Ranged, RangedBytes int64
}

// runRank is the body of a rank process: it reads its share of the set
// from the S3 server through its own cache, in the order of
// ShuffleBlocksLocal with a read-ahead of the shards it reads next, checks
// every sample's bytes and reports.
func runRank(job rankJob) (res rankResult, err error) {
	world, err := objstore.Launched(-1, 0, 0)
	if err != nil {
		return res, err
	}
	res.World = world
	cfg, err := objstore.EnvConfig()
	if err != nil {
		return res, err
	}
	c, err := objstore.New(cfg)
	if err != nil {
		return res, err
	}
	bucket := c.Bucket(s3test.SharedBucket, job.Prefix)
	cache, err := objstore.NewCache(bucket, filepath.Join(job.CacheDir, "rank"+strconv.Itoa(world.LocalRank)), job.Limit)
	if err != nil {
		return res, err
	}
	defer cache.Close()
	const manifest = "set/manifest.json"
	set, err := shard.Open(cache, manifest, shard.MaxOpen(job.Window*job.Runs/world.Size+2))
	if err != nil {
		return res, err
	}
	defer set.Close()
	cache.ExpectSet(set.Manifest(), manifest)
	loader := eachobs.NewLoader(set, job.Batch, eachobs.ShuffleBlocksLocal(job.Seed, job.Window, job.Runs),
		eachobs.Partition(world.Part()), eachobs.Tail(index.Pad))
	it := loader.Iter()
	defer it.Close()
	if job.Position != nil {
		if err := it.UnmarshalBinary(job.Position); err != nil {
			return res, err
		}
	}
	pos := it.Pos()
	order := index.NewLocalBlocks(set.BlockStarts(), job.Window, job.Runs, job.Seed, pos.Epoch)
	ra := cache.ReadAheadSet(set.Manifest(), manifest, index.Upcoming(order.At, set.BlockStarts(), pos.Consumed+world.Rank, world.Size), job.Window, 2)
	defer ra.Stop()
	for job.Steps < 0 || res.Steps < job.Steps {
		b, ok := it.Next()
		if !ok || b.Pos.Epoch != pos.Epoch {
			break
		}
		for j, i := range b.Indices[:b.Real] {
			want := sampleOf(i)
			got := b.Data[j]
			if got.Key != want.Key || len(got.Fields) != 2 || !bytes.Equal(got.Fields[0].Data, want.Fields[0].Data) {
				return res, fmt.Errorf("rank %d: sample %d: key %q, not the bytes written", world.Rank, i, got.Key)
			}
			res.Read = append(res.Read, i)
		}
		res.Steps++
		if res.Position, err = b.Next().MarshalBinary(); err != nil {
			return res, err
		}
		if b.Next().Epoch != pos.Epoch {
			break // without gathering the next epoch's first batch
		}
	}
	ra.Stop()
	res.Bytes, res.Gets = bucket.Stats().BytesRead.Load(), bucket.Stats().Gets.Load()
	cs := cache.Stats()
	res.Fetched, res.FetchedBytes, res.Ranged, res.RangedBytes = cs.Fetched.Load(), cs.FetchedBytes.Load(), cs.Ranged.Load(), cs.RangedBytes.Load()
	return res, nil
}

// rankChild runs a rank when this test binary was started as one, and
// exits.
func rankChild() {
	spec := os.Getenv("OBSKIT_RANK_JOB")
	if spec == "" {
		return
	}
	var job rankJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	res, err := runRank(job)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	b, _ := json.Marshal(res)
	if err := os.WriteFile(job.Out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// runRanks starts ranks processes (this test binary, as torchrun would start
// them: RANK, WORLD_SIZE, LOCAL_RANK) with job, waits for all and returns
// their results by rank.
func runRanks(t *testing.T, srv *s3test.Server, ranks int, job rankJob) []rankResult {
	t.Helper()
	out := make([]rankResult, ranks)
	errs := make([]error, ranks)
	var wg sync.WaitGroup
	for r := range ranks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j := job
			j.Out = filepath.Join(t.TempDir(), "result.json")
			spec, _ := json.Marshal(j)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), srv.Env()...)
			cmd.Env = append(cmd.Env, "OBSKIT_RANK_JOB="+string(spec),
				"RANK="+strconv.Itoa(r), "WORLD_SIZE="+strconv.Itoa(ranks), "LOCAL_RANK="+strconv.Itoa(r))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				errs[r] = fmt.Errorf("rank %d of %d: %v: %s", r, ranks, err, stderr.Bytes())
				return
			}
			b, err := os.ReadFile(j.Out)
			if err == nil {
				err = json.Unmarshal(b, &out[r])
			}
			errs[r] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestRanks runs the ranks of a job as processes of their own on loopback,
// with no coordinator, each with its cache, reading one set of 48 shards
// from the S3 server: 4 processes read an epoch, every sample once, the same
// number of steps each, and each downloads at most 1.1 times a quarter of
// the set plus a window of shards; then 4 processes stop after 5 steps and
// 3 processes resume from their position and finish the epoch: across the
// restart nothing is lost or read twice.
func TestRanks(t *testing.T) {
	srv := s3test.Shared(t)
	prefix := s3test.Prefix(t)
	b := srv.NewBucket(t, prefix)
	const n = 3000
	m := packSet(t, b, n, 36_000)
	var setBytes, maxShard int64
	for _, sh := range m.Shards {
		setBytes += sh.Files[0].Bytes + sh.Index.Bytes
		maxShard = max(maxShard, sh.Files[0].Bytes+sh.Index.Bytes)
	}
	t.Logf("%d samples in %d shards, %d bytes (largest shard %d)", n, len(m.Shards), setBytes, maxShard)
	job := rankJob{Prefix: prefix, CacheDir: t.TempDir(), Steps: -1, Batch: 16, Window: 2, Runs: 12, Seed: 3, Limit: setBytes / 2}

	check := func(what string, rs []rankResult, want []int) {
		t.Helper()
		var all []int
		for r, res := range rs {
			if res.World.Rank != r || res.World.Size != len(rs) || res.World.From != "torchrun" {
				t.Fatalf("%s: rank %d reports %+v", what, r, res.World)
			}
			if res.Steps != rs[0].Steps {
				t.Errorf("%s: rank %d ran %d steps, rank 0 %d: a rank would wait at the end", what, r, res.Steps, rs[0].Steps)
			}
			all = append(all, res.Read...)
		}
		slices.Sort(all)
		if !slices.Equal(all, want) {
			t.Fatalf("%s: the ranks read %d samples, want %d, each once", what, len(all), len(want))
		}
	}

	epoch := runRanks(t, srv, 4, job)
	check("4 ranks, an epoch", epoch, seq(0, n))
	allowance := float64(setBytes)/4*1.1 + float64(int64(job.Window)*maxShard)
	for r, res := range epoch {
		t.Logf("rank %d of 4: %d steps, %d samples, downloaded %d bytes in %d GETs (%.2f of the set / 4; allowance %.0f): %d copies of %d bytes, %d ranged reads of %d bytes",
			r, res.Steps, len(res.Read), res.Bytes, res.Gets, float64(res.Bytes)/(float64(setBytes)/4), allowance, res.Fetched, res.FetchedBytes, res.Ranged, res.RangedBytes)
		if float64(res.Bytes) > allowance {
			t.Errorf("rank %d downloaded %d bytes, more than 1.1 x the set / 4 + a window of shards = %.0f", r, res.Bytes, allowance)
		}
	}

	job.Steps, job.CacheDir = 5, t.TempDir()
	before := runRanks(t, srv, 4, job)
	for r, res := range before {
		if !bytes.Equal(res.Position, before[0].Position) {
			t.Fatalf("rank %d's position after 5 steps differs from rank 0's: the ranks do not share one", r)
		}
	}
	job.Steps, job.Position = -1, before[0].Position
	after := runRanks(t, srv, 3, job)
	var all []int
	for _, res := range append(before, after...) {
		all = append(all, res.Read...)
	}
	slices.Sort(all)
	if !slices.Equal(all, seq(0, n)) {
		t.Fatalf("4 ranks for 5 steps then 3 ranks read %d samples, want %d, each once", len(all), n)
	}
	check("3 ranks after the restart", after, rest(n, before))
	// Still local after the restart (3 divides the 12 runs): no rank
	// downloads more than its share of an epoch, where reading from every
	// run would download most of the set.
	allowance3 := float64(setBytes)/3*1.1 + float64(int64(job.Window)*maxShard)
	for r, res := range after {
		t.Logf("after the restart, rank %d of 3: %d steps, downloaded %d bytes (%.2f of the set / 3)", r, res.Steps, res.Bytes, float64(res.Bytes)/(float64(setBytes)/3))
		if float64(res.Bytes) > allowance3 {
			t.Errorf("after the restart, rank %d downloaded %d bytes, more than 1.1 x the set / 3 + a window = %.0f", r, res.Bytes, allowance3)
		}
	}
}

func seq(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// rest returns the samples of 0..n-1 that rs did not read.
func rest(n int, rs []rankResult) []int {
	read := make([]bool, n)
	for _, r := range rs {
		for _, i := range r.Read {
			read[i] = true
		}
	}
	var out []int
	for i, ok := range read {
		if !ok {
			out = append(out, i)
		}
	}
	return out
}
