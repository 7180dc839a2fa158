package dag

import "sync"

// lockstep runs workers in parallel but in epochs of fixed work, so that
// a decision to stop them all (one found a proof of optimality, say) is
// taken at the same work counts on every run, whatever the machine and
// the number of cores. Every worker has its own budget; when a budget
// reaches its pause point, done() blocks until every worker has paused or
// finished; then the coordinator's verdict (made from the workers'
// published results only) either stops them all or grants each another
// epoch. Workers hold a slot of a semaphore of size limit only while
// running, so any limit (even 1) gives the same results.
type lockstep struct {
	mu      sync.Mutex
	cond    *sync.Cond
	epoch   int64
	workers []*budget
	waiting int // workers paused at the current barrier
	running int // workers not yet finished
	gen     int // barrier generation
	stop    bool
	slots   chan struct{}
	// verdict is called with the lock held at every barrier; it returns
	// true to stop every worker.
	verdict func() bool
}

// newLockstep prepares a run of len(shares) workers: worker i gets a
// budget of shares[i] units (sharing parent's deadline), paused every
// epoch units. limit bounds the workers running at once.
func newLockstep(parent *budget, shares []int64, epoch int64, limit int, verdict func() bool) *lockstep {
	ls := &lockstep{epoch: max(1, epoch), running: len(shares), slots: make(chan struct{}, max(1, limit)), verdict: verdict}
	ls.cond = sync.NewCond(&ls.mu)
	for _, w := range shares {
		b := parent.child(w)
		b.step = ls
		b.pause = ls.epoch
		ls.workers = append(ls.workers, b)
	}
	return ls
}

// run calls work(i, budget) for every worker on its own goroutine and
// returns when all have finished; the parent budget is charged their work.
func (ls *lockstep) run(parent *budget, work func(i int, b *budget)) {
	var wg sync.WaitGroup
	for i, b := range ls.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ls.slots <- struct{}{}
			work(i, b)
			<-ls.slots
			ls.finish()
		}()
	}
	wg.Wait()
	for _, b := range ls.workers {
		parent.merge(b)
	}
}

// barrier is called by a worker whose budget reached its pause point; it
// reports whether the worker must stop.
func (ls *lockstep) barrier(b *budget) bool {
	<-ls.slots // let another worker run while this one waits
	ls.mu.Lock()
	ls.waiting++
	gen := ls.gen
	ls.release()
	for gen == ls.gen && !ls.stop {
		ls.cond.Wait()
	}
	stop := ls.stop
	ls.mu.Unlock()
	ls.slots <- struct{}{}
	if !stop {
		b.pause += ls.epoch
	}
	return stop
}

// finish records that a worker returned.
func (ls *lockstep) finish() {
	ls.mu.Lock()
	ls.running--
	ls.release()
	ls.mu.Unlock()
}

// release opens the barrier when every running worker waits at it.
func (ls *lockstep) release() {
	if ls.running == 0 || ls.waiting < ls.running {
		return
	}
	if ls.verdict() {
		ls.stop = true
	}
	ls.waiting = 0
	ls.gen++
	ls.cond.Broadcast()
}

// transfer gives worker to the work worker from has not spent; from stops
// at its next check of its budget. Called by the verdict (every worker is
// paused or finished), it keeps the run deterministic.
func (ls *lockstep) transfer(from, to int) {
	f := ls.workers[from]
	if rest := f.max - f.used; rest > 0 {
		f.max = f.used
		ls.workers[to].max += rest
	}
}
