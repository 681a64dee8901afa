package state

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// ABI is an account's ABI as the state service gave it at a block
// (GET /v0/state/abi).
type ABI struct {
	Account antelope.Name // the account
	// BlockNum is the block the ABI was set in: the version in force at
	// the block asked for was set there, at or below it.
	BlockNum uint64
	// JSON is the ABI as JSON, byte for byte as the service sent it (ABI);
	// nil from PackedABI.
	JSON json.RawMessage
	// Packed is the ABI's packed bytes, as on chain (PackedABI); nil from
	// ABI.
	Packed []byte
	// Source is the request's URL, without credentials: where the ABI came
	// from, for provenance.
	Source string
}

// ABI returns account's ABI as JSON as it was at the view's block (the
// head for the zero block), and the block it was set in. An account with
// no ABI there is an *httpcore.HTTPError with the code
// data_abi_not_found_error.
func (s *Client) ABI(ctx context.Context, account antelope.Name) (*ABI, error) {
	return s.abi(ctx, account, false)
}

// PackedABI is ABI for the packed bytes on chain (json=false), the ABI as
// the chain itself holds it.
func (s *Client) PackedABI(ctx context.Context, account antelope.Name) (*ABI, error) {
	return s.abi(ctx, account, true)
}

func (s *Client) abi(ctx context.Context, account antelope.Name, packed bool) (*ABI, error) {
	q := url.Values{"account": {account.String()}, "json": {strconv.FormatBool(!packed)}}
	u, err := s.url("/v0/state/abi", q)
	if err != nil {
		return nil, err
	}
	var out struct {
		BlockNum json.Number     `json:"block_num"` // a number; some deployments quote it
		ABI      json.RawMessage `json:"abi"`
	}
	if err := s.get(ctx, "/v0/state/abi", q, &out); err != nil {
		return nil, err
	}
	a := &ABI{Account: account, Source: httpcore.RedactURL(u) + "?" + u.RawQuery}
	if out.BlockNum != "" {
		if a.BlockNum, err = strconv.ParseUint(out.BlockNum.String(), 10, 64); err != nil {
			return nil, fmt.Errorf("state service /v0/state/abi: block_num %s is not a block number", out.BlockNum)
		}
	}
	switch {
	case len(out.ABI) == 0 || string(out.ABI) == "null":
		return nil, fmt.Errorf("state service /v0/state/abi: the answer for %s has no ABI", account)
	case packed:
		var h string
		if err := json.Unmarshal(out.ABI, &h); err != nil {
			return nil, fmt.Errorf("state service /v0/state/abi: abi is not a hex string: %v", err)
		}
		if a.Packed, err = hex.DecodeString(strings.TrimPrefix(h, "0x")); err != nil {
			return nil, fmt.Errorf("state service /v0/state/abi: abi is not hex: %v", err)
		}
	default:
		a.JSON = out.ABI
	}
	return a, nil
}
