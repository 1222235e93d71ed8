// Package objstore reads and writes shard sets in an S3-compatible object
// store: a [Bucket] (a bucket and a key prefix, named by an s3://bucket/prefix
// URL) is a shard.Store, so that shard.Open reads a set from a bucket as from
// a local directory, through io.ReaderAt's ranged reads, and a [Cache] keeps
// whole copies of the shards a process reads, fetched ahead of it. Many
// processes read one set with no coordinator: each computes its share from
// the loop's order, its rank ([Launched]) and the manifest.
//
// # The client
//
// Requests go through aws-sdk-go-v2's S3 client with static credentials and
// no configuration chain: [EnvConfig] reads AWS_ENDPOINT_URL, AWS_REGION,
// AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY itself, and [New] sends
// checksums only when an operation requires one, which S3-compatible servers
// need. Every request is retried with backoff on faults that may pass ([Retry]:
// connections refused or cut, 5xx and throttling replies, a body that stops),
// a cut read resuming at the byte it reached; a fault that will not pass (no
// such object, access denied) returns at once, naming the object.
//
// # Objects
//
// [Bucket.Open] reads an object's size and version (HEAD); each ReadAt of the
// [Object] is one ranged GET conditional on that version, so that a reader
// never mixes two versions of an object ([ErrChanged]). [Bucket.Create] writes
// an object that is visible only once committed: a single PUT up to 64 MiB
// (a manifest of about 200,000 shards), or a multipart upload of 16 MiB
// parts for a larger one, completed at Commit and aborted at Close;
// [Bucket.Clean] aborts the uploads of writers that died. [Buffered] reads
// objects in chunks, for readers that stream them in small reads.
//
// # The cache and read-ahead
//
// A [Cache] is a shard.Store over another store, with a local directory of
// whole copies bounded in bytes: opened through it, a set reads a sample by
// a ranged request when its shard is not there, and from the copy once it
// is. [Cache.ExpectSet] gives it the manifest's checksums, which name the
// copies and check them; [Cache.ReadAheadSet] fetches the shards a process
// reads next, in the order the loop will reach them (index.Upcoming). The cache
// never deletes an object in use, never deadlocks below its working set
// (it reads by ranges instead), and leaves nothing a crash breaks.
//
// # Many processes
//
// [Launched] gives a process its [World] (rank, size, local rank) from
// flags or the launcher's variables (torchrun, Slurm, a Kubernetes Indexed
// Job). With eachobs.ShuffleBlocksLocal and eachobs.Partition(world.Part()),
// each process reads its runs of the epoch's order, about 1/P of the shards,
// every process the same number of batches; the loop's position, the same
// for all, resumes the job on another number of processes. docs/object-store.md
// (in the repository) shows a job end to end and how it maps to a cluster.
//
// This package is a module of its own (github.com/obskit/obskit/objstore), so
// that the kit's core module does not require the AWS SDK; it uses the core's
// public API only. Its tests run against a real server, SeaweedFS, which
// package s3test builds and starts.
package objstore
