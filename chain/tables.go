package chain

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// Client implements antelope.TableReader over get_table_rows.
var _ antelope.TableReader = (*Client)(nil)

// TablePage is one get_table_rows answer: binary rows and their payers,
// whether more rows follow, and where nodeos says the next page starts.
type TablePage struct {
	Rows    []antelope.TableRow // the rows, in index order
	More    bool                // more rows follow
	NextKey string              // as nodeos printed it; see antelope.ParseNextKey
}

// tableRowsRequest is get_table_rows's body. json is always false: rows
// are decoded by the generated types, never by the node.
type tableRowsRequest struct {
	JSON          bool   `json:"json"`
	Code          string `json:"code"`
	Scope         string `json:"scope"`
	Table         string `json:"table"`
	IndexPosition string `json:"index_position"`
	KeyType       string `json:"key_type"`
	EncodeType    string `json:"encode_type"`
	LowerBound    string `json:"lower_bound,omitempty"`
	UpperBound    string `json:"upper_bound,omitempty"`
	Limit         int    `json:"limit"`
	Reverse       bool   `json:"reverse"`
	ShowPayer     bool   `json:"show_payer"`
}

// keyType is the key type a query reads with: the bounds', or the
// query's, or the primary key's.
func keyType(q antelope.TableQuery) (antelope.IndexKeyType, error) {
	t := q.KeyType
	for _, k := range []antelope.TableKey{q.Lower, q.Upper} {
		if k.IsZero() {
			continue
		}
		if t != "" && k.Type() != t {
			return "", fmt.Errorf("table query: bound %s is not of the index's key type %s", k, t)
		}
		t = k.Type()
	}
	if q.Index <= 1 {
		if t != "" && t != antelope.IndexI64 {
			return "", fmt.Errorf("table query: the primary key is a 64-bit key, not %s", t)
		}
		return antelope.IndexI64, nil
	}
	if t == "" {
		return "", errors.New("table query: a secondary index needs its key type (TableQuery.KeyType, or a bound)")
	}
	return t, nil
}

// request builds the get_table_rows body for q with the given bounds.
func tableRequest(q antelope.TableQuery, kt antelope.IndexKeyType, lower, upper antelope.TableKey, limit int) tableRowsRequest {
	index := q.Index
	if index < 1 {
		index = 1
	}
	r := tableRowsRequest{Code: q.Code.String(), Scope: strconv.FormatUint(uint64(q.Scope), 10), Table: q.Table.String(),
		IndexPosition: strconv.Itoa(index), KeyType: string(kt), EncodeType: "dec", Limit: limit, Reverse: q.Reverse, ShowPayer: true}
	// The scope goes as its 64-bit value: nodeos reads a decimal first, so
	// a name like "12345" would otherwise be taken for a number.
	for _, b := range []struct {
		k   antelope.TableKey
		dst *string
	}{{lower, &r.LowerBound}, {upper, &r.UpperBound}} {
		if b.k.IsZero() {
			continue
		}
		text, enc := b.k.Bound()
		*b.dst = text
		r.EncodeType = enc
	}
	if kt == antelope.IndexFloat128 {
		r.EncodeType = "hex"
	}
	return r
}

// GetTableRows reads one page of q's rows from lower to upper (either may
// be the zero key): json=false, show_payer=true. Rows is what the node
// returned, possibly fewer than asked for; TableRows pages for you.
func (c *Client) GetTableRows(ctx context.Context, q antelope.TableQuery, limit int) (*TablePage, error) {
	kt, err := keyType(q)
	if err != nil {
		return nil, err
	}
	return c.tablePage(ctx, tableRequest(q, kt, q.Lower, q.Upper, limit))
}

func (c *Client) tablePage(ctx context.Context, req tableRowsRequest) (*TablePage, error) {
	body, err := c.Call(ctx, "/v1/chain/get_table_rows", req)
	if err != nil {
		return nil, err
	}
	return DecodeTablePage(body)
}

// DecodeTablePage reads get_table_rows's answer with json=false: rows as
// {"data":"hex","payer":"name"} (show_payer) or bare hex strings. It reads
// with antelope's JSON reader and puts every row's bytes in one buffer per
// page: a thousand-row page costs a handful of allocations, not thousands.
func DecodeTablePage(body []byte) (*TablePage, error) {
	r := antelope.NewJSONReader(body)
	p := &TablePage{}
	buf := make([]byte, 0, len(body)/2) // no page holds more row bytes than half its hex
	fail := func(err error) (*TablePage, error) {
		return nil, fmt.Errorf("nodeos get_table_rows: unexpected answer: %v", err)
	}
	hexRow := func(i int) ([]byte, error) {
		text, err := r.StringBytes()
		if err != nil {
			return nil, err
		}
		start := len(buf)
		if buf, err = hex.AppendDecode(buf, text); err != nil {
			return nil, fmt.Errorf("row %d is not hex: %v", i, err)
		}
		return buf[start:len(buf):len(buf)], nil
	}
	if err := r.BeginObject(); err != nil {
		return fail(err)
	}
	var hasRows, hasMore bool
	for {
		key, ok, err := r.NextKey()
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		switch string(key) {
		case "rows":
			if hasRows {
				return fail(errors.New("rows given twice"))
			}
			hasRows = true
			if err := r.BeginArray(); err != nil {
				return fail(err)
			}
			for i := 0; ; i++ {
				more, err := r.NextElement()
				if err != nil {
					return fail(err)
				}
				if !more {
					break
				}
				var row antelope.TableRow
				switch r.Peek() {
				case antelope.JSONString:
					if row.Data, err = hexRow(i); err != nil {
						return fail(err)
					}
				case antelope.JSONObject:
					if err := r.BeginObject(); err != nil {
						return fail(err)
					}
					for {
						k, ok, err := r.NextKey()
						if err != nil {
							return fail(err)
						}
						if !ok {
							break
						}
						switch string(k) {
						case "data":
							if r.Peek() != antelope.JSONString {
								return fail(fmt.Errorf("row %d is decoded JSON; this client asks for binary rows (json=false)", i))
							}
							if row.Data != nil {
								return fail(fmt.Errorf("row %d has its data twice", i))
							}
							if row.Data, err = hexRow(i); err != nil {
								return fail(err)
							}
						case "payer":
							err = row.Payer.DecodeJSON(r)
						default:
							err = r.Skip()
						}
						if err != nil {
							return fail(err)
						}
					}
					if row.Data == nil {
						return fail(fmt.Errorf("row %d has no data", i))
					}
				default:
					return fail(fmt.Errorf("row %d is neither hex nor {data, payer}", i))
				}
				p.Rows = append(p.Rows, row)
			}
		case "more":
			hasMore = true
			// a bool; very old nodes sent the next key as a string here
			if r.Peek() == antelope.JSONString {
				s, err := r.String()
				if err != nil {
					return fail(err)
				}
				p.More, p.NextKey = s != "", s
			} else if p.More, err = r.Bool(); err != nil {
				return fail(err)
			}
		case "next_key":
			if p.NextKey, err = r.String(); err != nil {
				return fail(err)
			}
		default:
			if err := r.Skip(); err != nil {
				return fail(err)
			}
		}
	}
	if err := r.Finish(); err != nil {
		return fail(err)
	}
	if !hasRows || !hasMore {
		return fail(errors.New("an answer without rows and more"))
	}
	if p.Rows == nil {
		p.Rows = []antelope.TableRow{}
	}
	return p, nil
}

// TableRows returns every row q selects, paging through get_table_rows:
// forward by lower bound, or with q.Reverse backward by upper bound. No row
// is lost or repeated whatever page sizes the node chooses (see paginate);
// stopping the range stops the requests.
//
// A node is not trusted: a next_key that does not move the way the read
// goes or lies outside the query's bounds, more rows than asked for, and
// pages that bring no new row (a cache serving one page forever) end the
// read with an error; with q.Key, so does a row outside the bounds asked
// for or out of index order. What no reader of get_table_rows can promise
// on a table that changes while it is read, see the README; a state.Client
// reads a table as it was at one block (At).
func (c *Client) TableRows(ctx context.Context, q antelope.TableQuery) iter.Seq2[antelope.TableRow, error] {
	return func(yield func(antelope.TableRow, error) bool) {
		kt, err := keyType(q)
		if err != nil {
			yield(antelope.TableRow{}, err)
			return
		}
		pageSize := q.PageSize
		if pageSize == 0 {
			pageSize = c.pageSize
		}
		primary := kt == antelope.IndexI64 && q.Index <= 1
		// The moving bound is the lower one going forward, the upper one
		// in reverse; it is carried as the key itself.
		start := q.Lower
		if q.Reverse {
			start = q.Upper
		}
		keys := map[string]antelope.TableKey{}
		boundText := func(k antelope.TableKey) string {
			if k.IsZero() {
				return ""
			}
			s, _ := k.Bound()
			keys[s] = k
			return s
		}
		fetch := func(ctx context.Context, bound string, n int) (page[antelope.TableRow], error) {
			lower, upper := q.Lower, q.Upper
			cur := keys[bound] // zero: no bound yet
			if !cur.IsZero() {
				if q.Reverse {
					upper = cur
				} else {
					lower = cur
				}
			}
			p, err := c.tablePage(ctx, tableRequest(q, kt, lower, upper, n))
			if err != nil {
				return page[antelope.TableRow]{}, err
			}
			out := page[antelope.TableRow]{items: p.Rows, more: p.More}
			var last antelope.TableKey // the page's last row's key, with q.Key
			if q.Key != nil {
				if last, err = checkRowKeys(q, p.Rows, lower, upper, primary); err != nil {
					return out, err
				}
			}
			if p.More {
				if p.NextKey == "" {
					return out, errors.New("nodeos get_table_rows: more rows, but no next_key to read them from (a node too old to page)")
				}
				next, err := antelope.ParseNextKey(kt, p.NextKey)
				if err != nil {
					return out, httpcore.AnswerErrorf("nodeos get_table_rows: %v", err)
				}
				if err := checkNextKey(q, next, cur, last); err != nil {
					return out, httpcore.AnswerErrorf("nodeos get_table_rows: next_key %q %v", p.NextKey, err)
				}
				out.next = boundText(safeNextKey(next, q.Reverse))
			}
			return out, nil
		}
		var past func(string) (string, bool)
		if primary {
			// Primary keys are unique: the row at a stalled bound is done.
			past = func(bound string) (string, bool) {
				k, ok := keys[bound]
				if !ok {
					return "", false
				}
				v := k.Uint64()
				switch {
				case q.Reverse && v == 0, !q.Reverse && v == math.MaxUint64:
					return "", false
				case q.Reverse:
					v--
				default:
					v++
				}
				return boundText(antelope.KeyUint64(v)), true
			}
		}
		id := rowID
		if primary && q.Key != nil {
			// A row is its primary key: one updated between two pages is
			// the same row.
			id = func(r antelope.TableRow) string {
				k, _ := q.Key(r.Data) // checked by checkRowKeys
				return k.String()
			}
		}
		paginate(ctx, boundText(start), pageSize, q.Limit, fetch, id, past, yield)
	}
}

// checkRowKeys checks, with q.Key, that every row of a page lies within
// [lower, upper] (either may be open) and in the read's index order
// (strictly on the primary index, whose keys are unique). It returns the
// last row's key.
func checkRowKeys(q antelope.TableQuery, rows []antelope.TableRow, lower, upper antelope.TableKey, primary bool) (antelope.TableKey, error) {
	var prev antelope.TableKey
	for i, r := range rows {
		k, err := q.Key(r.Data)
		if err != nil {
			return prev, fmt.Errorf("nodeos get_table_rows: row %d: its key: %w", i, err)
		}
		switch {
		case !lower.IsZero() && k.Compare(lower) < 0, !upper.IsZero() && k.Compare(upper) > 0:
			return prev, fmt.Errorf("nodeos get_table_rows: row %d's key %s lies outside the bounds asked for, %s to %s", i, k, lower, upper)
		case i > 0:
			c := k.Compare(prev)
			if q.Reverse {
				c = -c
			}
			if c < 0 || c == 0 && primary {
				return prev, fmt.Errorf("nodeos get_table_rows: row %d's key %s is out of index order after %s", i, k, prev)
			}
		}
		prev = k
	}
	return prev, nil
}

// checkNextKey checks that next, a page's next_key, moves the way the read
// goes from the page's bound cur (zero: the start) and past the page's
// last row (zero: unknown), and lies within the query's bounds. A float128
// next key is printed rounded to a double, so it is compared as one.
func checkNextKey(q antelope.TableQuery, next, cur, last antelope.TableKey) error {
	order := func(a, b antelope.TableKey) int {
		if a.Type() == antelope.IndexFloat128 {
			return cmp.Compare(asFloat64(a), asFloat64(b)) // never NaN: ParseNextKey refuses it
		}
		return a.Compare(b)
	}
	dir := 1
	if q.Reverse {
		dir = -1
	}
	switch {
	case !cur.IsZero() && dir*order(next, cur) < 0:
		return fmt.Errorf("goes backwards, from %s", cur)
	case !last.IsZero() && dir*order(next, last) < 0:
		return fmt.Errorf("goes back before the page's last row, %s", last)
	case !q.Lower.IsZero() && order(next, q.Lower) < 0:
		return fmt.Errorf("lies below the lower bound %s", q.Lower)
	case !q.Upper.IsZero() && order(next, q.Upper) > 0:
		return fmt.Errorf("lies above the upper bound %s", q.Upper)
	}
	return nil
}

// asFloat64 is a float128 key's value as a double.
func asFloat64(k antelope.TableKey) float64 {
	b := k.Bytes()
	return antelope.Float128(b[16:]).Float64()
}

func rowID(r antelope.TableRow) string {
	return string(r.Data) + "\x00" + strconv.FormatUint(uint64(r.Payer), 16)
}

// safeNextKey widens a float128 next key by one double step the way the
// read goes: nodeos prints a float128 key rounded to a double, which may lie
// past the true key, and a bound past it would skip rows.
func safeNextKey(k antelope.TableKey, reverse bool) antelope.TableKey {
	if k.Type() != antelope.IndexFloat128 {
		return k
	}
	d := asFloat64(k)
	if reverse {
		d = math.Nextafter(d, math.Inf(1))
	} else {
		d = math.Nextafter(d, math.Inf(-1))
	}
	return antelope.KeyFloat128(antelope.Float128FromFloat64(d))
}
