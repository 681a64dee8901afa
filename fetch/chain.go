package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/antelopego/abigen/chain"
)

// ChainAPI fetches ABIs from a nodeos chain API, through chain.Client.
type ChainAPI struct {
	Client *Client // the HTTP core
	URL    string  // e.g. https://wax.greymass.com
}

// FetchABI returns nodeos's get_abi response for the account, or with
// packed its get_raw_abi response (base64 of the bytes on chain).
func (c *ChainAPI) FetchABI(ctx context.Context, account string, packed bool) (*Fetched, error) {
	path := "/v1/chain/get_abi"
	if packed {
		path = "/v1/chain/get_raw_abi"
	}
	u, err := chain.JoinURL(c.URL, path)
	if err != nil {
		return nil, fmt.Errorf("chain API: %w", err) // redacted: it may hold a password or a key
	}
	where := chain.RedactURL(u)
	cl := chain.New(c.URL, chain.WithTransport(c.Client))
	body, err := cl.Call(ctx, path, map[string]string{"account_name": account})
	var ae *chain.APIError
	var he *chain.HTTPError
	switch {
	case errors.Is(err, chain.ErrUnknownAccount):
		return nil, fmt.Errorf("%w: account %s does not exist on the chain at %s", ErrNotFound, account, where)
	case errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound,
		errors.As(err, &he) && he.Status == http.StatusNotFound:
		return nil, fmt.Errorf("%s: not found: is the chain_api_plugin enabled on that node? (%v)", where, err)
	case err != nil:
		return nil, err
	}
	return &Fetched{Body: body, Source: where + " account " + account}, nil
}
