// Command depositwatch credits the eosio.token transfers an account
// receives, from a nodeos state-history endpoint, into a small state file —
// a whole program on abigen's generated eosio.token bindings and package
// ship, to read top to bottom.
//
//	depositwatch --url ws://127.0.0.1:8080 --account bob --state deposits.json [--start 1000] [--end N]
//
// The state file holds the balances credited and the stream's cursor,
// written together and atomically (a temporary file renamed over it) after
// every block that changed something, and at least every few seconds. A
// depositwatch killed at any point and started again with the same state
// file ends with exactly the balances an uninterrupted run has: the cursor
// resumes after the last block whose credits are in the file, and a fork
// (an Undo) takes back the credits of the blocks it replaced, which the
// file keeps until they are irreversible.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/eosiotoken"
	"github.com/antelopego/abigen/ship"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if crash, err = crashFromEnv(); err != nil {
		fmt.Fprintln(os.Stderr, "depositwatch:", err)
		os.Exit(2)
	}
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "depositwatch:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("depositwatch", flag.ContinueOnError)
	url := fs.String("url", "", "the state-history `endpoint` of a node (nodeos --state-history-endpoint), ws://host:8080")
	account := fs.String("account", "", "the `account` whose deposits to credit")
	contract := fs.String("token", "eosio.token", "the token `contract`")
	statePath := fs.String("state", "deposits.json", "the state `file`: balances and cursor")
	start := fs.Uint("start", 0, "the first `block` of a new state file (default: the first the node serves)")
	end := fs.Uint("end", 0, "stop before this `block` (default: follow the chain)")
	finalOnly := fs.Bool("final-only", false, "irreversible blocks only: no forks, credits later")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" || *account == "" {
		return errors.New("--url and --account are required")
	}
	to, err := antelope.ParseName(*account)
	if err != nil {
		return fmt.Errorf("--account: %w", err)
	}
	token, err := antelope.ParseName(*contract)
	if err != nil {
		return fmt.Errorf("--token: %w", err)
	}
	st, err := load(*statePath, to, token)
	if err != nil {
		return err
	}
	transfer := eosiotoken.Actions.Transfer.In(token)

	client := ship.NewClient(*url, ship.WithLogger(func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "depositwatch: "+format+"\n", args...)
	}))
	req := ship.Request{Start: uint32(*start), End: uint32(*end), Cursor: st.Cursor, FinalOnly: *finalOnly, Fetch: ship.FetchTraces}
	lastSave := time.Now()
	for ev, err := range client.Stream(ctx, req) {
		if err != nil {
			return err
		}
		crash.event++
		changed := false
		if ev.Undo != nil {
			for _, b := range ev.Undo.Blocks {
				changed = st.undo(b.Num) || changed
			}
		} else {
			var credits []antelope.Asset
			for t, err := range ship.Actions(ev.Block, transfer) {
				if err != nil {
					return err // a transfer eosio.token's ABI cannot read: stop rather than miscount
				}
				if t.Data.To == to && t.Data.From != to {
					credits = append(credits, t.Data.Quantity)
					fmt.Fprintf(out, "block %d: %s from %s (%q)\n", ev.Block.Num, t.Data.Quantity, t.Data.From, t.Data.Memo)
				}
			}
			changed = st.credit(ev.Block.Num, ev.Block.LastIrreversible.Num, credits) || changed
		}
		st.Cursor = ev.Cursor()
		crash.reached("handled")
		if changed || time.Since(lastSave) > 5*time.Second {
			if err := st.save(*statePath); err != nil {
				return err
			}
			lastSave = time.Now()
		}
		crash.reached("saved")
	}
	if err := st.save(*statePath); err != nil {
		return err
	}
	for _, b := range st.sortedBalances() {
		fmt.Fprintf(out, "balance: %s\n", b)
	}
	return nil
}
