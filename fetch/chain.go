package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ChainAPI fetches ABIs from a nodeos chain API.
type ChainAPI struct {
	Client *Client
	URL    string // e.g. https://wax.greymass.com
}

// FetchABI returns nodeos's get_abi response for the account, or with
// packed its get_raw_abi response (base64 of the bytes on chain).
func (c *ChainAPI) FetchABI(ctx context.Context, account string, packed bool) (*Fetched, error) {
	path := "/v1/chain/get_abi"
	if packed {
		path = "/v1/chain/get_raw_abi"
	}
	u, err := url.Parse(strings.TrimRight(c.URL, "/") + path)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("invalid chain API URL %q", c.URL)
	}
	payload, _ := json.Marshal(map[string]string{"account_name": account})
	body, err := c.Client.do(ctx, "nodeos", func() (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		return req, nil
	})
	var fe *Error
	if errors.As(err, &fe) {
		switch {
		case fe.Code == "account_query_exception" || (fe.Status == 500 && strings.Contains(fe.Message, "unknown key")):
			return nil, fmt.Errorf("%w: account %s does not exist on the chain at %s", ErrNotFound, account, redactURL(u))
		case fe.Status == http.StatusNotFound:
			return nil, fmt.Errorf("%s: not found: is the chain_api_plugin enabled on that node? (%v)", redactURL(u), fe)
		}
	}
	if err != nil {
		return nil, err
	}
	return &Fetched{Body: body, Source: redactURL(u) + " account " + account}, nil
}
