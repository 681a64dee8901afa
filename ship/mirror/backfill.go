package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/antelopego/abigen/ship"
)

// BackfillProgress is where a backfill stands, after each block a reader
// wrote.
type BackfillProgress struct {
	Reader int    // which reader wrote the block
	Block  uint32 // the block it wrote
	Left   int    // blocks no reader has written yet
}

// Backfill fills a new database with the final blocks [start, end) read by
// readers state-history connections at once, each streaming its own part
// of the range (irreversible blocks only: no fork can undo them). Each
// reader writes the contract's actions where Run would and its row changes
// to a staging table, each block in one transaction with how far its part
// has come (_mirror_ranges), so a Backfill stopped at any instant and
// called again with the same arguments goes on where each part stopped.
// When every part is done, one transaction keeps each row's last change,
// writes the tables and the cursor of block end−1: Run then goes on from
// there with no gap and no overlap. start 0 is the first block the node
// serves, end 0 the block after its last irreversible one.
//
// A Backfill stopped by its context returns an error that wraps the
// context's (errors.Is(err, context.Canceled)), whatever the database
// driver made of the statement it stopped.
//
// A database that already has a cursor is refused: Backfill fills a new
// one. So is a mirror with Options.Hook: Backfill writes its parts'
// blocks out of order and runs no hook; Run runs it on every block.
func (m *Mirror) Backfill(ctx context.Context, client *ship.Client, start, end uint32, readers int, progress func(BackfillProgress)) error {
	return endedBy(ctx, m.backfill(ctx, client, start, end, readers, progress))
}

func (m *Mirror) backfill(ctx context.Context, client *ship.Client, start, end uint32, readers int, progress func(BackfillProgress)) error {
	if readers < 1 {
		return fmt.Errorf("mirror: backfill with %d readers", readers)
	}
	if m.opts.Hook != nil {
		return errors.New("mirror: Backfill runs no Options.Hook (its parts' blocks are written out of order): the derived tables would miss every block it fills; use Run, which runs the hook in each block's transaction")
	}
	if c, err := m.Cursor(ctx); err != nil {
		return err
	} else if !c.IsZero() {
		return fmt.Errorf("mirror: the database already mirrors up to block %d: Backfill fills a new database; Run goes on from there", c.Last().Num)
	}
	st, err := client.Status(ctx)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if start == 0 {
		start = max(st.TraceBegin, st.ChainStateBegin)
	}
	if end == 0 {
		end = st.LastIrreversible.Num + 1
	}
	if end > st.LastIrreversible.Num+1 {
		return fmt.Errorf("mirror: backfill to block %d: the node's last irreversible block is %d; Run mirrors reversible blocks", end-1, st.LastIrreversible.Num)
	}
	if start >= end {
		return fmt.Errorf("mirror: backfill of blocks [%d, %d): nothing to read", start, end)
	}
	parts, err := m.backfillParts(ctx, start, end, readers)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		left     int
	)
	for _, p := range parts {
		left += int(p.last - p.next)
	}
	claims := &localClaims{taken: map[uint32]bool{}}
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := m.backfillReader(ctx, client, claims, func(num uint32) {
				mu.Lock()
				left--
				l := left
				mu.Unlock()
				if progress != nil {
					progress(BackfillProgress{Reader: i, Block: num, Left: max(l, 0)})
				}
			})
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return m.backfillMerge(ctx, end)
}

// localClaims are the parts this process's readers are reading.
type localClaims struct {
	mu    sync.Mutex
	taken map[uint32]bool
}

// backfillReader reads parts until none is left unread: a part no reader
// holds, here or — on PostgreSQL — in another process. A part another
// process holds is waited for: if that process dies, its claim goes with
// its connection, and the part is taken over from where it stopped.
func (m *Mirror) backfillReader(ctx context.Context, client *ship.Client, claims *localClaims, done func(uint32)) error {
	for {
		p, release, unfinished, err := m.claim(ctx, claims)
		if err != nil {
			return err
		}
		if release == nil {
			if unfinished == 0 {
				return nil
			}
			select { // parts held elsewhere: wait for them to end or be released
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		err = m.backfillPart(ctx, client, p, done)
		release()
		if err != nil {
			return err
		}
	}
}

// claim takes an unread part: in this process, and on PostgreSQL in the
// database, by locking its row of _mirror_claims (FOR UPDATE SKIP LOCKED)
// in a transaction held open on a connection of its own until release, so
// that several processes on several machines share the parts with no
// other coordinator. With no part to take, release is nil and unfinished
// counts the parts still being read elsewhere.
func (m *Mirror) claim(ctx context.Context, claims *localClaims) (p span, release func(), unfinished int, err error) {
	claims.mu.Lock()
	defer claims.mu.Unlock()
	parts, err := m.readParts(ctx, m.db)
	if err != nil {
		return p, nil, 0, err
	}
	for _, q := range parts {
		if q.next >= q.last {
			continue
		}
		unfinished++
		if claims.taken[q.first] {
			continue
		}
		if m.dialect != Postgres {
			p = q
			break
		}
		conn, err := m.db.Conn(ctx)
		if err != nil {
			return p, nil, 0, fmt.Errorf("mirror: %w", err)
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			conn.Close()
			return p, nil, 0, fmt.Errorf("mirror: %w", err)
		}
		var first int64
		err = tx.QueryRowContext(ctx, `SELECT "first" FROM "_mirror_claims" WHERE "mirror" = $1 AND "first" = $2 FOR UPDATE SKIP LOCKED`, m.id, int64(q.first)).Scan(&first)
		if errors.Is(err, sql.ErrNoRows) {
			tx.Rollback()
			conn.Close()
			continue // another process reads it
		}
		if err != nil {
			tx.Rollback()
			conn.Close()
			return p, nil, 0, fmt.Errorf("mirror: claiming blocks from %d: %w", q.first, err)
		}
		// Read again under the claim: the last holder may have gone on.
		var next int64
		if err := tx.QueryRowContext(ctx, `SELECT "next" FROM "_mirror_ranges" WHERE "mirror" = $1 AND "first" = $2`, m.id, int64(q.first)).Scan(&next); err != nil {
			tx.Rollback()
			conn.Close()
			return p, nil, 0, fmt.Errorf("mirror: %w", err)
		}
		q.next = uint32(next)
		claims.taken[q.first] = true
		return q, func() {
			tx.Rollback()
			conn.Close()
			claims.mu.Lock()
			delete(claims.taken, q.first)
			claims.mu.Unlock()
		}, unfinished, nil
	}
	if p.last == 0 {
		return p, nil, unfinished, nil
	}
	claims.taken[p.first] = true
	return p, func() {
		claims.mu.Lock()
		delete(claims.taken, p.first)
		claims.mu.Unlock()
	}, unfinished, nil
}

// readParts lists the parts of the backfill under way.
func (m *Mirror) readParts(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) ([]span, error) {
	rows, err := q.QueryContext(ctx, m.dialect.params(`SELECT "first", "last", "next" FROM "_mirror_ranges" WHERE "mirror" = ? ORDER BY "first"`), m.id)
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	defer rows.Close()
	var parts []span
	for rows.Next() {
		var f, l, x int64
		if err := rows.Scan(&f, &l, &x); err != nil {
			return nil, fmt.Errorf("mirror: %w", err)
		}
		parts = append(parts, span{uint32(f), uint32(l), uint32(x)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	return parts, nil
}

// span is one reader's blocks: [first, last), read up to next.
type span struct {
	first, last, next uint32
}

// backfillParts splits [start, end) in n parts, or finds the parts of a
// backfill under way (begun by this process before, or by another one:
// on PostgreSQL the table is locked while they are made, so two processes
// starting together agree on one split).
func (m *Mirror) backfillParts(ctx context.Context, start, end uint32, n int) ([]span, error) {
	d := m.dialect
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	defer tx.Rollback()
	if d == Postgres {
		if _, err := tx.ExecContext(ctx, `LOCK TABLE "_mirror_ranges" IN EXCLUSIVE MODE`); err != nil {
			return nil, fmt.Errorf("mirror: %w", err)
		}
	}
	parts, err := m.readParts(ctx, tx)
	if err != nil {
		return nil, err
	}
	if len(parts) > 0 {
		if parts[0].first != start || parts[len(parts)-1].last != end {
			return nil, fmt.Errorf("mirror: a backfill of blocks [%d, %d) is under way in this database: finish it with the same range", parts[0].first, parts[len(parts)-1].last)
		}
		return parts, nil
	}
	n = min(n, int(end-start))
	size := (end - start) / uint32(n)
	for i := range n {
		p := span{first: start + uint32(i)*size, last: start + uint32(i+1)*size}
		if i == n-1 {
			p.last = end
		}
		p.next = p.first
		if _, err := tx.ExecContext(ctx, d.params(`INSERT INTO "_mirror_ranges" ("mirror", "first", "last", "next", "cursor") VALUES (?, ?, ?, ?, '')`),
			m.id, int64(p.first), int64(p.last), int64(p.next)); err != nil {
			return nil, fmt.Errorf("mirror: %w", err)
		}
		if _, err := tx.ExecContext(ctx, d.params(`INSERT INTO "_mirror_claims" ("mirror", "first") VALUES (?, ?)`), m.id, int64(p.first)); err != nil {
			return nil, fmt.Errorf("mirror: %w", err)
		}
		parts = append(parts, p)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("mirror: %w", err)
	}
	return parts, nil
}

// backfillPart streams one part, each block in one transaction with the
// part's progress.
func (m *Mirror) backfillPart(ctx context.Context, client *ship.Client, p span, done func(uint32)) error {
	req := ship.Request{Start: p.next, End: p.last, FinalOnly: true, Fetch: ship.FetchTraces | ship.FetchDeltas}
	for ev, err := range client.Stream(ctx, req) {
		if err != nil {
			return err
		}
		if ev.Undo != nil {
			return errors.New("mirror: backfill: the node undid a final block")
		}
		if err := m.stageBlock(ctx, ev, p); err != nil {
			return err
		}
		done(ev.Block.Num)
	}
	return nil
}

func (m *Mirror) stageBlock(ctx context.Context, ev ship.Event, p span) error {
	b := ev.Block
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	defer tx.Rollback()
	if err := m.checkABI(b); err != nil {
		return err
	}
	d := m.dialect
	stage := d.params(`INSERT INTO "_mirror_backfill" ("mirror", "block_num", "seq", "tbl", "code", "scope", "primary_key", "payer", "raw") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	seq := 0
	for rc, err := range b.Rows(ship.OfContract(m.opts.Contract)) {
		if err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
		t := m.schema.byTable[rc.Table]
		if t == nil {
			continue
		}
		var payer, raw any // NULL: the row was removed
		if rc.Present {
			payer, raw = rc.Payer.String(), append([]byte{}, rc.Value...)
		}
		if err := m.exec(ctx, tx, stage, m.id, int64(b.Num), seq, t.ABIName, rc.Code.String(), rc.Scope.String(),
			strconv.FormatUint(rc.PrimaryKey, 10), payer, raw); err != nil {
			return fmt.Errorf("mirror: backfill, block %d: %w", b.Num, err)
		}
		seq++
	}
	if m.opts.Actions {
		if _, err := m.actions(ctx, tx, b); err != nil {
			return err
		}
	}
	cursor, err := ev.Cursor().MarshalText()
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	if err := m.exec(ctx, tx, d.params(`UPDATE "_mirror_ranges" SET "next" = ?, "cursor" = ? WHERE "mirror" = ? AND "first" = ?`),
		int64(b.Num)+1, string(cursor), m.id, int64(p.first)); err != nil {
		return fmt.Errorf("mirror: backfill, block %d: %w", b.Num, err)
	}
	if err := m.beforeStatement(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("mirror: backfill, commit of block %d: %w", b.Num, err)
	}
	return nil
}

// backfillMerge writes each row's last staged change to the tables, and
// the cursor of the last block, in one transaction.
func (m *Mirror) backfillMerge(ctx context.Context, end uint32) error {
	d := m.dialect
	tx, err := m.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("mirror: %w", err)
	}
	defer tx.Rollback()
	if d == Postgres { // one merge: the processes that finish together wait here
		if _, err := tx.ExecContext(ctx, `LOCK TABLE "_mirror_ranges" IN EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("mirror: %w", err)
		}
	}
	var cursor string
	switch err := tx.QueryRowContext(ctx, d.params(`SELECT "cursor" FROM "_mirror_ranges" WHERE "mirror" = ? AND "last" = ?`), m.id, int64(end)).Scan(&cursor); {
	case errors.Is(err, sql.ErrNoRows):
		// Another process merged (and removed the parts): its cursor says so.
		if c, err := m.Cursor(ctx); err != nil || c.Last().Num != end-1 {
			return fmt.Errorf("mirror: backfill: the parts are gone, and the cursor is at %d (%v)", c.Last().Num, err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("mirror: backfill: the last part's cursor: %w", err)
	}
	rows, err := tx.QueryContext(ctx, d.params(`SELECT "tbl", "code", "scope", "primary_key", "payer", "raw" FROM "_mirror_backfill" WHERE "mirror" = ?
		ORDER BY "tbl", "code", "scope", "primary_key", "block_num" DESC, "seq" DESC`), m.id)
	if err != nil {
		return fmt.Errorf("mirror: backfill: %w", err)
	}
	var last []undoEntry // each key's last change
	for rows.Next() {
		var e undoEntry
		if err := rows.Scan(&e.table, &e.code, &e.scope, &e.pk, &e.payer, &e.raw); err != nil {
			rows.Close()
			return fmt.Errorf("mirror: backfill: %w", err)
		}
		if n := len(last); n > 0 && last[n-1].table == e.table && last[n-1].code == e.code && last[n-1].scope == e.scope && last[n-1].pk == e.pk {
			continue
		}
		last = append(last, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("mirror: backfill: %w", err)
	}
	for _, e := range last {
		if err := m.restore(ctx, tx, e); err != nil {
			return fmt.Errorf("mirror: backfill: %w", err)
		}
	}
	for _, q := range []string{`DELETE FROM "_mirror_backfill" WHERE "mirror" = ?`, `DELETE FROM "_mirror_ranges" WHERE "mirror" = ?`, `DELETE FROM "_mirror_claims" WHERE "mirror" = ?`} {
		if err := m.exec(ctx, tx, d.params(q), m.id); err != nil {
			return fmt.Errorf("mirror: backfill: %w", err)
		}
	}
	if err := m.exec(ctx, tx, m.statePS, m.id, m.abiHash, string(m.src.JSON), cursor, int64(end-1), int64(end-1)); err != nil {
		return fmt.Errorf("mirror: backfill: %w", err)
	}
	if err := m.beforeStatement(); err != nil {
		return err
	}
	return tx.Commit()
}
