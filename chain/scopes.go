package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// TableScope is one (scope, table) of a contract, as get_table_by_scope
// lists them.
type TableScope struct {
	Code  antelope.Name `json:"code"`  // the contract
	Scope antelope.Name `json:"scope"` // the scope
	Table antelope.Name `json:"table"` // the table
	Payer antelope.Name `json:"payer"` // the RAM payer of the table in that scope
	Count uint32        `json:"count"` // rows in that table and scope
}

// ScopeQuery selects the scopes of a contract's tables.
type ScopeQuery struct {
	Code  antelope.Name // the contract
	Table antelope.Name // 0: every table
	// Lower and Upper bound the scope, inclusive; zero leaves that end open
	// (a zero Upper is no bound, not scope 0).
	Lower, Upper antelope.Name
	HasUpper     bool // Upper is set (scope 0 is a valid upper bound)
	Reverse      bool // highest scope first
	Limit        int  // the most scopes to return; 0: all
	PageSize     int  // per request; 0: the client's page size
}

type scopeRequest struct {
	Code       string `json:"code"`
	Table      string `json:"table"`
	LowerBound string `json:"lower_bound,omitempty"`
	UpperBound string `json:"upper_bound,omitempty"`
	Limit      int    `json:"limit"`
	Reverse    bool   `json:"reverse"`
}

// scopeBound is how a scope is sent as a bound: its 64-bit value in
// decimal, which nodeos reads before trying a name (so a numeric name like
// "12345" is not taken for a number).
func scopeBound(n antelope.Name) string { return strconv.FormatUint(uint64(n), 10) }

// GetTableByScope reads one page of get_table_by_scope. more is the next
// scope as nodeos prints it (a name), or "" at the end.
func (c *Client) GetTableByScope(ctx context.Context, q ScopeQuery, limit int) (rows []TableScope, more string, err error) {
	req := scopeRequest{Code: q.Code.String(), Limit: limit, Reverse: q.Reverse}
	if q.Table != 0 {
		req.Table = q.Table.String()
	}
	if q.Lower != 0 {
		req.LowerBound = scopeBound(q.Lower)
	}
	if q.HasUpper {
		req.UpperBound = scopeBound(q.Upper)
	}
	body, err := c.Call(ctx, "/v1/chain/get_table_by_scope", req)
	if err != nil {
		return nil, "", err
	}
	return decodeScopes(body)
}

// decodeScopes reads get_table_by_scope's answer: rows, each naming its
// table, and more (a string: the next scope, or "").
func decodeScopes(body []byte) (rows []TableScope, more string, err error) {
	var out struct {
		Rows *[]TableScope `json:"rows"`
		More string        `json:"more"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, "", fmt.Errorf("nodeos get_table_by_scope: unexpected answer: %v", err)
	}
	if out.Rows == nil {
		return nil, "", errors.New("nodeos get_table_by_scope: an answer without rows")
	}
	for i, r := range *out.Rows {
		if r.Code == 0 || r.Table == 0 {
			return nil, "", fmt.Errorf("nodeos get_table_by_scope: row %d names no contract or table", i)
		}
	}
	return *out.Rows, out.More, nil
}

// Scopes returns every (scope, table) q selects, paging as TableRows does:
// each (code, scope, table) once, even when its row count changes between
// two pages. A more that does not move the way the read goes or lies
// outside the bounds, and a scope outside the bounds asked for, are
// errors.
func (c *Client) Scopes(ctx context.Context, q ScopeQuery) iter.Seq2[TableScope, error] {
	return func(yield func(TableScope, error) bool) {
		pageSize := q.PageSize
		if pageSize == 0 {
			pageSize = c.pageSize
		}
		start := ""
		if q.Reverse && q.HasUpper {
			start = scopeBound(q.Upper)
		} else if !q.Reverse && q.Lower != 0 {
			start = scopeBound(q.Lower)
		}
		fetch := func(ctx context.Context, bound string, n int) (page[TableScope], error) {
			pq := q
			if bound != "" {
				v, _ := strconv.ParseUint(bound, 10, 64)
				if q.Reverse {
					pq.Upper, pq.HasUpper = antelope.Name(v), true
				} else {
					pq.Lower = antelope.Name(v)
				}
			}
			rows, more, err := c.GetTableByScope(ctx, pq, n)
			if err != nil {
				return page[TableScope]{}, err
			}
			p := page[TableScope]{items: rows, more: more != ""}
			for i, r := range rows {
				if r.Scope < pq.Lower || pq.HasUpper && r.Scope > pq.Upper || r.Code != q.Code || q.Table != 0 && r.Table != q.Table {
					return p, fmt.Errorf("nodeos get_table_by_scope: row %d (%s %s %s) is not one asked for", i, r.Code, r.Scope, r.Table)
				}
			}
			if more != "" {
				next, err := antelope.ParseName(more)
				if err != nil {
					return p, httpcore.AnswerErrorf("nodeos get_table_by_scope: more %q is not a scope: %v", more, err)
				}
				switch {
				case !q.Reverse && next < pq.Lower, q.Reverse && pq.HasUpper && next > pq.Upper:
					return p, httpcore.AnswerErrorf("nodeos get_table_by_scope: more %q goes backwards", more)
				case next < q.Lower, q.HasUpper && next > q.Upper:
					return p, httpcore.AnswerErrorf("nodeos get_table_by_scope: more %q lies outside the bounds asked for", more)
				}
				p.next = scopeBound(next)
			}
			return p, nil
		}
		id := func(s TableScope) string { return s.Code.String() + " " + s.Scope.String() + " " + s.Table.String() }
		paginate(ctx, start, pageSize, q.Limit, fetch, id, nil, yield)
	}
}

// TableScopes lists the scopes in which code's table has rows: Client is
// an antelope.ScopeReader.
func (c *Client) TableScopes(ctx context.Context, code, table antelope.Name) iter.Seq2[antelope.Name, error] {
	return func(yield func(antelope.Name, error) bool) {
		for s, err := range c.Scopes(ctx, ScopeQuery{Code: code, Table: table}) {
			if !yield(s.Scope, err) || err != nil {
				return
			}
		}
	}
}

var _ antelope.ScopeReader = (*Client)(nil)
