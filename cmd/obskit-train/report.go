package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// print writes the report.
func (rep *report) print(w io.Writer) {
	cfg := rep.cfg
	fmt.Fprintf(w, "obskit-train: a CNN (conv 3x3 %d, max-pool 2x2, conv 3x3 %d, max-pool 2x2, dense %d, 10 classes; Adam)\n", cfg.filters, 2*cfg.filters, cfg.hidden)
	fmt.Fprintf(w, "trained with GoMLX %s's pure-Go backend (compute %s) on the 1,797 embedded digits,\n", moduleVersion("github.com/gomlx/gomlx"), moduleVersion("github.com/gomlx/compute"))
	fmt.Fprintf(w, "through obskit's gomlx adapter (uint8 batches of %d normalized in the graph, Prefetch(%d)).\n\n", cfg.batch, cfg.prefetch)
	fmt.Fprintf(w, "split by class: train %d, validation %d, test %d\n\n", rep.trainN, rep.valN, rep.testN)
	fmt.Fprintf(w, "%d-fold stratified cross-validation of the learning rate on the training part\n", cfg.folds)
	fmt.Fprintf(w, "(%d epochs a fold; each training image shifted by up to a pixel with probability %g):\n", cfg.cvEpochs, cfg.shift)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  rate\taccuracy\t")
	for _, r := range rep.cv {
		mark := ""
		if r.rate == rep.rate {
			mark = "chosen"
		}
		fmt.Fprintf(tw, "  %g\t%.3f ± %.3f\t%s\n", r.rate, r.mean, r.std, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\ntraining at rate %g, stopped early on the validation accuracy (patience %d):\n", rep.rate, cfg.patience)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  epoch\ttrain accuracy\tvalidation accuracy\tvalidation loss\t")
	for e, c := range rep.curve {
		mark := ""
		if e+1 == rep.best {
			mark = "best"
		}
		fmt.Fprintf(tw, "  %d\t%.3f\t%.3f\t%.3f\t%s\n", e+1, c.train, c.val, c.valLoss, mark)
	}
	tw.Flush()
	how := "ran all its epochs"
	if rep.stopped {
		how = fmt.Sprintf("stopped after epoch %d", len(rep.curve))
	}
	fmt.Fprintf(w, "  %s; the weights of epoch %d kept\n\n", how, rep.best)
	fmt.Fprintf(w, "test accuracy: %.3f\n", rep.test)
	waited := rep.wait.Wait + rep.wait.Fill
	fmt.Fprintf(w, "waiting for data: %.1f%% of the training steps' time (%d steps in %s; waited %s for batches and %s writing them into tensors)\n",
		100*waited.Seconds()/rep.stepTime.Seconds(), rep.steps, round(rep.stepTime), round(rep.wait.Wait), round(rep.wait.Fill))
	if rep.png != "" {
		fmt.Fprintf(w, "learning curves: %s\n", rep.png)
	}
	fmt.Fprintf(w, "time: %s\n", round(rep.elapsed))
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}
