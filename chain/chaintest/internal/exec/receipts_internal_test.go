package exec

import (
	"os"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/ship/protocol"
)

// The act_digest of every action of a real state-history capture (a WAX
// testnet block with action return values, ship/testdata) is what
// actDigest computes from the action and its return value.
func TestActDigestAsNodeos(t *testing.T) {
	msg, err := os.ReadFile("../../../../ship/testdata/waxdev-25077-return_value-result.bin")
	if err != nil {
		t.Fatal(err)
	}
	var res protocol.Result
	if err := antelope.UnmarshalBinary(msg, &res); err != nil {
		t.Fatal(err)
	}
	blocks := res.Value.(*protocol.GetBlocksResultV0)
	d := antelope.NewDecoder(*blocks.Traces)
	n, err := d.VarUint32()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for range n {
		var tt protocol.TransactionTrace
		if err := tt.DecodeBinary(d); err != nil {
			t.Fatal(err)
		}
		for _, at := range tt.Value.(*protocol.TransactionTraceV0).ActionTraces {
			a := at.Value.(*protocol.ActionTraceV1)
			act := antelope.Action{Account: a.Act.Account, Name: a.Act.Name, Data: a.Act.Data}
			for _, l := range a.Act.Authorization {
				act.Authorization = append(act.Authorization, antelope.PermissionLevel{Actor: l.Actor, Permission: l.Permission})
			}
			want := a.Receipt.Value.(*protocol.ActionReceiptV0).ActDigest
			if got := actDigest(&act, a.ReturnValue); got != want {
				t.Errorf("%s::%s (return value %x): digest %v, nodeos %v", act.Account, act.Name, a.ReturnValue, got, want)
			}
			checked++
		}
	}
	if checked != 2 {
		t.Errorf("%d actions checked", checked)
	}
}
