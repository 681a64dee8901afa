package hyperion

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"time"

	"github.com/antelopego/abigen/antelope"
)

// Creator is a get_creator answer: who created an account, and where.
type Creator struct {
	Account antelope.Name // the account asked about
	// Creator is the creating account; 0 with Genesis for the chain's
	// own account (Hyperion's "__self__").
	Creator   antelope.Name
	Genesis   bool                 // created with the chain (Hyperion's "__self__")
	Timestamp time.Time            // when it was created
	BlockNum  uint32               // the block it was created in
	TrxID     antelope.Checksum256 // zero when Hyperion found the block but not the transaction
}

// GetCreator asks /v2/history/get_creator who created account.
func (c *Client) GetCreator(ctx context.Context, account antelope.Name) (*Creator, error) {
	body, err := c.get(ctx, "get_creator", "/v2/history/get_creator", url.Values{"account": {account.String()}})
	if err != nil {
		return nil, err
	}
	return ParseCreator(body)
}

// parseCreator is ParseCreator before its error is scrubbed.
func parseCreator(body []byte) (*Creator, error) {
	var w struct {
		Account   jsonName `json:"account"`
		Creator   jsonName `json:"creator"`
		Timestamp string   `json:"timestamp"`
		BlockNum  flex     `json:"block_num"`
		TrxID     string   `json:"trx_id"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_creator", body, err)
	}
	var e errs
	cr := &Creator{Account: e.n(w.Account, "account"), BlockNum: uint32(e.u(w.BlockNum, 32, "block_num")), TrxID: e.id(w.TrxID, "trx_id")}
	if w.Creator == "__self__" {
		cr.Genesis = true
	} else {
		cr.Creator = e.n(w.Creator, "creator")
	}
	if w.Timestamp != "" {
		cr.Timestamp = e.time(w.Timestamp)
	}
	if e.err != nil {
		return nil, answerErr("get_creator", nil, e.err)
	}
	return cr, nil
}

// CreatedAccount is one account of get_created_accounts.
type CreatedAccount struct {
	Name      antelope.Name        // the account created
	TrxID     antelope.Checksum256 // the transaction that created it
	Timestamp time.Time            // when
}

// GetCreatedAccounts asks /v2/history/get_created_accounts for the
// accounts creator made, newest first: one page of at most limit (0:
// Hyperion's default of 100), after skip. Hyperion pages it by skip only.
func (c *Client) GetCreatedAccounts(ctx context.Context, creator antelope.Name, skip, limit int) ([]CreatedAccount, error) {
	q := url.Values{"account": {creator.String()}}
	if skip > 0 {
		q.Set("skip", strconv.Itoa(skip))
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	body, err := c.get(ctx, "get_created_accounts", "/v2/history/get_created_accounts", q)
	if err != nil {
		return nil, err
	}
	return ParseCreatedAccounts(body)
}

// parseCreatedAccounts is ParseCreatedAccounts before its error is scrubbed.
func parseCreatedAccounts(body []byte) ([]CreatedAccount, error) {
	var w struct {
		Accounts *[]struct {
			Name      jsonName `json:"name"`
			TrxID     string   `json:"trx_id"`
			Timestamp string   `json:"timestamp"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, answerErr("get_created_accounts", body, err)
	}
	if w.Accounts == nil {
		return nil, answerErr("get_created_accounts", body, errNoList)
	}
	out := make([]CreatedAccount, 0, len(*w.Accounts))
	for _, a := range *w.Accounts {
		var e errs
		ca := CreatedAccount{Name: e.n(a.Name, "name"), TrxID: e.id(a.TrxID, "trx_id"), Timestamp: e.time(a.Timestamp)}
		if e.err != nil {
			return nil, answerErr("get_created_accounts", nil, e.err)
		}
		out = append(out, ca)
	}
	return out, nil
}
