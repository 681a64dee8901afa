// Command transferlog prints every token transfer of an account, from its
// first to the ones being made now: the past from a Hyperion history API,
// then the chain's state history (SHiP) live — one handler for both, with
// no transfer missed or printed twice at the handoff.
//
//	transferlog --hyperion https://eos.hyperion.example --ship ws://node:8080 --account alice
//
// The handoff is at a final block: history up to a margin (--index-margin)
// below the last block both irreversible and indexed, as Hyperion reports
// a block indexed before its actions can be found, then the stream from
// the next one, so no fork can undo what history gave. Global sequences order all of it; the
// stream's actions at or below the last one history gave are skipped, in
// case the two overlap.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/hyperion"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, os.Args[1:], nil, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "transferlog:", err)
		os.Exit(1)
	}
}

// counts says how many transfers each source gave.
type counts struct {
	history, live int
	historyLast   uint64 // the global sequence of history's last
}

// run runs the command; shipOpts configure the state-history client
// (tests reach an in-memory chain with them).
func run(ctx context.Context, args []string, shipOpts []ship.Option, out io.Writer) (counts, error) {
	var n counts
	fs := flag.NewFlagSet("transferlog", flag.ContinueOnError)
	hyperionURL := fs.String("hyperion", "", "the Hyperion API's root `URL`")
	shipURL := fs.String("ship", "", "the state-history websocket `URL`")
	account := fs.String("account", "", "the `account` whose transfers to print")
	contract := fs.String("token", "eosio.token", "the token `contract`")
	until := fs.Uint("until", 0, "stop before this `block` (0: follow the chain)")
	margin := fs.Uint("index-margin", hyperion.DefaultHandoffMargin, "hand over this many `blocks` below Hyperion's last indexed and final block: its actions become searchable after it reports them indexed")
	if err := fs.Parse(args); err != nil {
		return n, err
	}
	if *hyperionURL == "" || *shipURL == "" || *account == "" {
		return n, errors.New("--hyperion, --ship and --account are required")
	}
	me, err := antelope.ParseName(*account)
	if err != nil {
		return n, fmt.Errorf("--account: %w", err)
	}
	tok, err := antelope.ParseName(*contract)
	if err != nil {
		return n, fmt.Errorf("--token: %w", err)
	}
	transfer := eosiotoken.Actions.Transfer.In(tok)

	// The one handler, and what a fork undoes of what it did.
	type handled struct {
		block uint32
		seq   uint64
	}
	var done []handled // the live transfers handled, for an Undo
	var last uint64    // the global sequence of the last transfer handled
	handle := func(ev ship.ActionEvent[eosiotoken.Transfer]) bool {
		if ev.Trace.GlobalSequence <= last || ev.Data.From != me && ev.Data.To != me {
			return false
		}
		last = ev.Trace.GlobalSequence
		fmt.Fprintf(out, "block %d #%d: %s -> %s %s %q\n", ev.Trace.Block.Num, ev.Trace.GlobalSequence, ev.Data.From, ev.Data.To, ev.Data.Quantity, ev.Data.Memo)
		return true
	}
	undo := func(u *ship.Undo) {
		oldest := u.Blocks[len(u.Blocks)-1].Num
		for len(done) > 0 && done[len(done)-1].block >= oldest {
			d := done[len(done)-1]
			done = done[:len(done)-1]
			fmt.Fprintf(out, "undone: block %d #%d\n", d.block, d.seq)
			n.live--
		}
		last = n.historyLast
		if len(done) > 0 {
			last = done[len(done)-1].seq
		}
	}

	// 1. History, up to a block that is final and indexed.
	h := hyperion.New(*hyperionURL)
	// Final, indexed, and a margin below the last indexed block: Hyperion
	// reports a block indexed before its actions are searchable, and the
	// stream, which has every block, gives the rest. An error when Hyperion
	// cannot reach its node or index: no final block to hand over at.
	// ErrNoHandoff: nothing is old enough yet, so there is no history to
	// read and the stream from the first block misses nothing.
	handoff, err := h.Handoff(ctx, uint32(min(*margin, math.MaxUint32)))
	if err != nil && !errors.Is(err, hyperion.ErrNoHandoff) {
		return n, err
	}
	if handoff > 0 { // ToBlock 0 would be no bound at all
		for ev, err := range hyperion.Actions(ctx, h, transfer, hyperion.ActionFilter{Account: me, ToBlock: handoff}) {
			if err != nil {
				return n, err
			}
			if handle(ev) {
				n.history++
			}
		}
	}
	n.historyLast = last

	// 2. Live from the next block.
	stream := ship.NewClient(*shipURL, shipOpts...).Stream(ctx, ship.Request{Start: handoff + 1, End: uint32(*until)})
	for ev, err := range ship.Actions(stream, transfer) {
		if err != nil {
			return n, err
		}
		if ev.Undo != nil { // never a block history gave: those were final
			undo(ev.Undo)
			continue
		}
		if handle(ev) {
			n.live++
			done = append(done, handled{ev.Trace.Block.Num, ev.Trace.GlobalSequence})
		}
	}
	return n, nil
}
