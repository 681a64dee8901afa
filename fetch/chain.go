package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

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
	base := strings.TrimRight(c.URL, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("invalid chain API URL %q", c.URL)
	}
	u, err := url.Parse(base + path)
	if err != nil {
		return nil, errors.New("invalid chain API URL: it does not parse") // not echoed: it may hold a password
	}
	where := chain.RedactURL(u)
	cl := chain.New(base, chain.WithTransport(c.Client))
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
