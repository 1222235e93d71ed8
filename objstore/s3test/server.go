package s3test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/obskit/obskit/objstore"
)

// The static credentials of the server's one identity ('mini', an admin),
// given to weed mini in its environment.
const (
	AccessKey = "obskit-test"
	SecretKey = "obskit-test-secret"
)

// A Server is a SeaweedFS server (weed mini: master, volume server, filer
// and S3 gateway in one process) on 127.0.0.1 with a data directory of its
// own, serving one bucket created at start.
type Server struct {
	// Endpoint is the S3 gateway's base URL, http://127.0.0.1:port.
	Endpoint string
	// Bucket is the bucket created at start.
	Bucket string

	dir  string   // the temporary directory: data/, weed.log, sockets
	args []string // weed mini's arguments, the same for every start
	bin  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// ports names every port weed mini opens (each given, so that none falls
// back to a fixed default such as 7333, 8181, 9101, 12535 or 23646, where
// two servers at once would collide): the HTTP and gRPC ports of the
// master, volume server, filer, S3 gateway and admin server, and WebDAV's.
// The Iceberg and Lance catalogs and the admin's legacy port are turned off
// (port 0), WebDAV and the admin UI too.
var ports = []string{
	"master.port", "master.port.grpc",
	"volume.port", "volume.port.grpc",
	"filer.port", "filer.port.grpc",
	"s3.port", "s3.port.grpc",
	"admin.port", "admin.port.grpc",
	"webdav.port",
}

// Start starts a server with a fresh data directory under the system's
// temporary directory, serving bucket, and waits until its S3 gateway
// answers (a minute at most). The caller stops it with [Server.Stop]. It
// returns an error wrapping [ErrNotBuilt] when the binary is missing, and one
// holding the end of the server's log when it does not come up.
func Start(bucket string) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	sweep()
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return nil, fmt.Errorf("s3test: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, fmt.Errorf("s3test: %w", err)
	}
	s := &Server{Bucket: bucket, dir: dir, bin: bin}
	// A port picked free may be taken before weed binds it (weed refuses
	// an explicit port that is not free): pick again.
	for try := 1; ; try++ {
		err = s.pickPorts()
		if err == nil {
			err = s.start()
		}
		if err == nil || try == 3 {
			break
		}
		s.kill()
		os.RemoveAll(filepath.Join(dir, "data"))
	}
	if err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// pickPorts chooses a free loopback port for each of ports, all held open
// together so that they differ, and sets the server's arguments.
func (s *Server) pickPorts() error {
	held := make([]net.Listener, 0, len(ports))
	defer func() {
		for _, l := range held {
			l.Close()
		}
	}()
	args := []string{"-logdir=" + filepath.Join(s.dir, "log"), "mini",
		"-dir=" + filepath.Join(s.dir, "data"), "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-bucket=" + s.Bucket,
		"-s3.port.iceberg=0", "-s3.port.lance=0", "-admin.port.legacy=0",
		"-webdav=false", "-admin.ui=false", "-master.telemetry=false",
		"-filer.localSocket=" + filepath.Join(s.dir, "filer.sock"),
		"-s3.localSocket=" + filepath.Join(s.dir, "s3.sock"),
	}
	var list []string
	for _, p := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("s3test: no free port: %w", err)
		}
		held = append(held, l)
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		args = append(args, "-"+p+"="+port)
		list = append(list, port)
		if p == "s3.port" {
			s.Endpoint = "http://127.0.0.1:" + port
		}
	}
	s.args = args
	// For sweep: the gRPC sockets weed makes in /tmp are named by port.
	return os.WriteFile(filepath.Join(s.dir, "ports"), []byte(strings.Join(list, "\n")), 0o644)
}

// start runs weed with the server's arguments and data directory and waits
// until the S3 gateway lists the bucket.
func (s *Server) start() error {
	for _, d := range []string{"data", "log"} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
			return fmt.Errorf("s3test: %w", err)
		}
	}
	logf, err := os.OpenFile(s.logPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("s3test: %w", err)
	}
	defer logf.Close()
	fmt.Fprintf(logf, "=== %s %s\n", time.Now().Format(time.RFC3339), strings.Join(s.args, " "))
	cmd := exec.Command(s.bin, s.args...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+AccessKey, "AWS_SECRET_ACCESS_KEY="+SecretKey)
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("s3test: start %s: %w", s.bin, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		if s.ready(ctx) {
			return nil
		}
		select {
		case <-done:
			return fmt.Errorf("s3test: weed mini exited at start: %s", s.logTail())
		case <-ctx.Done():
			return fmt.Errorf("s3test: weed mini's S3 gateway did not answer within a minute: %s", s.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ready reports whether the S3 gateway answers a signed listing of the
// bucket.
func (s *Server) ready(ctx context.Context) bool {
	c, err := objstore.New(objstore.Config{
		Endpoint: s.Endpoint, AccessKey: AccessKey, SecretKey: SecretKey, PathStyle: true,
		Retry:      objstore.Retry{Attempts: 1},
		HTTPClient: &http.Client{Timeout: 2 * time.Second},
	})
	if err != nil {
		return false
	}
	for _, err := range c.Bucket(s.Bucket, "").List("") {
		return err == nil
	}
	return ctx.Err() == nil
}

func (s *Server) logPath() string { return filepath.Join(s.dir, "weed.log") }

// logTail returns the last lines of the server's log, for errors.
func (s *Server) logTail() string {
	b, _ := os.ReadFile(s.logPath())
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(bytes.TrimSpace(b))
}

// tempPrefix starts the names of the servers' directories under the
// system's temporary directory.
const tempPrefix = "obskit-weed-"

// sweep removes what servers of dead test processes left: their
// directories (whose owner file names a process that no longer runs) and
// the gRPC sockets weed mini makes in /tmp, named by the ports they chose.
// A test binary that panics or times out exits without stopping its
// server; the kernel kills the server (sysProcAttr), and this cleans up.
func sweep() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "owner"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(string(b))
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		if ports, err := os.ReadFile(filepath.Join(d, "ports")); err == nil {
			for _, p := range strings.Fields(string(ports)) {
				socks, _ := filepath.Glob("/tmp/seaweedfs-*-grpc-" + p + ".sock")
				for _, sock := range socks {
					os.Remove(sock)
				}
			}
		}
		os.RemoveAll(d)
	}
}

// alive reports whether process pid runs (signal 0 reaches it).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// Config returns the configuration that reaches the server: its endpoint,
// path-style, the static keys.
func (s *Server) Config() objstore.Config {
	return objstore.Config{Endpoint: s.Endpoint, AccessKey: AccessKey, SecretKey: SecretKey, PathStyle: true}
}

// Env returns the environment variables that reach the server
// (AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY),
// for a command or a Python peer run by a test.
func (s *Server) Env() []string {
	return []string{"AWS_ENDPOINT_URL=" + s.Endpoint, "AWS_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=" + AccessKey, "AWS_SECRET_ACCESS_KEY=" + SecretKey}
}

// Kill ends the server at once (SIGKILL), as a crash would, keeping its
// data directory; [Server.Restart] brings it back on the same ports.
func (s *Server) Kill() { s.kill() }

func (s *Server) kill() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Kill()
	<-done
}

// Restart starts a killed or stopped server again, on the same ports and data
// directory, and waits until it answers.
func (s *Server) Restart() error {
	s.mu.Lock()
	running := s.cmd != nil
	s.mu.Unlock()
	if running {
		return errors.New("s3test: Restart of a running server")
	}
	return s.start()
}

// Stop ends the server (SIGTERM, SIGKILL after 10 s) and removes its data
// directory. It returns the end of the server's log when the server had
// exited on its own before.
func (s *Server) Stop() error {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	var err error
	if cmd != nil {
		select {
		case <-done:
			err = fmt.Errorf("s3test: the server had exited: %s", s.logTail())
		default:
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
			}
		}
	}
	os.RemoveAll(s.dir)
	return err
}
