package hyperion

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"strconv"
)

// Actions yields the actions f describes, every one exactly once while the
// index grows: it pages by global sequence, not by skip. A request that
// fails, or a node that misbehaves (*MisbehaviorError), ends the sequence
// with its error; so does a ToBlock past the node's last indexed block
// (*BehindError), once every indexed action was yielded. The sequence
// ends at a page with nothing more, one request past the last action.
func (c *Client) Actions(ctx context.Context, f ActionFilter) iter.Seq2[Action, error] {
	return func(yield func(Action, error) bool) {
		base, err := f.params()
		if err != nil {
			yield(Action{}, err)
			return
		}
		lo, hi := f.FromSequence, f.ToSequence
		if hi == 0 {
			hi = maxSequence
		}
		size := c.pageSize
		var last uint64 // the last sequence yielded; 0 before the first
		for lo <= hi {
			q := cloneValues(base)
			q.Set("global_sequence", strconv.FormatUint(lo, 10)+"-"+strconv.FormatUint(hi, 10))
			q.Set("limit", strconv.Itoa(size))
			page, err := c.GetActions(ctx, q)
			if n, ok := smallerLimit(err, size); ok {
				size = n
				continue
			}
			if err != nil {
				yield(Action{}, err)
				return
			}
			if err := checkActions(&f, page.Actions, size, lo, hi, last); err != nil {
				yield(Action{}, err)
				return
			}
			for _, a := range page.Actions {
				last = a.GlobalSequence
				if !yield(a, nil) {
					return
				}
			}
			// Only an empty page is the last: Hyperion searches with a
			// timeout (api.query_timeout) and answers a search that timed
			// out with what it found so far, without saying so.
			if len(page.Actions) == 0 {
				if f.ToBlock > 0 && page.LastIndexedBlock > 0 && page.LastIndexedBlock < f.ToBlock {
					yield(Action{}, &BehindError{Route: "get_actions", LastIndexed: page.LastIndexedBlock, Wanted: f.ToBlock})
				}
				return
			}
			if f.Order == Desc {
				if last == 0 {
					return
				}
				hi = last - 1
			} else {
				lo = last + 1
			}
		}
	}
}

// smallerLimit reads a refusal of the page size ("limit too big, maximum:
// N") and returns the node's maximum.
func smallerLimit(err error, size int) (int, bool) {
	var he *Error
	if errors.As(err, &he) && he.MaxLimit > 0 && he.MaxLimit < size {
		return he.MaxLimit, true
	}
	return 0, false
}

func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v)+2)
	for k, s := range v {
		out[k] = s
	}
	return out
}

// checkActions checks a page against what was asked: at most size
// actions, strictly in the order asked, within [lo, hi], after the last
// one yielded, and of the contract and action filtered on.
func checkActions(f *ActionFilter, acts []Action, size int, lo, hi, last uint64) error {
	bad := func(format string, args ...any) error {
		return &MisbehaviorError{Route: "get_actions", Reason: fmt.Sprintf(format, args...)}
	}
	if len(acts) > size {
		return bad("%d actions for a limit of %d", len(acts), size)
	}
	prev := last
	for i := range acts {
		a := &acts[i]
		s := a.GlobalSequence
		switch {
		case s < lo || s > hi:
			return bad("global sequence %d outside the range %d-%d asked", s, lo, hi)
		case prev != 0 && f.Order == Asc && s <= prev:
			return bad("global sequence %d after %d in ascending order: a page repeated or went backwards", s, prev)
		case prev != 0 && f.Order == Desc && s >= prev:
			return bad("global sequence %d after %d in descending order: a page repeated or went backwards", s, prev)
		case !f.keeps(a):
			return bad("%s::%s at global sequence %d does not match the filter", a.Contract, a.Name, s)
		case f.FromBlock > 0 && a.BlockNum < f.FromBlock, f.ToBlock > 0 && a.BlockNum > f.ToBlock:
			return bad("block %d outside the range asked", a.BlockNum)
		}
		prev = s
	}
	return nil
}

// deltaKey identifies a row within a block: state history changes a row
// at most once per block.
type deltaKey struct {
	code, scope, table uint64
	pk                 uint64
}

func keyOf(d *Delta) deltaKey {
	return deltaKey{uint64(d.Code), uint64(d.Scope), uint64(d.Table), d.PrimaryKey}
}

// Deltas yields the table row changes f describes, every one exactly once
// while the index grows. Hyperion sorts deltas by block only, so the rows
// of a page's last block are asked again with the next page and
// deduplicated by key (a row changes once per block); a block with more
// rows than a page is read with skip within that block alone, which is
// exact only if the node orders a block's rows the same way each time
// (Elasticsearch does for an index that is not being merged): a page size
// above the rows of any one block avoids relying on it. A node may send
// fewer rows than asked without being done (it caps the limit silently),
// so the sequence ends at an empty page.
func (c *Client) Deltas(ctx context.Context, f DeltaFilter) iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) {
		base, err := f.params()
		if err != nil {
			yield(Delta{}, err)
			return
		}
		from, to := max(f.FromBlock, 1), f.ToBlock
		if to == 0 {
			to = ^uint32(0)
		}
		size := c.pageSize
		seen := map[deltaKey]bool{} // rows yielded of the block at the open end
		edge := uint32(0)           // the block seen is about
		skip := 0                   // within one block whose rows fill pages
		idle := 0                   // full pages in a row that gave nothing new
		for from <= to {
			q := cloneValues(base)
			lo, hi := from, to
			if skip > 0 {
				if f.Order == Desc {
					lo = hi
				} else {
					hi = lo
				}
				q.Set("skip", strconv.Itoa(skip))
			}
			q.Set("after", strconv.FormatUint(uint64(lo), 10))
			if hi != ^uint32(0) {
				q.Set("before", strconv.FormatUint(uint64(hi), 10))
			} else {
				q.Del("before")
			}
			q.Set("limit", strconv.Itoa(size))
			page, err := c.GetDeltas(ctx, q)
			if n, ok := smallerLimit(err, size); ok {
				size, skip = n, 0
				continue
			}
			if err != nil {
				yield(Delta{}, err)
				return
			}
			ds := page.Deltas
			if skip > 0 && len(ds) > 0 && ds[0].BlockNum != lo {
				yield(Delta{}, &MisbehaviorError{Route: "get_deltas", Reason: fmt.Sprintf("block %d for a request of block %d alone", ds[0].BlockNum, lo)})
				return
			}
			if err := checkDeltas(&f, ds, size, lo, hi); err != nil {
				yield(Delta{}, err)
				return
			}
			// Hyperion's get_deltas answers a limit above its maximum
			// with that maximum and no error, so a short page may not be
			// the last: only an empty one is. The block at the far end of
			// a page may go on in the next: keep its rows for the next
			// request, unless the whole page is that block.
			full := len(ds) > 0
			end := uint32(0)
			if full {
				end = ds[len(ds)-1].BlockNum
			}
			single := full && ds[0].BlockNum == end
			fresh := 0
			for i := range ds {
				d := &ds[i]
				if full && !single && d.BlockNum == end {
					break
				}
				if d.BlockNum != edge {
					edge, seen = d.BlockNum, map[deltaKey]bool{}
				}
				k := keyOf(d)
				if seen[k] {
					continue
				}
				seen[k] = true
				fresh++
				if !yield(*d, nil) {
					return
				}
			}
			if fresh == 0 && full {
				if idle++; idle > 3 {
					yield(Delta{}, &MisbehaviorError{Route: "get_deltas", Reason: "pages with nothing new"})
					return
				}
			} else {
				idle = 0
			}
			switch {
			case !full:
				if skip == 0 {
					if f.ToBlock > 0 && page.LastIndexedBlock > 0 && page.LastIndexedBlock < f.ToBlock {
						yield(Delta{}, &BehindError{Route: "get_deltas", LastIndexed: page.LastIndexedBlock, Wanted: f.ToBlock})
					}
					return
				}
				// The end of a crowded block: go on after it.
				skip = 0
				if !step(&from, &to, end0(lo, hi, f.Order), f.Order) {
					return
				}
			case single:
				// Read that block alone, page by page.
				if f.Order == Desc {
					to = end
				} else {
					from = end
				}
				if skip > 0 && fresh == 0 {
					yield(Delta{}, &MisbehaviorError{Route: "get_deltas", Reason: fmt.Sprintf("the same rows of block %d again at skip %d", end, skip)})
					return
				}
				skip += len(ds)
			default:
				skip = 0
				if f.Order == Desc {
					to = end
				} else {
					from = end
				}
			}
		}
	}
}

// end0 is the block a skip-paged request was about.
func end0(lo, hi uint32, o Order) uint32 {
	if o == Desc {
		return hi
	}
	return lo
}

// step moves the open end past block b; false when the range is done.
func step(from, to *uint32, b uint32, o Order) bool {
	if o == Desc {
		if b == 0 || b-1 < *from {
			return false
		}
		*to = b - 1
		return true
	}
	if b == ^uint32(0) || b+1 > *to {
		return false
	}
	*from = b + 1
	return true
}

// checkDeltas checks a page against what was asked.
func checkDeltas(f *DeltaFilter, ds []Delta, size int, lo, hi uint32) error {
	bad := func(format string, args ...any) error {
		return &MisbehaviorError{Route: "get_deltas", Reason: fmt.Sprintf(format, args...)}
	}
	if len(ds) > size {
		return bad("%d deltas for a limit of %d", len(ds), size)
	}
	for i := range ds {
		d := &ds[i]
		if d.BlockNum < lo || d.BlockNum > hi {
			return bad("block %d outside the range %d-%d asked", d.BlockNum, lo, hi)
		}
		if i > 0 && (f.Order == Asc && d.BlockNum < ds[i-1].BlockNum || f.Order == Desc && d.BlockNum > ds[i-1].BlockNum) {
			return bad("block %d after block %d: out of the order asked", d.BlockNum, ds[i-1].BlockNum)
		}
		if !f.keeps(d) {
			return bad("a row of %s %s %s does not match the filter", d.Code, d.Scope, d.Table)
		}
	}
	return nil
}
