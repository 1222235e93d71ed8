package objstore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/obskit/obskit/objstore"
)

func TestParseURL(t *testing.T) {
	for _, c := range []struct{ url, bucket, prefix, bad string }{
		{url: "s3://data", bucket: "data"},
		{url: "s3://data/", bucket: "data"},
		{url: "s3://my.data-1/train", bucket: "my.data-1", prefix: "train"},
		{url: "s3://data/train/v2/", bucket: "data", prefix: "train/v2"},
		{url: "/local/path", bad: "not an s3://bucket/prefix URL"},
		{url: "S3://data/x", bad: "not an s3://bucket/prefix URL"},
		{url: "s3://", bad: `bucket ""`},
		{url: "s3://ab/x", bad: `bucket "ab"`},
		{url: "s3://Data/x", bad: `bucket "Data"`},
		{url: "s3://-data/x", bad: `bucket "-data"`},
		{url: "s3://data_1/x", bad: `bucket "data_1"`},
		{url: "s3://data//x", bad: `prefix "/x"`},
		{url: "s3://data/a/../b", bad: `prefix "a/../b"`},
	} {
		bucket, prefix, err := objstore.ParseURL(c.url)
		if c.bad != "" {
			if !errors.Is(err, objstore.ErrConfig) || !strings.Contains(err.Error(), c.bad) || !strings.Contains(err.Error(), c.url) {
				t.Errorf("ParseURL(%q) = %v, want ErrConfig naming the URL and %s", c.url, err, c.bad)
			}
			continue
		}
		if err != nil || bucket != c.bucket || prefix != c.prefix {
			t.Errorf("ParseURL(%q) = %q, %q, %v; want %q, %q", c.url, bucket, prefix, err, c.bucket, c.prefix)
		}
	}
	if !objstore.IsURL("s3://a/b") || objstore.IsURL("data/s3://") {
		t.Error("IsURL")
	}
}

// TestEnvConfig reads the four variables, and refuses a malformed endpoint
// and one key without the other, naming the variable.
func TestEnvConfig(t *testing.T) {
	set := func(endpoint, region, key, secret string) {
		t.Setenv("AWS_ENDPOINT_URL", endpoint)
		t.Setenv("AWS_REGION", region)
		t.Setenv("AWS_ACCESS_KEY_ID", key)
		t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	}
	set("http://127.0.0.1:8333", "eu-west-3", "k", "s")
	cfg, err := objstore.EnvConfig()
	want := objstore.Config{Endpoint: "http://127.0.0.1:8333", Region: "eu-west-3", AccessKey: "k", SecretKey: "s", PathStyle: true}
	if err != nil || cfg != want {
		t.Fatalf("EnvConfig() = %+v, %v; want %+v", cfg, err, want)
	}
	set("", "", "", "")
	if cfg, err := objstore.EnvConfig(); err != nil || cfg != (objstore.Config{}) {
		t.Fatalf("EnvConfig() with nothing set = %+v, %v; want the zero Config", cfg, err)
	}
	for _, c := range []struct{ endpoint, key, secret, bad string }{
		{"127.0.0.1:8333", "k", "s", `endpoint "127.0.0.1:8333"`},
		{"ftp://host", "k", "s", `endpoint "ftp://host"`},
		{"http://", "k", "s", `endpoint "http://"`},
		{"", "k", "", "AWS_SECRET_ACCESS_KEY"},
		{"", "", "s", "AWS_ACCESS_KEY_ID"},
	} {
		set(c.endpoint, "", c.key, c.secret)
		_, err := objstore.EnvConfig()
		if !errors.Is(err, objstore.ErrConfig) || !strings.Contains(err.Error(), c.bad) {
			t.Errorf("EnvConfig() with %+v = %v, want ErrConfig naming %s", c, err, c.bad)
		}
		if _, err := objstore.New(objstore.Config{Endpoint: c.endpoint, AccessKey: c.key, SecretKey: c.secret}); !errors.Is(err, objstore.ErrConfig) {
			t.Errorf("New with %+v = %v, want ErrConfig", c, err)
		}
	}
}
