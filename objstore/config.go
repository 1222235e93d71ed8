package objstore

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// ErrConfig is wrapped by the errors of [EnvConfig] and [New] for a
// configuration that cannot reach a store: a malformed endpoint, one key
// without the other.
var ErrConfig = errors.New("objstore: bad configuration")

// A Config says how to reach an S3-compatible object store. The zero Config
// reaches Amazon S3 in us-east-1 with no credentials (public buckets only).
type Config struct {
	// Endpoint is the store's base URL, such as "http://127.0.0.1:8333" for
	// a server on loopback; empty for Amazon S3's regional endpoint.
	Endpoint string
	// Region is the region requests are signed for; empty means us-east-1.
	// S3-compatible servers accept any region.
	Region string
	// AccessKey and SecretKey are static credentials; both empty sends
	// unsigned requests.
	AccessKey, SecretKey string
	// PathStyle addresses buckets as a path (endpoint/bucket/key) rather
	// than as a host name (bucket.endpoint/key). [EnvConfig] sets it when an
	// endpoint is given: servers on loopback or in a cluster have no
	// wildcard DNS name.
	PathStyle bool
	// Retry says how often and how long a failed request is tried again;
	// its zero value is [DefaultRetry].
	Retry Retry
	// HTTPClient sends the requests; nil means a client whose transport
	// keeps up to 64 idle connections to the store (read-ahead and parallel
	// readers each hold one).
	HTTPClient *http.Client
}

// EnvConfig returns the Config the standard environment variables describe,
// read here rather than through the AWS SDK's configuration chain (which
// would add its modules and read files under ~/.aws): AWS_ENDPOINT_URL (the
// endpoint; buckets then addressed as paths), AWS_REGION, AWS_ACCESS_KEY_ID
// and AWS_SECRET_ACCESS_KEY. It returns an error wrapping [ErrConfig] when
// the endpoint is not an http or https URL with a host, or when only one of
// the two keys is set.
func EnvConfig() (Config, error) {
	cfg := Config{
		Endpoint:  os.Getenv("AWS_ENDPOINT_URL"),
		Region:    os.Getenv("AWS_REGION"),
		AccessKey: os.Getenv("AWS_ACCESS_KEY_ID"),
		SecretKey: os.Getenv("AWS_SECRET_ACCESS_KEY"),
	}
	cfg.PathStyle = cfg.Endpoint != ""
	if err := cfg.check(); err != nil {
		return Config{}, fmt.Errorf("%w (from the environment)", err)
	}
	return cfg, nil
}

func (c Config) check() error {
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: endpoint %q is not an http:// or https:// URL with a host", ErrConfig, c.Endpoint)
		}
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		missing := "AWS_SECRET_ACCESS_KEY (the secret key)"
		if c.AccessKey == "" {
			missing = "AWS_ACCESS_KEY_ID (the access key)"
		}
		return fmt.Errorf("%w: %s is missing while the other key is set", ErrConfig, missing)
	}
	return nil
}

// A Client sends requests to one S3-compatible store. It is safe for any
// number of goroutines at once; its buckets ([Client.Bucket]) share its
// connections.
type Client struct {
	s3    *s3.Client
	retry Retry
	http  *http.Client
}

// New returns a client for the store cfg describes. It sends no request. It
// returns an error wrapping [ErrConfig] for a configuration [EnvConfig]
// would refuse.
//
// Requests carry a checksum only when the operation requires one, and
// responses are validated only then (aws.RequestChecksumCalculationWhenRequired
// and aws.ResponseChecksumValidationWhenRequired): the SDK's defaults since
// 2025 send CRC trailers that S3-compatible servers reject. The SDK's own
// retries are off: [Retry] retries every request, and also a response body
// cut off while it is read, which the SDK does not.
func New(cfg Config) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: newTransport()}
	}
	region := cfg.Region
	if region == "" {
		region = "us-east-1"
	}
	opts := s3.Options{
		Region:                     region,
		HTTPClient:                 hc,
		UsePathStyle:               cfg.PathStyle,
		Retryer:                    aws.NopRetryer{},
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
		// Ranged reads of an object uploaded in parts have no whole-object
		// checksum to validate; the SDK would log that on every read.
		DisableLogOutputChecksumValidationSkipped: true,
	}
	if cfg.Endpoint != "" {
		opts.BaseEndpoint = aws.String(strings.TrimSuffix(cfg.Endpoint, "/"))
	}
	if cfg.AccessKey != "" {
		opts.Credentials = credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, "")
	} else {
		opts.Credentials = aws.AnonymousCredentials{}
	}
	return &Client{s3: s3.New(opts), retry: cfg.Retry.withDefaults(), http: hc}, nil
}

// newTransport is http.DefaultTransport's settings with more idle
// connections per host (a store is one host) and bounded waits for a
// connection and a response's headers; a body that stops arriving is cut by
// the reader's idle timeout (readIdle).
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}
