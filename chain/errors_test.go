package chain_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/antelopego/abigen/chain"
)

// AssertMessage finds the contract's message in any error that wraps
// nodeos's eosio_assert answer, and nothing in any other.
func TestAssertMessage(t *testing.T) {
	assert := &chain.APIError{Name: "eosio_assert_message_exception", Code: 3050003,
		Details: []chain.ErrorDetail{{Message: "assertion failure with message: overdrawn balance"}}}
	code := &chain.APIError{Name: "eosio_assert_code_exception", Code: 3050004,
		Details: []chain.ErrorDetail{{Message: "assertion failure with error code: 42"}}}
	other := &chain.APIError{Name: "missing_auth_exception", Code: 3090004,
		Details: []chain.ErrorDetail{{Message: "missing authority of alice"}}}
	for _, c := range []struct {
		err  error
		msg  string
		isIt bool
	}{
		{assert, "overdrawn balance", true},
		{fmt.Errorf("transfer: %w", assert), "overdrawn balance", true},
		{code, "42", true},
		{other, "", false},
		{errors.New("assertion failure with message: not from nodeos"), "", false},
		{nil, "", false},
	} {
		if msg, ok := chain.AssertMessage(c.err); msg != c.msg || ok != c.isIt {
			t.Errorf("%v: %q, %v; want %q, %v", c.err, msg, ok, c.msg, c.isIt)
		}
	}
}
