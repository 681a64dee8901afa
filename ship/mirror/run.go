package mirror

import (
	"context"
	"database/sql"

	"github.com/antelopego/abigen/ship"
)

// Progress is where a running mirror stands, after each event.
type Progress struct {
	Block            uint32 // the last block written
	Head             uint32 // the node's head then
	LastIrreversible uint32 // the node's last irreversible block then
	Blocks           int    // blocks written by this Run
	Undone           int    // blocks undone by this Run (forks)
	Rows             int    // the contract's row changes written by this Run, in tables its ABI declares
	Actions          int    // the contract's actions written by this Run (Options.Actions)
}

// Run mirrors from client until req.End, the context's end or an error:
// from the cursor in the database if it has one (req.Start is then
// ignored), else from req.Start. Each event is applied with Apply; progress,
// when not nil, is called after each. A Run stopped at any instant — an
// error, a cancelled context, a killed process — leaves the database at the
// end of its last committed block, and the next Run goes on from there.
// req.FinalOnly is the mirror's Options.FinalOnly; req.Fetch defaults to
// traces and deltas. A Run stopped by its context returns an error that
// wraps the context's (errors.Is(err, context.Canceled)), whatever the
// database driver made of the statement it stopped.
func (m *Mirror) Run(ctx context.Context, client *ship.Client, req ship.Request, progress func(Progress)) error {
	return endedBy(ctx, m.run(ctx, client, req, progress))
}

func (m *Mirror) run(ctx context.Context, client *ship.Client, req ship.Request, progress func(Progress)) error {
	c, err := m.Cursor(ctx)
	if err != nil {
		return err
	}
	if !c.IsZero() {
		req.Cursor = c
	}
	req.FinalOnly = m.opts.FinalOnly
	if req.Fetch == 0 {
		req.Fetch = ship.FetchTraces | ship.FetchDeltas
	}
	var p Progress
	for ev, err := range client.Stream(ctx, req) {
		if err != nil {
			return err
		}
		if err := m.Apply(ctx, ev); err != nil {
			return err
		}
		if ev.Undo != nil {
			p.Undone += len(ev.Undo.Blocks)
			p.Block = ev.Cursor().Last().Num
		} else {
			p.Blocks++
			p.Rows += m.written.rows
			p.Actions += m.written.actions
			p.Block, p.Head, p.LastIrreversible = ev.Block.Num, ev.Block.Head.Num, ev.Block.LastIrreversible.Num
		}
		if progress != nil {
			progress(p)
		}
	}
	return nil
}

// exec runs one statement of a block's transaction.
func (m *Mirror) exec(ctx context.Context, tx *sql.Tx, q string, args ...any) error {
	if err := m.beforeStatement(); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

// beforeStatement is where tests stop a block's transaction between two
// statements, as a crash would.
func (m *Mirror) beforeStatement() error {
	if m.crash != nil {
		return m.crash()
	}
	return nil
}
