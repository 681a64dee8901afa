package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// crashEnv names the test hook that makes depositwatch kill itself at an
// exact point, so that TestKilledAndRestarted lands its kills where it
// means to on a machine of any speed (a kill on a timer lands nowhere on a
// fast machine). "N:point": at the Nth stream event, at point
//
//	handled  the event applied to the balances in memory, nothing saved
//	saving   the first save from then on: the temporary file written, not yet renamed
//	saved    the end of the event: saved (if anything changed), not yet acknowledged to the node
//
// with SIGKILL: no deferred function runs, no buffer is flushed. Unset, it
// does nothing.
const crashEnv = "DEPOSITWATCH_CRASH"

type crashPoint struct {
	at    int    // the event, counted from 1; 0: never
	point string // handled, saving or saved
	event int    // events seen so far
}

var crash crashPoint

func crashFromEnv() (crashPoint, error) {
	v := os.Getenv(crashEnv)
	if v == "" {
		return crashPoint{}, nil
	}
	n, point, ok := strings.Cut(v, ":")
	at, err := strconv.Atoi(n)
	if !ok || err != nil || at < 1 || (point != "handled" && point != "saving" && point != "saved") {
		return crashPoint{}, fmt.Errorf("%s=%q: want N:handled, N:saving or N:saved", crashEnv, v)
	}
	return crashPoint{at: at, point: point}, nil
}

// reached kills the process when it is at the hook's point.
func (c *crashPoint) reached(point string) {
	if c.at > 0 && c.event >= c.at && c.point == point {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
