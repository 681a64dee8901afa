package fetch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/chain/state"
)

// StateAPI fetches ABIs from the state service (a state.Client), with
// tokens from the token service.
type StateAPI struct {
	Transport *httpcore.Transport // the HTTP core; nil: a default one
	BaseURL   string              // the state service, e.g. https://wax.example.io
	AuthURL   string              // the token service, e.g. https://auth.example.io
	APIKey    string              // the API key; never printed
	Cache     state.TokenStore    // where tokens are kept between runs (a *TokenCache); nil: a token per run
	Now       func() time.Time    // the clock (tests); nil: time.Now
}

// ErrNotFound marks an account that has no ABI at the requested block (or,
// on a nodeos chain API, does not exist or has no ABI).
var ErrNotFound = errors.New("no ABI")

// newAuth is the token flow of one run: one token for all its requests
// (kept in memory when there is no Cache).
func (s *StateAPI) newAuth() *state.Auth {
	return &state.Auth{Transport: s.Transport, AuthURL: s.AuthURL, APIKey: s.APIKey, Cache: s.Cache, Now: s.Now}
}

// FetchABI returns the account's ABI at blockNum (0: the head block) as the
// state service gave it: as JSON or, with packed, the packed bytes on
// chain.
func (s *StateAPI) FetchABI(ctx context.Context, account string, blockNum uint64, packed bool) (*Fetched, error) {
	return s.fetchABI(ctx, s.newAuth(), account, blockNum, packed)
}

// fetchABI is FetchABI with the token flow auth.
func (s *StateAPI) fetchABI(ctx context.Context, auth *state.Auth, account string, blockNum uint64, packed bool) (*Fetched, error) {
	name, err := antelope.ParseName(account)
	if err != nil {
		return nil, fmt.Errorf("account %q: %v", account, err)
	}
	if blockNum > math.MaxUint32 {
		return nil, fmt.Errorf("block %d: block numbers are 32-bit (at most %d)", blockNum, uint32(math.MaxUint32))
	}
	c := state.New(s.BaseURL, auth).At(uint32(blockNum))
	get, form := c.ABI, "state API response"
	if packed {
		get, form = c.PackedABI, "state API response (packed ABI)"
	}
	abi, err := get(ctx, name)
	if err != nil {
		return nil, s.explain(err, account, blockNum)
	}
	f := &Fetched{Body: abi.JSON, Source: abi.Source, Form: form, Account: account, BlockNum: uint64(abi.BlockNum), HasBlock: abi.BlockNum > 0}
	if packed {
		f.Body = abi.Packed
	}
	return f, nil
}

// explain turns the state service's error codes into sentences.
func (s *StateAPI) explain(err error, account string, blockNum uint64) error {
	var fe *httpcore.HTTPError
	if !errors.As(err, &fe) {
		return err
	}
	at := "the head block"
	if blockNum > 0 {
		at = "block " + strconv.FormatUint(blockNum, 10)
	}
	switch fe.Code {
	case "data_abi_not_found_error":
		return fmt.Errorf("%w: account %s has no ABI at %s (state service %s)", ErrNotFound, account, at, fe.URL)
	case "auth_invalid_token_error":
		return fmt.Errorf("%w: the state service refused a freshly issued token: %s", state.ErrAuth, fe.Message)
	case "auth_invalid_tier_error":
		return fmt.Errorf("%w: the API key's plan does not allow this request (%s)", state.ErrAuth, fe.Message)
	case "app_block_num_higher_than_head_block_error":
		return fmt.Errorf("block %d is above the chain's head block (%s)", blockNum, fe.Message)
	case "request_validation_error":
		return fmt.Errorf("the state service rejected the request for account %q: %s", account, fe.Message)
	}
	if fe.Status == http.StatusForbidden {
		return fmt.Errorf("%w: %v", state.ErrAuth, fe)
	}
	return err
}
