package chaintest_test

import (
	"bytes"
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// leap's action_results_tests against its action_results.wasm: a return
// value up to max_action_return_value_size (256 bytes) reaches the trace
// exactly; one byte over fails with action_return_value_exception. The
// privileged half (retmaxlim, setliminv) raises the limit with
// set_parameters_packed, one of the intrinsics chaintest does not
// implement, and is not replayed.
func TestLeapActionResultsTests(t *testing.T) {
	w := newWasmTester(t)
	w.c.ProduceBlocks(2)
	w.accounts("test")
	w.deploy("test", "action_results")
	w.c.Produce()
	call := func(action string) ([]byte, error) {
		t.Helper()
		res, err := w.push(act("test", action, nil, "test"))
		w.c.Produce()
		if err != nil {
			return nil, err
		}
		v, ok := res.ReturnValue(antelope.MustName("test"), antelope.MustName(action))
		if !ok {
			t.Fatalf("%s: no action trace", action)
		}
		return v, nil
	}
	v, err := call("actionresret")
	if err != nil || !bytes.Equal(v, []byte{10, 0, 0, 0}) {
		t.Errorf("actionresret: %x, %v; want the int 10", v, err)
	}
	// 254 '0's as vector<char>: a two-byte length prefix, 256 bytes in all.
	v, err = call("retlim")
	if want := append([]byte{0xfe, 0x01}, bytes.Repeat([]byte{'0'}, 254)...); err != nil || !bytes.Equal(v, want) {
		t.Errorf("retlim: %d bytes, %v; want the 256 bytes of 254 '0's", len(v), err)
	}
	for _, action := range []string{"retoverlim", "ret1overlim"} {
		_, err := call(action)
		wantException(t, err, "action_return_value_exception", "action return value size must be less or equal to 256 bytes")
	}
}
