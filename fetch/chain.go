package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain"
	"github.com/antelopego/abigen/chain/httpcore"
)

// ChainAPI fetches ABIs from a nodeos chain API, through chain.Client.
type ChainAPI struct {
	Transport *httpcore.Transport // the HTTP core; nil: a default one
	URL       string              // e.g. https://wax.greymass.com
}

// FetchABI returns the account's current ABI as nodeos's get_abi gives it
// (JSON), or with packed as get_raw_abi does (the bytes on chain, checked
// against their hash).
func (c *ChainAPI) FetchABI(ctx context.Context, account string, packed bool) (*Fetched, error) {
	path, form := "/v1/chain/get_abi", "nodeos get_abi response"
	if packed {
		path, form = "/v1/chain/get_raw_abi", "nodeos get_raw_abi response"
	}
	u, err := httpcore.JoinURL(c.URL, path)
	if err != nil {
		return nil, fmt.Errorf("chain API: %w", err) // redacted: it may hold a password or a key
	}
	where := httpcore.RedactURL(u)
	name, err := antelope.ParseName(account)
	if err != nil {
		return nil, fmt.Errorf("account %q: %v", account, err)
	}
	cl := chain.New(c.URL, chain.WithTransport(c.Transport))
	var abi []byte
	if packed {
		abi, _, err = cl.GetRawABI(ctx, name)
	} else {
		abi, err = cl.GetABI(ctx, name)
	}
	var ae *chain.APIError
	var he *httpcore.HTTPError
	switch {
	case errors.Is(err, chain.ErrUnknownAccount):
		return nil, fmt.Errorf("%w: account %s does not exist on the chain at %s", ErrNotFound, account, where)
	case errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound,
		errors.As(err, &he) && he.Status == http.StatusNotFound:
		return nil, fmt.Errorf("%s: not found: is the chain_api_plugin enabled on that node? (%v)", where, err)
	case err != nil:
		return nil, err
	case len(abi) == 0:
		return nil, fmt.Errorf("%w: account %s has no ABI on the chain at %s", ErrNotFound, account, where)
	}
	return &Fetched{Body: abi, Source: where + " account " + account, Form: form, Account: account}, nil
}
