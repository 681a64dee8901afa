package chain

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/httpcore"
	"github.com/antelopego/abigen/powerup"
)

func TestReplayProducers(t *testing.T) {
	srv := newReplay(t)
	c := srv.client()
	status, body := recording(t, "get_producers/get_producers.eos.bare.json")
	srv.set("/v1/chain/get_producers", status, body)
	p, err := c.GetProducers(t.Context(), "", 50)
	if err != nil {
		t.Fatal(err)
	}
	first := p.Rows[0]
	if first.Owner != antelope.MustName("eosflytomars") || first.TotalVotes != 12364922069802956800 || !first.IsActive ||
		first.URL != "https://www.bitmars.one" || first.UnpaidBlocks != 2523 || first.Location != 156 ||
		first.ProducerKey != "EOS6Agpfp38bTyRjJDmB4Qb1EpQSq7wnEAsALXgXE7KFSzKjokkFD" || first.LastClaimTime.Time().Unix() != 1665278574 {
		t.Errorf("%+v", first)
	}
	if p.More != "eoscafeblock" || p.TotalVoteWeight != 440324019838359830528 || len(p.Rows) < 2 {
		t.Errorf("more %q, weight %g, %d rows", p.More, p.TotalVoteWeight, len(p.Rows))
	}
	var req map[string]any
	_ = json.Unmarshal(srv.requests[0].body, &req)
	if req["json"] != true || req["lower_bound"] != "" || req["limit"] != float64(50) {
		t.Errorf("request %v", req)
	}
}

func TestProducersPages(t *testing.T) {
	// 7 producers, served at most 3 a page from the lower bound (an
	// owner), as nodeos pages get_producers.
	names := []string{"proda", "prodb", "prodc", "prodd", "prode", "prodf", "prodg"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			LowerBound string `json:"lower_bound"`
			Limit      int    `json:"limit"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		from := max(slices.Index(names, req.LowerBound), 0)
		var rows []string
		for i := from; i < from+min(req.Limit, 3) && i < len(names); i++ {
			rows = append(rows, fmt.Sprintf(`{"owner":%q,"total_votes":"%d.0","producer_key":"EOS1111111111111111111111111111111114T1Anm","is_active":%d}`, names[i], 100-i, i%2))
		}
		more := ""
		if end := from + min(req.Limit, 3); end < len(names) {
			more = names[end]
		}
		fmt.Fprintf(w, `{"rows":[%s],"total_producer_vote_weight":"1000.0","more":%q}`, strings.Join(rows, ","), more)
	}))
	t.Cleanup(srv.Close)
	c := New(srv.URL, WithTransport(&httpcore.Transport{Sleep: noSleep}), WithPageSize(5))
	var got []string
	for p, err := range c.Producers(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		if p.IsActive != (len(got)%2 == 1) || p.TotalVotes != float64(100-len(got)) {
			t.Errorf("%+v", p)
		}
		got = append(got, p.Owner.String())
	}
	if !slices.Equal(got, names) {
		t.Errorf("%v, want %v", got, names)
	}
}

// A node whose more leads back to producers already listed (a cycle
// behind a load balancer, or votes moving between pages) never makes
// Producers list one twice, nor read without end: producers are ordered
// by votes, not by owner, so no direction check can catch the cycle —
// every owner is listed once in the whole read.
func TestProducersCycle(t *testing.T) {
	pages := map[string]struct{ rows, more string }{
		"":      {"proda prodb", "prodc"},
		"prodc": {"prodc prodd", "proda"}, // back to the first page
		"proda": {"proda prodb", "prodc"},
	}
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		var req struct {
			LowerBound string `json:"lower_bound"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		p := pages[req.LowerBound]
		var rows []string
		for _, n := range strings.Fields(p.rows) {
			rows = append(rows, fmt.Sprintf(`{"owner":%q,"total_votes":"1.0","producer_key":"EOS1111111111111111111111111111111114T1Anm","is_active":1}`, n))
		}
		fmt.Fprintf(w, `{"rows":[%s],"total_producer_vote_weight":"1000.0","more":%q}`, strings.Join(rows, ","), p.more)
	}))
	t.Cleanup(srv.Close)
	c := New(srv.URL, WithTransport(&httpcore.Transport{Sleep: noSleep}), WithPageSize(2))
	seen := map[antelope.Name]bool{}
	var last error
	for p, err := range c.Producers(t.Context()) {
		if err != nil {
			last = err
			break
		}
		if seen[p.Owner] {
			t.Fatalf("%s listed twice (after %d requests)", p.Owner, requests)
		}
		seen[p.Owner] = true
		if requests > 100 {
			t.Fatal("no end after 100 requests")
		}
	}
	if last == nil || len(seen) != 4 {
		t.Errorf("%d producers, error %v; want the 4 producers, then an error", len(seen), last)
	}
}

func TestReplayAccountResources(t *testing.T) {
	srv := newReplay(t)
	c := srv.client()
	for rel, want := range map[string][5]int64{ // cpu weight, cpu max, cpu used, net weight, net available
		"get_account/get_account.eos.teamgreymass.json":         {14044943815, 1266672, 876761, 9797071, 18257292},
		"get_account/get_account.wax.teamgreymass.json":         {2555196542594, 2099493, 699630, 455096542392, 570507356},
		"get_account/get_account.jungle4.eosio.privileged.json": {20000000000, 5731102601, 149300, 2000000000, 3083383922},
	} {
		status, body := recording(t, rel)
		srv.set("/v1/chain/get_account", status, body)
		a, err := c.GetAccount(t.Context(), antelope.MustName("eosio"))
		if err != nil {
			t.Fatal(err)
		}
		got := [5]int64{int64(a.CPUWeight), int64(a.CPULimit.Max), int64(a.CPULimit.Used), int64(a.NETWeight), int64(a.NETLimit.Available)}
		if got != want {
			t.Errorf("%s: %v, want %v", rel, got, want)
		}
		sample, err := a.PowerUpSample()
		direct, _ := powerup.SampleAccount(want[1], want[0], int64(a.NETLimit.Max), want[3])
		if err != nil || sample.CPU.Cmp(direct.CPU) != 0 || sample.NET.Cmp(direct.NET) != 0 {
			t.Errorf("%s: sample %v %v", rel, sample, err)
		}
	}
}
