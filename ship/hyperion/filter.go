package hyperion

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Order is the order items come in.
type Order uint8

// The orders.
const (
	Asc  Order = iota // oldest first (the default)
	Desc              // newest first
)

// ActionFilter says which actions Client.Actions and Actions read.
// Everything is optional; the ranges are inclusive.
type ActionFilter struct {
	// Account keeps the actions that notified the account or that it
	// authorized (Hyperion's account=).
	Account antelope.Name
	// Contract and Action keep the actions of one contract (act.account)
	// and name (Hyperion's filter=contract:action).
	Contract, Action antelope.Name
	// FromBlock and ToBlock bound the block numbers (0: open).
	FromBlock, ToBlock uint32
	// After and Before bound the block times (zero: open). They cannot be
	// combined with a block range: Hyperion reads one pair.
	After, Before time.Time
	// FromSequence and ToSequence bound the global sequence, inclusive (0:
	// open): the last action handled plus one resumes after it.
	FromSequence, ToSequence uint64
	// Params are more of Hyperion's filters, sent as they are:
	// act.authorization.actor, @transfer.to, receipts.receiver, …
	Params url.Values
	// Order is the order of the items (Asc by default).
	Order Order
}

// DeltaFilter says which table row changes Client.Deltas and Rows read.
type DeltaFilter struct {
	Code, Scope, Table, Payer antelope.Name // 0: any
	// PrimaryKey keeps one row (with HasPrimaryKey).
	PrimaryKey    uint64
	HasPrimaryKey bool // PrimaryKey is set
	// FromBlock and ToBlock bound the block numbers (0: open). Deltas are
	// paged by block, so a delta filter has no time range.
	FromBlock, ToBlock uint32
	Params             url.Values // more of Hyperion's filters, sent as they are
	Order              Order      // the order of the items (Asc by default)
}

// maxSequence is the largest global sequence Elasticsearch's long holds.
const maxSequence = 1<<63 - 1

// isoTime is Hyperion's time format for after and before.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// timeOrBlocks adds after and before: times, or block numbers.
func timeOrBlocks(q url.Values, fromBlock, toBlock uint32, after, before time.Time) error {
	if (fromBlock > 0 || toBlock > 0) && (!after.IsZero() || !before.IsZero()) {
		return fmt.Errorf("hyperion: a filter has both a block range and a time range; Hyperion reads one (after/before)")
	}
	if fromBlock > 0 && toBlock > 0 && fromBlock > toBlock || !after.IsZero() && !before.IsZero() && after.After(before) {
		return fmt.Errorf("hyperion: a filter's range ends before it begins")
	}
	switch {
	case !after.IsZero() || !before.IsZero():
		if !after.IsZero() {
			q.Set("after", isoTime(after))
		}
		if !before.IsZero() {
			q.Set("before", isoTime(before))
		}
	default:
		// sort=asc needs a bound in 4.x: block 1 is no restriction.
		q.Set("after", strconv.FormatUint(uint64(max(fromBlock, 1)), 10))
		if toBlock > 0 {
			q.Set("before", strconv.FormatUint(uint64(toBlock), 10))
		}
	}
	return nil
}

// reserved are the parameters the client sets itself, or that change
// what an answer holds (noBinary cuts long strings in the data, simple
// drops everything typed items need).
var reserved = []string{"limit", "skip", "sort", "sortedBy", "after", "before", "global_sequence", "noBinary", "simple", "filter", "account"}

func checkParams(p url.Values) error {
	for _, k := range reserved {
		if _, ok := p[k]; ok {
			return fmt.Errorf("hyperion: Params may not set %q: the filter's fields say it, or it changes the answer's data", k)
		}
	}
	return nil
}

func (f *ActionFilter) params() (url.Values, error) {
	if err := checkParams(f.Params); err != nil {
		return nil, err
	}
	q := url.Values{}
	for k, v := range f.Params {
		q[k] = append([]string(nil), v...)
	}
	if f.Account != 0 {
		q.Set("account", f.Account.String())
	}
	if f.Contract != 0 || f.Action != 0 {
		c, a := "*", "*"
		if f.Contract != 0 {
			c = f.Contract.String()
		}
		if f.Action != 0 {
			a = f.Action.String()
		}
		q.Set("filter", c+":"+a)
	}
	if f.ToSequence != 0 && f.FromSequence > f.ToSequence {
		return nil, fmt.Errorf("hyperion: a filter's sequence range ends before it begins")
	}
	if f.FromSequence > maxSequence || f.ToSequence > maxSequence {
		return nil, fmt.Errorf("hyperion: a global sequence above 2^63-1 cannot be asked for")
	}
	if err := timeOrBlocks(q, f.FromBlock, f.ToBlock, f.After, f.Before); err != nil {
		return nil, err
	}
	if f.Order == Desc {
		q.Set("sort", "desc")
	} else {
		q.Set("sort", "asc")
	}
	return q, nil
}

func (f *DeltaFilter) params() (url.Values, error) {
	if err := checkParams(f.Params); err != nil {
		return nil, err
	}
	q := url.Values{}
	for k, v := range f.Params {
		q[k] = append([]string(nil), v...)
	}
	for _, p := range []struct {
		key string
		n   antelope.Name
	}{{"code", f.Code}, {"scope", f.Scope}, {"table", f.Table}, {"payer", f.Payer}} {
		if p.n != 0 {
			q.Set(p.key, p.n.String())
		}
	}
	if f.HasPrimaryKey {
		q.Set("primary_key", strconv.FormatUint(f.PrimaryKey, 10))
	}
	if f.FromBlock > 0 && f.ToBlock > 0 && f.FromBlock > f.ToBlock {
		return nil, fmt.Errorf("hyperion: a filter's range ends before it begins")
	}
	if f.Order == Desc {
		q.Set("sort", "desc")
	} else {
		q.Set("sort", "asc")
	}
	return q, nil
}

// keeps reports whether d is what f asked for: a node answering another
// table's rows misbehaves.
func (f *DeltaFilter) keeps(d *Delta) bool {
	return (f.Code == 0 || d.Code == f.Code) && (f.Table == 0 || d.Table == f.Table) &&
		(f.Scope == 0 || d.Scope == f.Scope) && (f.Payer == 0 || d.Payer == f.Payer) &&
		(!f.HasPrimaryKey || d.PrimaryKey == f.PrimaryKey)
}

func (f *ActionFilter) keeps(a *Action) bool {
	return (f.Contract == 0 || a.Contract == f.Contract) && (f.Action == 0 || a.Name == f.Action)
}
