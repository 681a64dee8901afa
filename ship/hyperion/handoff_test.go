package hyperion_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/antelopego/abigen/ship/hyperion"
)

// Handoff is the lower of the final and the last indexed block, less the
// margin; never below 0; and an error, not a guess, when health lacks
// either number (Hyperion could not reach its node or index).
func TestHandoff(t *testing.T) {
	ctx := context.Background()
	healthy := fixture(t, "health.json") // final 300000090, indexed 300000100
	for _, c := range []struct {
		margin, want uint32
	}{{0, 300000090}, {hyperion.DefaultHandoffMargin, 300000090 - 240}, {300000089, 1}} {
		got, err := hyperion.New(serveBody(t, 200, healthy, nil).URL).Handoff(ctx, c.margin)
		if err != nil || got != c.want {
			t.Errorf("margin %d: %d, %v; want %d", c.margin, got, err, c.want)
		}
	}
	// Nothing old enough: never 0, which a ToBlock reads as no bound.
	for _, margin := range []uint32{300000090, 400_000_000} {
		if got, err := hyperion.New(serveBody(t, 200, healthy, nil).URL).Handoff(ctx, margin); !errors.Is(err, hyperion.ErrNoHandoff) {
			t.Errorf("margin %d: %d, %v; want ErrNoHandoff", margin, got, err)
		}
	}
	// The index behind the final block: the index's block bounds it.
	var doc map[string]any
	if err := json.Unmarshal(healthy, &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc["health"].([]any) {
		s := s.(map[string]any)
		if s["service"] == "Elasticsearch" {
			s["service_data"].(map[string]any)["last_indexed_block"] = 300000050
		}
	}
	behind, _ := json.Marshal(doc)
	if got, err := hyperion.New(serveBody(t, 200, behind, nil).URL).Handoff(ctx, 10); err != nil || got != 300000040 {
		t.Errorf("index behind: %d, %v; want 300000040", got, err)
	}
	// The node unreachable: its entry is an Error without data.
	for _, s := range doc["health"].([]any) {
		s := s.(map[string]any)
		if s["service"] == "NodeosRPC" {
			s["status"] = "Error"
			delete(s, "service_data")
		}
	}
	down, _ := json.Marshal(doc)
	if got, err := hyperion.New(serveBody(t, 200, down, nil).URL).Handoff(ctx, 0); err == nil || !strings.Contains(err.Error(), "no final block") {
		t.Errorf("node down: %d, %v; want an error", got, err)
	}
}
