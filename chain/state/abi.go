package state

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
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
	BlockNum uint32
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
	const path = "/v0/state/abi"
	q := url.Values{"account": {account.String()}, "json": {strconv.FormatBool(!packed)}}
	body, err := s.get(ctx, path, q)
	if err != nil {
		return nil, err
	}
	a, err := decodeABI(body, packed)
	if err != nil {
		return nil, err
	}
	// The version in force at a block was set at or before it.
	if s.block > 0 && a.BlockNum > s.block {
		return nil, fmt.Errorf("state service %s: asked for the ABI in force at block %d, got one set at block %d", path, s.block, a.BlockNum)
	}
	a.Account = account
	// The request, without the base URL's own query or user info (an API
	// key, a password): get has validated the URL and added block_num.
	u, _ := httpcore.JoinURL(s.baseURL, path)
	a.Source = httpcore.RedactURL(u) + "?" + q.Encode()
	return a, nil
}

// decodeABI reads /v0/state/abi's answer: the ABI as JSON, kept byte for
// byte, or with packed as hex, and the block it was set in.
func decodeABI(body []byte, packed bool) (*ABI, error) {
	var out struct {
		BlockNum json.Number     `json:"block_num"` // a number; some deployments quote it
		ABI      json.RawMessage `json:"abi"`
	}
	if err := decodeStateAnswer("/v0/state/abi", body, "abi", &out); err != nil {
		return nil, err
	}
	a := &ABI{}
	if out.BlockNum != "" {
		n, err := strconv.ParseUint(out.BlockNum.String(), 10, 32)
		if err != nil {
			return nil, httpcore.AnswerErrorf("state service /v0/state/abi: block_num %s is not a block number", out.BlockNum)
		}
		a.BlockNum = uint32(n)
	}
	switch {
	case len(out.ABI) == 0 || string(out.ABI) == "null":
		return nil, errors.New("state service /v0/state/abi: the answer has no ABI")
	case packed:
		var h string
		if err := json.Unmarshal(out.ABI, &h); err != nil {
			return nil, httpcore.AnswerErrorf("state service /v0/state/abi: abi is not a hex string: %v", err)
		}
		raw, err := hex.DecodeString(strings.TrimPrefix(h, "0x"))
		if err != nil {
			return nil, httpcore.AnswerErrorf("state service /v0/state/abi: abi is not hex: %v", err)
		}
		a.Packed = raw
	case out.ABI[0] != '{':
		return nil, errors.New("state service /v0/state/abi: abi is not an object")
	default:
		a.JSON = out.ABI
	}
	return a, nil
}
