package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
)

// A Retry says how a request that failed for a reason that may pass (a
// connection refused or cut, a 5xx status, a throttling reply, a response body
// that stopped arriving) is tried again: up to Attempts tries in all, waiting
// between two tries a random time between half and all of a delay that starts
// at Base and doubles up to Max. A fault that will not pass (an object that
// does not exist, access denied, an object that changed since it was opened)
// is returned at once. A zero field takes [DefaultRetry]'s value.
type Retry struct {
	Attempts  int
	Base, Max time.Duration
	// Idle cuts a response whose body has not delivered a byte for that
	// long, and retries it from the byte it stopped at.
	Idle time.Duration
}

// DefaultRetry tries a request 10 times over about 15 s of waits (50 ms
// doubling up to 4 s), long enough for a store's server to restart, and cuts
// a body idle for 30 s.
var DefaultRetry = Retry{Attempts: 10, Base: 50 * time.Millisecond, Max: 4 * time.Second, Idle: 30 * time.Second}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = DefaultRetry.Attempts
	}
	if r.Base <= 0 {
		r.Base = DefaultRetry.Base
	}
	if r.Max <= 0 {
		r.Max = DefaultRetry.Max
	}
	if r.Idle <= 0 {
		r.Idle = DefaultRetry.Idle
	}
	return r
}

// wait returns the pause before try number attempt+1 (attempt >= 1).
func (r Retry) wait(attempt int) time.Duration {
	d := r.Base
	for i := 1; i < attempt && d < r.Max; i++ {
		d *= 2
	}
	d = min(d, r.Max)
	return d/2 + rand.N(d/2+1)
}

// errIdle is the cause of a request cut because its body stopped arriving.
var errIdle = errors.New("no data received for the idle timeout")

// do runs f until it succeeds, fails for good or has been tried r.Attempts
// times. f reports progress (bytes received) by returning progressed, which
// restarts the count of attempts: a large read over a flaky link advances
// rather than giving up after Attempts cuts. The error returned is f's last,
// with the number of tries when there were several.
func (r Retry) do(ctx context.Context, f func(ctx context.Context) (progressed bool, err error)) error {
	tries := 0
	for attempt := 1; ; attempt++ {
		tries++
		progressed, err := f(ctx)
		if err == nil {
			return nil
		}
		if progressed {
			attempt = 1
		}
		if !transient(err) || attempt >= r.Attempts || ctx.Err() != nil {
			if tries > 1 {
				return fmt.Errorf("%w (after %d tries)", err, tries)
			}
			return err
		}
		t := time.NewTimer(r.wait(attempt))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return err
		}
	}
}

// transient reports whether err may pass if the request is sent again: a
// response with a 5xx, 429 or 408 status or a throttling code, or no
// response at all (a connection refused, reset or cut, a body cut short or
// idle), but not a cancellation by the caller nor a failure of the
// destination of the bytes.
func transient(err error) bool {
	var pe *permanent
	if errors.As(err, &pe) || errors.Is(err, context.Canceled) && !errors.Is(err, errIdle) {
		return false
	}
	var re *awshttp.ResponseError
	// A request that got no response (refused, reset) has status 0.
	if errors.As(err, &re) && re.HTTPStatusCode() != 0 {
		switch s := re.HTTPStatusCode(); {
		case s >= 500, s == http.StatusTooManyRequests, s == http.StatusRequestTimeout:
			return true
		}
		var ae smithy.APIError
		if errors.As(err, &ae) {
			switch ae.ErrorCode() {
			case "SlowDown", "Throttling", "ThrottlingException", "RequestTimeout", "InternalError", "ServiceUnavailable":
				return true
			}
		}
		return false
	}
	var ne net.Error
	var oe *smithy.OperationError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, errIdle) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE)
}

// A permanent error is one no retry mends.
type permanent struct{ err error }

func (p *permanent) Error() string { return p.err.Error() }
func (p *permanent) Unwrap() error { return p.err }

// An idleBody cuts the request whose body it reads (cancel) when no Read has
// returned a byte for d, so that a stalled connection is retried.
type idleBody struct {
	r      io.Reader
	d      time.Duration
	mu     sync.Mutex
	timer  *time.Timer
	idle   bool
	cancel context.CancelFunc
}

// idleContext returns a context for one request and the function that arms
// the idle watch over its body; the returned stop releases both.
func idleContext(ctx context.Context, d time.Duration) (context.Context, func(io.Reader) *idleBody, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	var ib *idleBody
	watch := func(r io.Reader) *idleBody {
		ib = &idleBody{r: r, d: d, cancel: func() { cancel(errIdle) }}
		ib.timer = time.AfterFunc(d, ib.fire)
		return ib
	}
	stop := func() {
		if ib != nil {
			ib.timer.Stop()
		}
		cancel(context.Canceled)
	}
	return ctx, watch, stop
}

func (b *idleBody) fire() {
	b.mu.Lock()
	b.idle = true
	b.mu.Unlock()
	b.cancel()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.timer.Reset(b.d)
	}
	if err != nil && err != io.EOF {
		b.mu.Lock()
		idle := b.idle
		b.mu.Unlock()
		if idle {
			err = fmt.Errorf("%w (%v): %w", errIdle, b.d, err)
		}
	}
	return n, err
}
