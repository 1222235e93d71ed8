package s3test

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// A Proxy is a TCP proxy on 127.0.0.1 in front of a server, for tests of
// slow and failing networks: every byte a client sends reaches the server
// [Proxy.SetLatency] later (a delay line: the bandwidth is kept, each request
// waits), [Proxy.Cut] resets every open connection, and [Proxy.CutAfter]
// resets each connection once it has carried a number of bytes from the
// server.
type Proxy struct {
	// Addr is the proxy's address, host:port; Endpoint its http:// URL.
	Addr, Endpoint string

	target  string
	l       net.Listener
	latency atomic.Int64 // nanoseconds
	cutAt   atomic.Int64 // bytes from the server after which a connection is cut; 0 never
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup
}

// NewProxy starts a proxy to target (host:port). Close stops it.
func NewProxy(target string) (*Proxy, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{Addr: l.Addr().String(), target: target, l: l, conns: map[net.Conn]struct{}{}}
	p.Endpoint = "http://" + p.Addr
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// SetLatency makes every byte sent to the server from now on arrive d
// later.
func (p *Proxy) SetLatency(d time.Duration) { p.latency.Store(int64(d)) }

// CutAfter makes the proxy close each connection after it has carried n
// bytes from the server to the client, as a flaky network would cut a long
// response; 0 stops cutting.
func (p *Proxy) CutAfter(n int64) { p.cutAt.Store(n) }

// Cut closes every connection open through the proxy, as a network fault
// or a server crash would; new connections are accepted.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// Close stops the proxy and closes its connections.
func (p *Proxy) Close() error {
	err := p.l.Close()
	p.Cut()
	p.wg.Wait()
	return err
}

func (p *Proxy) track(c net.Conn, add bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if add {
		p.conns[c] = struct{}{}
	} else {
		delete(p.conns, c)
	}
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

func (p *Proxy) serve(c net.Conn) {
	defer p.wg.Done()
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.track(c, true)
	p.track(s, true)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.delayed(s, c); s.Close(); c.Close() }()
	go func() { defer wg.Done(); p.down(c, s); c.Close(); s.Close() }()
	wg.Wait()
	p.track(c, false)
	p.track(s, false)
}

// down copies the server's bytes to the client until CutAfter's count.
func (p *Proxy) down(c, s net.Conn) {
	buf := make([]byte, 32<<10)
	var sent int64
	for {
		n, err := s.Read(buf)
		if limit := p.cutAt.Load(); limit > 0 && sent+int64(n) > limit {
			n = int(max(limit-sent, 0))
			err = io.EOF
		}
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
			sent += int64(n)
		}
		if err != nil {
			return
		}
	}
}

// delayed copies src to dst, each chunk written the proxy's latency after it
// was read; a failed write closes src.
func (p *Proxy) delayed(dst io.Writer, src io.ReadCloser) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	ch := make(chan chunk, 64)
	go func() {
		defer close(ch)
		for {
			b := make([]byte, 32<<10)
			n, err := src.Read(b)
			if n > 0 {
				ch <- chunk{b[:n], time.Now().Add(time.Duration(p.latency.Load()))}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range ch {
		if d := time.Until(c.at); d > 0 {
			time.Sleep(d)
		}
		if _, err := dst.Write(c.b); err != nil {
			src.Close()
			for range ch {
			}
			return
		}
	}
}
