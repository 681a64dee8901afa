package chain

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
)

// Producer is a block producer as get_producers lists it: eosio.system's
// producers row. A chain without eosio.system lists its active schedule,
// with only Owner and Authority.
type Producer struct {
	Owner         antelope.Name      `json:"owner"`           // the producer's account
	TotalVotes    float64            `json:"total_votes"`     // vote weight (a double, printed as a string)
	ProducerKey   string             `json:"producer_key"`    // its block signing key, as the chain prints it
	IsActive      bool               `json:"is_active"`       // registered and producing
	URL           string             `json:"url"`             // its website
	UnpaidBlocks  uint32             `json:"unpaid_blocks"`   // blocks produced since the last claim
	LastClaimTime antelope.TimePoint `json:"last_claim_time"` // the last claimrewards
	Location      uint16             `json:"location"`        // ISO 3166 country code
	// Authority is its block signing authority,
	// ["block_signing_authority_v0", {"threshold", "keys"}], as printed.
	Authority json.RawMessage `json:"producer_authority"`
}

// UnmarshalJSON reads a producer, whose is_active nodeos prints as 0 or 1
// and total_votes as a string.
func (p *Producer) UnmarshalJSON(data []byte) error {
	type plain Producer
	var raw struct {
		plain
		IsActive   json.RawMessage `json:"is_active"`
		TotalVotes json.RawMessage `json:"total_votes"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*p = Producer(raw.plain)
	switch s := string(bytes.Trim(raw.IsActive, `"`)); s {
	case "1", "true":
		p.IsActive = true
	case "", "0", "false", "null":
	default:
		return httpcore.AnswerErrorf("producer %s: is_active %s", p.Owner, raw.IsActive)
	}
	if v := strings.Trim(string(raw.TotalVotes), `"`); v != "" && v != "null" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return httpcore.AnswerErrorf("producer %s: total_votes %s", p.Owner, raw.TotalVotes)
		}
		p.TotalVotes = f
	}
	return nil
}

// ProducersPage is one page of get_producers.
type ProducersPage struct {
	Rows []Producer // by total votes, highest first
	// TotalVoteWeight is the total_producer_vote_weight.
	TotalVoteWeight float64
	// More is the owner the next page starts at; "" after the last.
	More string
}

// GetProducers reads one page of get_producers: at most limit producers
// by votes, starting at lowerBound (an owner; "" for the top).
func (c *Client) GetProducers(ctx context.Context, lowerBound string, limit int) (*ProducersPage, error) {
	req := map[string]any{"json": true, "lower_bound": lowerBound, "limit": limit}
	var out struct {
		Rows   []Producer `json:"rows"`
		Weight string     `json:"total_producer_vote_weight"`
		More   string     `json:"more"`
	}
	if err := c.callJSON(ctx, "/v1/chain/get_producers", req, &out); err != nil {
		return nil, err
	}
	p := &ProducersPage{Rows: out.Rows, More: out.More}
	if out.Weight != "" {
		w, err := strconv.ParseFloat(out.Weight, 64)
		if err != nil {
			return nil, httpcore.AnswerErrorf("nodeos get_producers: total_producer_vote_weight %q: %v", out.Weight, err)
		}
		p.TotalVoteWeight = w
	}
	return p, nil
}

// Producers lists every producer by votes, paging through get_producers:
// each once, whatever page sizes the node chooses. Pages are ordered by
// votes, not by owner, so a more that leads back to producers already
// listed (votes that moved between pages, a cycle behind a load balancer)
// cannot be told from progress by its direction: an owner listed once is
// never listed again, and pages with no new producer end the read with an
// error (see paginate).
func (c *Client) Producers(ctx context.Context) iter.Seq2[Producer, error] {
	return func(yield func(Producer, error) bool) {
		listed := map[antelope.Name]bool{}
		fetch := func(ctx context.Context, bound string, n int) (page[Producer], error) {
			p, err := c.GetProducers(ctx, bound, n)
			if err != nil {
				return page[Producer]{}, err
			}
			if len(p.Rows) > n {
				return page[Producer]{}, fmt.Errorf("nodeos get_producers: %d producers for a limit of %d", len(p.Rows), n)
			}
			// more is the first producer not returned, or the last one
			// returned when nodeos's time limit struck (chain_plugin.cpp
			// get_producers): a page from bound with more = bound holds
			// bound's row alone. Producers no node has, with more where
			// they started, would be read without end.
			if bound != "" && p.More == bound && (len(p.Rows) > 1 || len(p.Rows) == 1 && p.Rows[0].Owner.String() != bound) {
				return page[Producer]{}, fmt.Errorf("nodeos get_producers: %d producers from %s, and more from %s again", len(p.Rows), bound, bound)
			}
			fresh := make([]Producer, 0, len(p.Rows))
			for _, r := range p.Rows {
				if !listed[r.Owner] {
					listed[r.Owner] = true
					fresh = append(fresh, r)
				}
			}
			return page[Producer]{items: fresh, more: p.More != "", next: p.More}, nil
		}
		id := func(p Producer) string { return p.Owner.String() }
		paginate(ctx, "", c.pageSize, 0, fetch, id, nil, yield)
	}
}
