// Package objstore reads and writes shard sets in an S3-compatible object
// store: a [Bucket] (a bucket and a key prefix, named by an s3://bucket/prefix
// URL) is a shard.Store, so that shard.Open reads a set from a bucket as from
// a local directory, through io.ReaderAt's ranged reads.
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
// an object that is visible only once committed: a single PUT, or a multipart
// upload of 16 MiB parts for a larger one, completed at Commit and aborted at
// Close; [Bucket.Clean] aborts the uploads of writers that died.
//
// This package is a module of its own (github.com/obskit/obskit/objstore), so
// that the kit's core module does not require the AWS SDK; it uses the core's
// public API only.
package objstore
