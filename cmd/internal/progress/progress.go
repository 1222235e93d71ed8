// Package progress draws progress bars on a terminal for the kit's commands
// (github.com/vbauerster/mpb), and nothing when the output is not a terminal, so
// that redirected output stays clean. A nil *Progress shows nothing, and so do
// the nil bars it hands out: a command builds its bars unconditionally.
package progress

import (
	"io"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"
)

// Output returns where progress bars go: stderr when enabled and stderr is a
// terminal, nil (no bars) otherwise.
func Output(stderr io.Writer, enabled bool) io.Writer {
	f, ok := stderr.(*os.File)
	if !enabled || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return f
}

// A Progress draws bars on one writer.
type Progress struct {
	p *mpb.Progress
}

// New returns bars drawn on w, or nil (no bars) when w is nil. It starts mpb's
// rendering goroutines; [Progress.Stop] ends them.
func New(w io.Writer) *Progress {
	if w == nil {
		return nil
	}
	return &Progress{mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithAutoRefresh())}
}

// Bar adds a bar named name that is full after total units (total <= 0: a bar
// whose total is not known, which counts up).
func (p *Progress) Bar(name string, total int64, unit string) *Bar {
	if p == nil {
		return nil
	}
	return &Bar{p.p.AddBar(total,
		mpb.PrependDecorators(
			decor.Name(name, decor.WCSyncSpaceR),
			decor.CountersNoUnit("%d/%d "+unit, decor.WCSyncSpace),
		),
		mpb.AppendDecorators(decor.AverageSpeed(0, "%.0f "+unit+"/s", decor.WCSyncSpace)),
	)}
}

// Stop waits until every bar is drawn complete and ends the rendering
// goroutines. Call it once, after every bar is done.
func (p *Progress) Stop() {
	if p != nil {
		p.p.Wait()
	}
}

// A Bar counts the units of one stage.
type Bar struct {
	b *mpb.Bar
}

// Add advances the bar by n units.
func (b *Bar) Add(n int) {
	if b != nil {
		b.b.IncrBy(n)
	}
}

// Done ends the bar: a full bar is already complete, one left short (a stage
// that failed) is drawn as aborted, so that Stop does not wait for it.
func (b *Bar) Done() {
	if b != nil {
		b.b.Abort(false)
	}
}
