package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/ship"
	"github.com/antelopego/abigen/ship/mirror"
	"github.com/spf13/pflag"
)

const mirrorUsage = `abigen mirror keeps a contract's tables, and with --actions its actions, in a
SQL database typed from its ABI, from a nodeos state-history endpoint: each
block in one transaction with the stream's cursor, forks undone, resumable
after Ctrl-C or a kill (run the same command again). See docs/mirror.md.

Usage:
  abigen mirror --abi FILE --account NAME --ship ws://HOST:8080 --db sqlite:FILE [flags]
  abigen mirror --abi FILE --account NAME --ship ws://HOST:8080 --db postgres://USER@HOST/DB [flags]
  abigen mirror --abi FILE --account NAME --db sqlite:FILE --schema      print the SQL schema only

--db may instead be given in ABIGEN_MIRROR_DB (keeps a password off the
command line). Start at the contract's deployment (--start) to hold every row:
the mirror sees the rows that change from its first block on.

Exit codes: 0 done (--end reached, or stopped by Ctrl-C after a committed
block), 1 the stream or the database failed, 2 usage error, 3 the ABI cannot
be parsed or is invalid, or is not the one the database mirrors (see --migrate),
or the contract set another ABI on chain (run again with the new ABI and
--migrate), 5 the ABI file cannot be read.

Flags:
`

func runMirror(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// main tunes the collector for a one-shot generator; a mirror runs for
	// days.
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)

	fl := pflag.NewFlagSet("abigen mirror", pflag.ContinueOnError)
	fl.SetOutput(io.Discard)
	abiPath := fl.String("abi", "", "the contract's ABI `file`, in any form abigen --abi reads (\"-\": stdin)")
	account := fl.String("account", "", "the contract `account`")
	shipURL := fl.String("ship", "", "the node's state-history `endpoint`, ws://host:8080")
	dsn := fl.String("db", os.Getenv("ABIGEN_MIRROR_DB"), "the `database`: sqlite:FILE or postgres://… (default $ABIGEN_MIRROR_DB)")
	start := fl.Uint32("start", 0, "the first `block` of a new database (default: the first the node serves)")
	end := fl.Uint32("end", 0, "stop before this `block` (default: follow the chain)")
	finalOnly := fl.Bool("final-only", false, "irreversible blocks only: no undo log, rows later")
	actions := fl.Bool("actions", false, "also keep the contract's actions, one table per action")
	readers := fl.Int("readers", 1, "a new database: read the final blocks from --start with `N` connections at once, then follow")
	migrate := fl.Bool("migrate", false, "take a database made for another ABI of the contract when abidiff finds nothing that breaks its rows: rebuild the changed tables")
	prefix := fl.String("prefix", "", "start every table name with this `prefix`, to mirror several contracts into one database")
	schemaOnly := fl.Bool("schema", false, "print the SQL schema for --db's dialect and exit")
	quiet := fl.BoolP("quiet", "q", false, "no progress lines")
	every := fl.Duration("progress", 5*time.Second, "print progress at this `interval`")
	help := fl.BoolP("help", "h", false, "show this help")
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "abigen mirror: %s\nRun abigen mirror --help for usage.\n", flagError(fl, args, err))
		return exitUsage
	}
	if *help {
		fmt.Fprint(stdout, mirrorUsage, fl.FlagUsages())
		return exitOK
	}
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "abigen mirror: %s\nRun abigen mirror --help for usage.\n", msg)
		return exitUsage
	}
	if fl.NArg() > 0 {
		return usage(fmt.Sprintf("unexpected argument %q", fl.Arg(0)))
	}
	if *readers < 1 {
		return usage(fmt.Sprintf("--readers %d: at least 1", *readers))
	}
	if *end != 0 && *end <= *start {
		// --end is exclusive: no block to mirror.
		return usage(fmt.Sprintf("--end %d is not after --start %d: --end is the block to stop before", *end, *start))
	}
	if *abiPath == "" || *account == "" || *dsn == "" || (*shipURL == "" && !*schemaOnly) {
		return usage("--abi, --account, --db and --ship are required")
	}
	if !*schemaOnly {
		if err := ship.CheckURL(*shipURL); err != nil {
			return usage(fmt.Sprintf("--ship %q: %v", httpcore.RedactRawURL(*shipURL), err))
		}
	}
	contract, err := parseAccount(*account)
	if err != nil {
		return usage(fmt.Sprintf("--account %q: %v", *account, err))
	}
	dialect, err := mirror.DialectOf(*dsn)
	if err != nil {
		return usage(err.Error())
	}
	abi, err := readABI(*abiPath, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
		return exitIO
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *schemaOnly {
		// The dialect is all a schema needs: no database is opened (or,
		// for SQLite, created).
		s, err := mirror.SchemaOf(abi, dialect, mirror.SchemaOptions{Prefix: *prefix, Actions: *actions})
		if err != nil {
			fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
			return exitBadABI
		}
		fmt.Fprint(stdout, strings.Join(s.DDL(), ";\n\n")+";\n")
		return exitOK
	}
	db, _, err := mirror.OpenDB(ctx, *dsn)
	if err != nil {
		fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
		return 1
	}
	defer db.Close()
	opts := mirror.Options{Contract: contract, Prefix: *prefix, Actions: *actions, FinalOnly: *finalOnly, Migrate: *migrate}
	m, err := mirror.Open(ctx, db, dialect, abi, opts)
	if err != nil {
		fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
		if errors.Is(err, mirror.ErrABIChanged) || errors.Is(err, mirror.ErrInvalidABI) {
			return exitBadABI
		}
		return 1
	}
	client := ship.NewClient(*shipURL, ship.WithLogger(func(format string, args ...any) {
		fmt.Fprintf(stderr, "abigen mirror: "+format+"\n", args...)
	}))
	c, err := m.Cursor(ctx)
	switch {
	case err != nil:
	case !c.IsZero():
		if !*quiet {
			fmt.Fprintf(stderr, "abigen mirror: resuming after block %d\n", c.Last().Num)
		}
	case *readers > 1:
		err = backfill(ctx, m, client, *start, *end, *readers, *quiet, *every, stderr)
	}
	if err == nil {
		rep := &progressReporter{w: stderr, every: *every, quiet: *quiet, actions: *actions, last: time.Now()}
		err = m.Run(ctx, client, ship.Request{Start: *start, End: *end}, rep.report)
		rep.flush()
		rep.noteNothingOf(contract)
	}
	return mirrorExit(ctx, err, stderr)
}

// mirrorExit is the exit code of a mirror command that ended with err,
// its message written to stderr.
func mirrorExit(ctx context.Context, err error, stderr io.Writer) int {
	switch {
	case errors.Is(err, mirror.ErrABIChangedOnChain):
		// First: a Run stopped by a signal says so of any error it returns
		// then (mirror's endedBy), and this one is not the signal's.
		fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
		return exitBadABI
	case err == nil, ctx.Err() != nil && errors.Is(err, context.Canceled):
		return exitOK
	}
	fmt.Fprintf(stderr, "abigen mirror: %v\n", err)
	return 1
}

// backfill fills a new database with the final blocks from start (up to
// end, or the node's last irreversible block) over readers connections.
func backfill(ctx context.Context, m *mirror.Mirror, client *ship.Client, start, end uint32, readers int, quiet bool, every time.Duration, stderr io.Writer) error {
	st, err := client.Status(ctx)
	if err != nil {
		return err
	}
	last := st.LastIrreversible.Num + 1
	if end != 0 {
		last = min(last, end)
	}
	if start == 0 || start >= last {
		return nil // nothing final to split: Run reads it all
	}
	if !quiet {
		fmt.Fprintf(stderr, "abigen mirror: backfill of blocks %d to %d with %d readers\n", start, last-1, readers)
	}
	t0, lastLine := time.Now(), time.Now()
	var mu sync.Mutex
	err = m.Backfill(ctx, client, start, last, readers, func(p mirror.BackfillProgress) {
		mu.Lock()
		defer mu.Unlock()
		if !quiet && time.Since(lastLine) >= every {
			done := int(last-start) - p.Left
			fmt.Fprintf(stderr, "abigen mirror: backfill: %d of %d blocks; %.1f blocks/s\n", done, last-start, float64(done)/time.Since(t0).Seconds())
			lastLine = time.Now()
		}
	})
	if err == nil && !quiet {
		fmt.Fprintf(stderr, "abigen mirror: backfill done in %s\n", time.Since(t0).Round(time.Millisecond))
	}
	return err
}

// readABI reads --abi: a file, or stdin for "-".
func readABI(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(path)
}

// progressReporter prints a line every interval: where the mirror is, how
// far behind the head, and how fast it goes.
type progressReporter struct {
	w       io.Writer
	every   time.Duration
	quiet   bool
	actions bool // --actions: actions are counted too
	last    time.Time
	blocks  int    // at the last line
	first   uint32 // the first block written
	p       mirror.Progress
}

func (r *progressReporter) report(p mirror.Progress) {
	if r.first == 0 && p.Blocks > 0 {
		r.first = p.Block
	}
	r.p = p
	if !r.quiet && time.Since(r.last) >= r.every {
		r.flush()
	}
}

func (r *progressReporter) flush() {
	if r.quiet || r.p.Blocks == 0 && r.p.Undone == 0 {
		return
	}
	elapsed := time.Since(r.last).Seconds()
	rate := float64(r.p.Blocks-r.blocks) / max(elapsed, 1e-9)
	written := fmt.Sprintf("%d row changes", r.p.Rows)
	if r.actions {
		written += fmt.Sprintf(", %d actions", r.p.Actions)
	}
	fmt.Fprintf(r.w, "abigen mirror: block %d, %d behind the head (%d), irreversible %d; %.1f blocks/s; %d blocks written (%s), %d undone\n",
		r.p.Block, int64(r.p.Head)-int64(r.p.Block), r.p.Head, r.p.LastIrreversible, rate, r.p.Blocks, written, r.p.Undone)
	r.last, r.blocks = time.Now(), r.p.Blocks
}

// noteNothingOf says when the blocks written held nothing of the contract:
// a misspelt --account mirrors nothing, block after block, without error.
func (r *progressReporter) noteNothingOf(contract antelope.Name) {
	if r.quiet || r.p.Blocks == 0 || r.p.Rows > 0 || r.p.Actions > 0 {
		return
	}
	fmt.Fprintf(r.w, "abigen mirror: no row change or action of %s in blocks %d to %d: is --account the contract's account?\n",
		contract, r.first, r.p.Block)
}
