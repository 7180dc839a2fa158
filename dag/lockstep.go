package dag

import (
	"sync"
	"time"
)

// lockstep runs workers in parallel but in epochs of fixed work, so that
// a decision to stop them all (one found a proof of optimality, say) is
// taken at the same work counts on every run, whatever the machine and
// the number of cores. Every worker has its own budget; when a budget
// reaches its pause point, done() blocks until every worker has paused or
// finished; then the coordinator's verdict (made from the workers'
// published results only) either stops them all or grants each another
// epoch, and may add workers that start with the next epoch. Workers hold
// a slot of a semaphore of size limit only while running, so any limit
// (even 1) gives the same results.
type lockstep struct {
	mu       sync.Mutex
	cond     *sync.Cond
	wg       sync.WaitGroup
	epoch    int64
	deadline time.Time
	workers  []*budget
	work     func(i int, b *budget)
	waiting  int   // workers paused at the current barrier
	running  int   // workers started and not yet finished
	added    []int // workers the verdict added, started once it returns
	gen      int   // barrier generation
	stop     bool
	slots    chan struct{}
	// verdict is called with the lock held at every barrier and once more
	// when the last worker returns; it returns true to stop every worker.
	verdict func() bool
}

// newLockstep prepares a run of len(shares) workers: worker i gets a
// budget of shares[i] units (sharing parent's deadline), paused every
// epoch units. limit bounds the workers running at once.
func newLockstep(parent *budget, shares []int64, epoch int64, limit int, verdict func() bool) *lockstep {
	ls := &lockstep{epoch: max(1, epoch), deadline: parent.deadline, slots: make(chan struct{}, max(1, limit)),
		verdict: verdict}
	ls.cond = sync.NewCond(&ls.mu)
	for _, w := range shares {
		ls.newWorker(parent.child(w))
	}
	return ls
}

// pace makes worker i pause every f·epoch units instead of every epoch
// (before it starts): a worker whose units take less time keeps pace with
// the others in time, not in units.
func (ls *lockstep) pace(i int, f float64) {
	b := ls.workers[i]
	b.every = max(1, int64(f*float64(ls.epoch)))
	b.pause = b.every
}

// newWorker makes b a worker's budget.
func (ls *lockstep) newWorker(b *budget) int {
	b.step = ls
	b.every, b.pause = ls.epoch, ls.epoch
	ls.workers = append(ls.workers, b)
	return len(ls.workers) - 1
}

// run calls work(i, budget) for every worker on its own goroutine and
// returns when all, those the verdict added included, have finished; the
// parent budget is charged their work.
func (ls *lockstep) run(parent *budget, work func(i int, b *budget)) {
	ls.mu.Lock()
	ls.work = work
	for i := range ls.workers {
		ls.start(i)
	}
	ls.mu.Unlock()
	ls.wg.Wait()
	for _, b := range ls.workers {
		parent.merge(b)
	}
}

// start runs worker i on its own goroutine; the lock is held.
func (ls *lockstep) start(i int) {
	b := ls.workers[i]
	ls.running++
	ls.wg.Add(1)
	go func() {
		defer ls.wg.Done()
		ls.slots <- struct{}{}
		ls.work(i, b)
		<-ls.slots
		ls.finish()
	}()
}

// add, called by the verdict, adds worker len(ls.workers) with a budget of
// w units; it starts when the verdict has returned, with the next epoch.
func (ls *lockstep) add(w int64) {
	ls.added = append(ls.added, ls.newWorker(&budget{max: max(0, w), deadline: ls.deadline}))
}

// hear calls the verdict (the lock held), then starts the workers it
// added unless it said to stop.
func (ls *lockstep) hear() {
	if ls.verdict() {
		ls.stop = true
	}
	for _, i := range ls.added {
		if ls.stop {
			ls.workers[i].stopped = true
			continue
		}
		ls.start(i)
	}
	ls.added = ls.added[:0]
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
		b.pause += b.every
	}
	return stop
}

// finish records that a worker returned. When it was the last, the verdict
// is heard once more, as it may add workers.
func (ls *lockstep) finish() {
	ls.mu.Lock()
	ls.running--
	if ls.running == 0 {
		if !ls.stop {
			ls.hear()
		}
	} else {
		ls.release()
	}
	ls.mu.Unlock()
}

// release opens the barrier when every running worker waits at it.
func (ls *lockstep) release() {
	if ls.waiting < ls.running {
		return
	}
	ls.hear()
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
