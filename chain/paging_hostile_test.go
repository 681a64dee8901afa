package chain_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/chaintest"
)

// The paging cases of issue #20: a read through a broken or hostile node
// ends — with every row once, or with an error — never without end, and
// never with a row lost or repeated silently.

// pagedKey is the primary key of a paged row (its first field).
func pagedKey(row []byte) (antelope.TableKey, error) {
	if len(row) < 8 {
		return antelope.TableKey{}, errors.New("short row")
	}
	return antelope.KeyUint64(binary.LittleEndian.Uint64(row)), nil
}

// readBounded reads q from c's node with a deadline and a cap on the rows
// taken, so that a read that would never end fails instead of hanging. It
// returns the rows, the error that ended the read, and the requests made.
func readBounded(t *testing.T, c *chaintest.Chain, r antelope.TableReader, q antelope.TableQuery) ([][]byte, int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	before := c.Stats().Requests
	var rows [][]byte
	var last error
	for row, err := range r.TableRows(ctx, q) {
		if err != nil {
			last = err
			break
		}
		if rows = append(rows, row.Data); len(rows) > 10_000 {
			last = errors.New("test: more than 10,000 rows")
			break
		}
	}
	return rows, c.Stats().Requests - before, last
}

// noRepeats fails on a row returned twice.
func noRepeats(t *testing.T, what string, rows [][]byte) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[string(r)] {
			t.Errorf("%s: row %x returned twice", what, r)
			return
		}
		seen[string(r)] = true
	}
}

// A cache that serves the first page forever: the read ends with an error
// after a few requests, every row it returned once.
func TestPagingSamePageForever(t *testing.T) {
	c, _ := pagedChain(t, 20)
	for _, index := range []int{1, 2} {
		for _, reverse := range []bool{false, true} {
			what := fmt.Sprintf("index %d reverse %v", index, reverse)
			c.Misbehave(chaintest.SamePage, -1)
			q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, Index: index, PageSize: 3, Reverse: reverse}
			if index == 2 {
				q.KeyType = antelope.IndexI64
			}
			rows, requests, err := readBounded(t, c, c.Client(), q)
			c.Misbehave(chaintest.SamePage, 0)
			if err == nil || requests > 6 {
				t.Errorf("%s: %d requests, %v", what, requests, err)
			}
			if len(rows) != 3 {
				t.Errorf("%s: %d rows", what, len(rows))
			}
			noRepeats(t, what, rows)
		}
	}
	c.SetTableRow(paged, antelope.MustName("other"), pagedTable, 1, []byte{1}, paged)
	c.SetTableRow(paged, antelope.MustName("third"), pagedTable, 1, []byte{1}, paged)
	c.Misbehave(chaintest.SamePage, -1)
	defer c.Misbehave(chaintest.SamePage, 0)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	before := c.Stats().Requests
	var err error
	for _, err = range c.Client().Scopes(ctx, chain.ScopeQuery{Code: paged, PageSize: 1}) {
		if err != nil {
			break
		}
	}
	if requests := c.Stats().Requests - before; err == nil || requests > 6 {
		t.Errorf("scopes: %d requests, %v", requests, err)
	}
}

// A next_key that goes backwards is an error naming it, forward and in
// reverse, for rows and for scopes.
func TestPagingNextKeyBackward(t *testing.T) {
	c, _ := pagedChain(t, 20, chaintest.WithPageSize(4))
	for _, index := range []int{1, 2} {
		for _, reverse := range []bool{false, true} {
			what := fmt.Sprintf("index %d reverse %v", index, reverse)
			c.Misbehave(chaintest.NextKeyBackward, -1)
			q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, Index: index, PageSize: 5, Reverse: reverse}
			if index == 2 {
				q.KeyType = antelope.IndexI64
			}
			rows, requests, err := readBounded(t, c, c.Client(), q)
			c.Misbehave(chaintest.NextKeyBackward, 0)
			if err == nil || !strings.Contains(err.Error(), "next_key") || !strings.Contains(err.Error(), "backwards") || requests > 3 {
				t.Errorf("%s: %d requests, %v", what, requests, err)
			}
			noRepeats(t, what, rows)
		}
	}
	// Scopes of one table each (a row with secondary keys adds its index
	// tables to the scope, as nodeos lists them).
	c = chaintest.New()
	t.Cleanup(c.Close)
	if err := c.SetContract(paged, []byte(pagedABI), nil); err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		c.SetTableRow(paged, antelope.Name(uint64(i+1)<<60), pagedTable, 1, []byte{1}, paged)
	}
	for _, reverse := range []bool{false, true} {
		c.Misbehave(chaintest.NextKeyBackward, -1)
		var err error
		n := 0
		for _, err = range c.Client().Scopes(t.Context(), chain.ScopeQuery{Code: paged, PageSize: 2, Reverse: reverse}) {
			if err != nil || n > 100 {
				break
			}
			n++
		}
		c.Misbehave(chaintest.NextKeyBackward, 0)
		if err == nil || !strings.Contains(err.Error(), "backwards") {
			t.Errorf("scopes, reverse %v: %v after %d scopes", reverse, err, n)
		}
	}
}

// An empty page with more and next_key at the bound (nodeos's time limit
// striking before the first row) is read again, not stepped past: no row
// is dropped. A node that answers so forever is an error.
func TestPagingEmptyPage(t *testing.T) {
	c, rows := pagedChain(t, 30)
	for _, reverse := range []bool{false, true} {
		q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, PageSize: 4, Reverse: reverse,
			Lower: antelope.KeyUint64(rows[5].pk), Upper: antelope.KeyUint64(rows[25].pk)}
		c.Misbehave(chaintest.EmptyPage, 1)
		got, _, err := readBounded(t, c, c.Client(), q)
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, fmt.Sprintf("one empty page, reverse %v", reverse), got, expected(rows, q))
		c.Misbehave(chaintest.EmptyPage, -1)
		got, requests, err := readBounded(t, c, c.Client(), q)
		c.Misbehave(chaintest.EmptyPage, 0)
		if err == nil || len(got) != 0 || requests > 4 {
			t.Errorf("empty pages forever, reverse %v: %d rows, %d requests, %v", reverse, len(got), requests, err)
		}
	}
}

// A page size of 0 is refused, not read as 41 empty pages.
func TestPagingZeroPageSize(t *testing.T) {
	c, _ := pagedChain(t, 5)
	for i, cl := range []*chain.Client{c.Client(chain.WithPageSize(0)), c.Client()} {
		q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable}
		if i == 1 {
			q.PageSize = -1
		}
		_, requests, err := readBounded(t, c, cl, q)
		if err == nil || !strings.Contains(err.Error(), "page size") || requests != 0 {
			t.Errorf("%d requests, %v", requests, err)
		}
	}
	var err error
	for _, err = range c.Client(chain.WithPageSize(0)).Scopes(t.Context(), chain.ScopeQuery{Code: paged}) {
		break
	}
	if err == nil || !strings.Contains(err.Error(), "page size") {
		t.Errorf("scopes: %v", err)
	}
}

// Rows outside the bounds asked for (with TableQuery.Key to see them), or
// more rows than the limit, are an error, not data.
func TestPagingRowsOutOfBounds(t *testing.T) {
	c, rows := pagedChain(t, 30)
	for _, reverse := range []bool{false, true} {
		q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, PageSize: 4, Reverse: reverse,
			Lower: antelope.KeyUint64(rows[5].pk), Upper: antelope.KeyUint64(rows[25].pk), Key: pagedKey}
		sameRows(t, "with Key, an honest node", readAll(t, c.Client(), q), expected(rows, q))
		c.Misbehave(chaintest.RowsOutOfBounds, -1)
		got, _, err := readBounded(t, c, c.Client(), q)
		c.Misbehave(chaintest.RowsOutOfBounds, 0)
		if err == nil || !strings.Contains(err.Error(), "outside the bounds") || len(got) != 0 {
			t.Errorf("out of bounds, reverse %v: %d rows, %v", reverse, len(got), err)
		}
		q.Key = nil
		c.Misbehave(chaintest.RowsOverLimit, -1)
		got, _, err = readBounded(t, c, c.Client(), q)
		c.Misbehave(chaintest.RowsOverLimit, 0)
		if err == nil || !strings.Contains(err.Error(), "for a limit of 4") || len(got) != 0 {
			t.Errorf("over the limit, reverse %v: %d rows, %v", reverse, len(got), err)
		}
	}
}

// A scope whose row count changes between two pages is listed once:
// scopes are (code, scope, table), not their whole JSON.
func TestScopesCountChangesBetweenPages(t *testing.T) {
	c := chaintest.New(chaintest.WithPageSize(2))
	t.Cleanup(c.Close)
	if err := c.SetContract(paged, []byte(pagedABI), nil); err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		c.SetTableRow(paged, antelope.Name(uint64(i+1)<<59), pagedTable, 1, []byte{1}, paged)
	}
	var got []antelope.Name
	for s, err := range c.Client().Scopes(t.Context(), chain.ScopeQuery{Code: paged, Table: pagedTable, PageSize: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.Scope)
		// Every scope gains a row while it is read; the page cut by the
		// time limit repeats the last one, with a new count.
		c.SetTableRow(paged, s.Scope, pagedTable, uint64(len(got)+1), []byte{2}, paged)
	}
	if len(got) != 7 {
		t.Errorf("%d scopes listed: %v", len(got), got)
	}
}

// With TableQuery.Key, a primary-index row updated between the page that
// returned it and the next one (which starts with it again, nodeos's
// time-limit quirk) is returned once. Without Key rows are known by their
// bytes, and the updated row comes twice — as the README says.
func TestPagingRowUpdatedAtBoundary(t *testing.T) {
	for _, withKey := range []bool{true, false} {
		c, rows := pagedChain(t, 12, chaintest.WithPageSize(3))
		q := antelope.TableQuery{Code: paged, Scope: paged, Table: pagedTable, PageSize: 10}
		if withKey {
			q.Key = pagedKey
		}
		n := 0
		for row, err := range c.Client().TableRows(t.Context(), q) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			// The row just returned changes: its value grows a byte.
			k, _ := pagedKey(row.Data)
			c.SetTableRow(paged, paged, pagedTable, k.Uint64(), append(row.Data[:8:8], byte(n)), paged)
		}
		switch {
		case withKey && n != len(rows):
			t.Errorf("with Key: %d rows of %d", n, len(rows))
		case !withKey && n <= len(rows):
			t.Errorf("without Key: %d rows of %d; the README says an updated row can come twice", n, len(rows))
		}
	}
}
