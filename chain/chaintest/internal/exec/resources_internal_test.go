package exec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// netUsage against nodeos: every recorded send whose request was recorded
// too (chain/testdata/chain-responses), one or two signatures,
// uncompressed and zlib, with and without context-free data bytes — the
// NET nodeos billed is what netUsage computes.
func TestNetUsageIsNodeos(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "chain-responses", "*", "*.json"))
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec struct {
			Request struct {
				Params struct {
					Body string `json:"body"`
				} `json:"params"`
			} `json:"request"`
			JSON struct {
				Processed *struct {
					NetUsage int64           `json:"net_usage"`
					Receipt  json.RawMessage `json:"receipt"`
				} `json:"processed"`
			} `json:"json"`
		}
		if json.Unmarshal(data, &rec) != nil || rec.JSON.Processed == nil || rec.Request.Params.Body == "" {
			continue
		}
		body := []byte(rec.Request.Params.Body)
		var wrapped struct {
			Transaction json.RawMessage `json:"transaction"`
		}
		if json.Unmarshal(body, &wrapped) == nil && wrapped.Transaction != nil {
			body = wrapped.Transaction
		}
		var p antelope.PackedTransaction
		if err := p.UnmarshalJSON(body); err != nil {
			continue
		}
		if got, want := netUsage(&p), rec.JSON.Processed.NetUsage; got != want {
			t.Errorf("%s: net usage %d, nodeos billed %d", filepath.Base(f), got, want)
		}
		checked++
	}
	if checked < 4 {
		t.Errorf("only %d recordings checked", checked)
	}
}
