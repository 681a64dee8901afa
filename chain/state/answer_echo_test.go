package state_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/chain/state"
)

// An answer that quotes the request's token (in a row's error, as a row
// key, as a block number) makes an error without it: the HTTP core scrubs
// error bodies, and these are answers of status 200, whose text the state
// client put in its errors as the service wrote it.
func TestAnswerQuotingTheTokenIsScrubbed(t *testing.T) {
	const tok = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlY2hvZWQtdG9rZW4ifQ.ZWNob2VkLXNpZ25hdHVyZQ"
	answers := []string{
		`{"up_to_block_num":5,"row":{"key":"1","error":"%s may not read this row"}}`,
		`{"up_to_block_num":5,"row":{"key":"%s","hex":"00"}}`,
		`{"up_to_block_num":5,"row":{"key":"1 %s","hex":"00"}}`,
		`{"up_to_block_num":5,"row":{"key":"1","hex":"zz%s"}}`,
		`{"up_to_block_num":"%s","row":{"key":"1","hex":"00"}}`,
		`{"row":{"key":"1","hex":"00"},"x":"%s`,
	}
	abiAnswers := []string{
		`{"block_num":"%s","account":"eosio.token","abi":{"version":"eosio::abi/1.1"}}`,
		`{"block_num":"1%s","account":"eosio.token","abi":{"version":"eosio::abi/1.1"}}`,
	}
	for i, answer := range append(answers, abiAnswers...) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/auth/issue" {
				fmt.Fprintf(w, `{"token":%q,"expires_at":4000000000}`, tok)
				return
			}
			fmt.Fprintf(w, answer, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
		}))
		c := state.New(srv.URL, &state.Auth{AuthURL: srv.URL, APIKey: "server_key_of_this_customer"}).At(5)
		var err error
		if i < len(answers) {
			_, _, err = c.Row(context.Background(), antelope.MustName("eosio.token"), antelope.MustName("alice"), antelope.MustName("accounts"), 1)
		} else {
			_, err = c.ABI(context.Background(), antelope.MustName("eosio.token"))
		}
		srv.Close()
		if err == nil {
			t.Errorf("%s: no error", answer)
		} else if strings.Contains(err.Error(), "eyJzdWIiOiJlY2hvZWQtdG9rZW4ifQ") || strings.Contains(err.Error(), "ZWNob2VkLXNpZ25hdHVyZQ") {
			t.Errorf("%s: the token is in the error: %v", answer, err)
		}
	}
}
