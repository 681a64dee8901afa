// Command tokenwatch lists an account's token balances and, when asked,
// sends a transfer — a whole program on abigen's generated eosio.token
// bindings and its chain client, to read top to bottom.
//
//	tokenwatch --url https://wax.example.io --account alice
//	TOKENWATCH_KEY=PVT_K1_… tokenwatch --url … --account alice --to bob --amount "1.00000000 WAX" --memo hi
//
// The private key is read from the environment, never from a flag (flags
// end up in shell histories and process lists), and is never printed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/generated/eosiotoken"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tokenwatch:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	fs := flag.NewFlagSet("tokenwatch", flag.ContinueOnError)
	url := fs.String("url", "", "the chain API `URL` of a node")
	account := fs.String("account", "", "the `account` to watch (and to send from)")
	contract := fs.String("token", "eosio.token", "the token `contract`")
	to := fs.String("to", "", "send a transfer to this `account` (needs TOKENWATCH_KEY)")
	amount := fs.String("amount", "", `the transfer's `+"`quantity`"+`, e.g. "1.00000000 WAX"`)
	memo := fs.String("memo", "", "the transfer's memo")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" || *account == "" {
		return errors.New("--url and --account are required")
	}
	me, err := antelope.ParseName(*account)
	if err != nil {
		return fmt.Errorf("--account: %w", err)
	}
	tokenAcct, err := antelope.ParseName(*contract)
	if err != nil {
		return fmt.Errorf("--token: %w", err)
	}
	c := chain.New(*url)
	token := eosiotoken.Contract{Account: tokenAcct}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	if *to != "" {
		key, err := antelope.ParsePrivateKey(getenv("TOKENWATCH_KEY"))
		if err != nil {
			return fmt.Errorf("TOKENWATCH_KEY: %w", err)
		}
		recipient, err := antelope.ParseName(*to)
		if err != nil {
			return fmt.Errorf("--to: %w", err)
		}
		quantity, err := antelope.ParseAsset(*amount)
		if err != nil {
			return fmt.Errorf("--amount: %w", err)
		}
		act, err := token.Transfer(eosiotoken.Transfer{From: me, To: recipient, Quantity: quantity, Memo: *memo}, antelope.Active(me))
		if err != nil {
			return err
		}
		res, err := c.Transact(ctx, key, act)
		if msg, refused := chain.AssertMessage(err); refused {
			return fmt.Errorf("the token contract refused: %s", msg)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "sent %s to %s in transaction %s (block %d)\n", quantity, recipient, res.ID, res.BlockNum)
	}

	// The account's balances: the accounts table, in the account's scope.
	n := 0
	for row, err := range token.TableAccounts().Rows(ctx, c, me) {
		if err != nil {
			return err
		}
		fmt.Fprintln(out, row.Balance)
		n++
	}
	if n == 0 {
		fmt.Fprintf(out, "%s holds no token of %s\n", me, tokenAcct)
	}
	return nil
}
