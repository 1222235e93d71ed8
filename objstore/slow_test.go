package objstore_test

import (
	"strings"
	"testing"
	"time"

	"github.com/obskit/obskit/eachobs"
	"github.com/obskit/obskit/index"
	"github.com/obskit/obskit/objstore"
	"github.com/obskit/obskit/objstore/s3test"
	"github.com/obskit/obskit/shard"
)

// timedEpoch reads an epoch of the set in src (ShuffleBlocks(1, 2), batches
// of 8) through a fresh cache, a loop body of work per batch standing for a
// training step, with a read-ahead of depth shards (none when 0), and
// returns how long it took.
func timedEpoch(t *testing.T, src shard.Store, depth int, work time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	cache, err := objstore.NewCache(src, t.TempDir(), 100<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	set, err := shard.Open(cache, "set/manifest.json", shard.MaxOpen(4))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	cache.ExpectSet(set.Manifest(), "set/manifest.json")
	if depth > 0 {
		order := index.NewBlocksAt(set.BlockStarts(), 2, 1, 0)
		ra := cache.ReadAheadSet(set.Manifest(), "set/manifest.json", index.Upcoming(order.At, set.BlockStarts(), 0, 1), depth, 8)
		defer ra.Stop()
	}
	n := 0
	for b := range eachobs.NewLoader(set, 8, eachobs.ShuffleBlocks(1, 2)).Epoch(0) {
		n += b.Real
		time.Sleep(work)
	}
	if n != set.Nobs() {
		t.Fatalf("the epoch read %d samples, want %d", n, set.Nobs())
	}
	return time.Since(start)
}

// TestSlowServer puts 20 ms of latency on every request (a TCP proxy in
// front of the server) and reads an epoch of 16 shards with a loop body of
// 3 ms per batch: with a read-ahead of 6 shards, 8 fetches at a time, the
// epoch takes less than half as long as without, and the test logs how
// close it comes to the epoch without latency.
func TestSlowServer(t *testing.T) {
	srv := s3test.Shared(t)
	prefix := s3test.Prefix(t)
	m := packSet(t, srv.NewBucket(t, prefix), 480, 18_000)
	p, err := s3test.NewProxy(strings.TrimPrefix(srv.Endpoint, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg := srv.Config()
	cfg.Endpoint = p.Endpoint
	c, err := objstore.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b := c.Bucket(srv.Bucket, prefix)
	const work = 3 * time.Millisecond
	fast := timedEpoch(t, b, 6, work)
	p.SetLatency(20 * time.Millisecond)
	ahead := timedEpoch(t, b, 6, work)
	none := timedEpoch(t, b, 0, work)
	t.Logf("%d shards, an epoch: %v without latency; with 20 ms per request, %v with the read-ahead (%.2fx the throughput without latency), %v without it",
		len(m.Shards), fast.Round(time.Millisecond), ahead.Round(time.Millisecond), fast.Seconds()/ahead.Seconds(), none.Round(time.Millisecond))
	if ahead > none/2 {
		t.Errorf("with 20 ms per request the read-ahead's epoch took %v, the epoch without it %v: it hides less than half", ahead, none)
	}
}
