package chain

import (
	"context"
	"fmt"
)

// page is one answer of a paged endpoint: its items, whether there are
// more, and the node's bound for the next page.
type page[T any] struct {
	items []T
	more  bool
	next  string // the next request's bound, already in the form to send
}

// maxStalls is how many pages in a row may bring no new row before a read
// gives up: a node that keeps answering with rows it has given already (a
// cache ignoring the request, a time limit shorter than one row) is never
// queried without end.
const maxStalls = 3

// errNoProgress stops a read whose node keeps answering with rows it has
// already given.
var errNoProgress = fmt.Errorf("the node returned no new row on %d pages in a row (a cache that ignores the request, or a time limit shorter than one row?)", maxStalls)

// paginate reads every item from bound on, page after page, and calls yield
// for each one once. It works whatever page size the node chooses:
//
//   - nodeos's next key is the key of the first row it did not return, but
//     when its time limit cuts a page short it is the key of the last row it
//     did return, which then starts the next page;
//   - with a secondary index, or scopes holding several tables, many rows
//     share one key, and the next page starts at the first of them, some
//     already returned; when all of a page shares the bound's key the bound
//     cannot advance, so the next request asks for more rows than were
//     returned since it was set.
//
// Rows already returned are recognised by id (by default row bytes and
// payer: two rows of a table never have the same bytes, their primary keys
// differ) among those of the previous pages with the current bound.
//
// When keys are unique (the primary index: past is not nil), a page whose
// next key is the bound holds one row at most, the row at the bound (more
// is an error: rows no node has, which would be read without end); once it
// was returned, past gives the bound just beyond it, so that even a node
// that returns one row per request is read to the end. An empty page
// proves no such thing, and never moves the bound past a key.
//
// A node is not trusted to make progress: every page that brings no new
// row counts, whatever happened to the bound, and maxStalls of them in a
// row end the read with an error; a page of more items than asked for is
// an error. fetch checks what it can of each page (next_key's direction,
// rows within the bounds).
func paginate[T any](ctx context.Context, bound string, pageSize, limit int,
	fetch func(ctx context.Context, bound string, n int) (page[T], error), id func(T) string,
	past func(bound string) (string, bool), yield func(T, error) bool) {
	if pageSize < 1 {
		yield(*new(T), fmt.Errorf("page size %d: a page needs at least one row", pageSize))
		return
	}
	seen := map[string]bool{} // rows returned since the bound last changed, and the page before
	skip := 0                 // rows at the bound's key already returned: the next request asks for that many more
	emitted := 0
	stalls := 0
	atBound := false // the row at the bound's key was returned (unique keys)
	for {
		if err := ctx.Err(); err != nil {
			yield(*new(T), err)
			return
		}
		n := pageSize + skip
		if limit > 0 && limit-emitted+skip < n {
			n = limit - emitted + skip
		}
		p, err := fetch(ctx, bound, n)
		if err == nil && len(p.items) > n {
			err = fmt.Errorf("the node returned %d rows for a limit of %d", len(p.items), n)
		}
		if err != nil {
			yield(*new(T), err)
			return
		}
		fresh := 0
		next := map[string]bool{}
		for _, it := range p.items {
			k := id(it)
			next[k] = true
			if seen[k] {
				continue
			}
			seen[k] = true
			fresh++
			emitted++
			if !yield(it, nil) {
				return
			}
			if limit > 0 && emitted >= limit {
				return
			}
		}
		if !p.more {
			return
		}
		if fresh > 0 {
			stalls = 0
		} else if stalls++; stalls >= maxStalls {
			yield(*new(T), errNoProgress)
			return
		}
		if p.next == bound {
			if past != nil && len(p.items) > 1 {
				// Keys are unique: one row at most has the bound's key,
				// and nodeos's next key is past every other row it
				// returned. Rows it did not make, each page asking for
				// more, would be read without end.
				yield(*new(T), fmt.Errorf("the node returned %d rows with a next key equal to the bound %q of a unique index: rows no node has", len(p.items), bound))
				return
			}
			// No progress: every row of this page has the bound's key. Ask
			// for more next time, remembering all of them.
			skip = len(p.items)
			if len(p.items) > 0 && past != nil && (fresh == 0 || atBound) {
				// The one row at the bound was returned (a second version
				// of it is the row updated meanwhile): move past it.
				nb, ok := past(bound)
				if !ok {
					return // the bound is the last possible key
				}
				bound, skip, atBound = nb, 0, false
				continue
			}
			atBound = len(p.items) > 0
			continue
		}
		// The bound advances: only rows of this page can come again.
		bound, skip, seen, atBound = p.next, 0, next, false
	}
}
