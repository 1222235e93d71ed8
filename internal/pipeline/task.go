package pipeline

import (
	"sync"

	"github.com/obskit/obskit/container"
)

// A Task is a goroutine of the kit that no consumer pulls: a read-ahead that
// works ahead of readers it only watches (shard.Set.Prefetch). It keeps the
// promises of a pipeline that do not concern steps: [Task.Stop] ends it and
// returns once its goroutine has exited, and a panic in it is kept as a
// [*container.PanicError], which [Task.Panic] returns so that its owner
// raises it in the caller's goroutine.
type Task struct {
	op   string
	stop chan struct{}
	done chan struct{}
	once sync.Once
	fail *container.PanicError // set before done is closed
}

// Go starts f in a goroutine of its own and returns its Task. f must return
// soon after stop is closed. A panic in f ends the task; op names it in the
// PanicError.
func Go(op string, f func(stop <-chan struct{})) *Task {
	t := &Task{op: op, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(t.done)
		defer func() {
			if v := recover(); v != nil {
				t.fail = wrap(op, -1, v)
			}
		}()
		f(t.stop)
	}()
	return t
}

// Stop closes the task's stop channel and returns once its goroutine has
// exited. It may be called more than once, from any goroutine.
func (t *Task) Stop() {
	t.once.Do(func() { close(t.stop) })
	<-t.done
}

// Panic returns the panic that ended the task, or nil while it runs or when
// it returned normally.
func (t *Task) Panic() *container.PanicError {
	select {
	case <-t.done:
		return t.fail
	default:
		return nil
	}
}
