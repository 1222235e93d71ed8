package pipeline

import (
	"errors"
	"testing"
	"time"
)

func TestTaskStop(t *testing.T) {
	ticks := make(chan int)
	task := Go("test", func(stop <-chan struct{}) {
		for i := 0; ; i++ {
			select {
			case ticks <- i:
			case <-stop:
				return
			}
		}
	})
	for want := range 3 {
		if got := <-ticks; got != want {
			t.Fatalf("tick %d, want %d", got, want)
		}
	}
	if task.Panic() != nil {
		t.Fatal("a running task reports a panic")
	}
	task.Stop()
	task.Stop() // again: a no-op
	select {
	case i := <-ticks:
		t.Fatalf("tick %d after Stop returned", i)
	case <-time.After(10 * time.Millisecond):
	}
	if task.Panic() != nil {
		t.Fatal("a task that returned reports a panic")
	}
}

func TestTaskPanic(t *testing.T) {
	boom := errors.New("boom")
	task := Go("test.op", func(<-chan struct{}) { panic(boom) })
	task.Stop()
	p := task.Panic()
	if p == nil || p.Op != "test.op" || p.Step != -1 || !errors.Is(p, boom) || len(p.Stack) == 0 {
		t.Fatalf("Panic() = %#v", p)
	}
}
