package chaintest

import "time"

// workerIdle is how long a worker serving in-process requests waits for
// the next before it ends.
const workerIdle = 100 * time.Millisecond

// workerPool runs the in-process requests of every chain on goroutines
// kept between requests. A request runs secp256k1 and wasm, which grow a
// goroutine's stack from its first few kB to tens; a fresh goroutine per
// request paid for starting and for copying its stack as it grew, about
// a tenth of a one-transfer Transact. A worker idle for workerIdle ends,
// so a process that stops sending keeps no goroutines.
type workerPool struct {
	jobs chan func() // unbuffered: a send succeeds only when a worker waits
}

var inProcessWorkers = workerPool{jobs: make(chan func())}

// run runs f on an idle worker, or on a new one when none is idle: f never
// waits for another request to finish.
func (p *workerPool) run(f func()) {
	select {
	case p.jobs <- f:
	default:
		go p.work(f)
	}
}

func (p *workerPool) work(f func()) {
	f()
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case f := <-p.jobs:
			f()
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		}
	}
}
