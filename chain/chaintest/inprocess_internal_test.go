package chaintest

import (
	"net/http"
	"strings"
	"testing"
)

// A panic in the chain's own code while serving in process drops the
// connection, as net/http does over a socket, instead of killing the test
// binary.
func TestInProcessServePanic(t *testing.T) {
	broken := &Chain{} // no genesis block: get_info indexes past the end
	req, err := http.NewRequest(http.MethodPost, inProcessURL+"/v1/chain/get_info", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := inProcess{broken}.RoundTrip(req)
	if err == nil || !strings.Contains(err.Error(), "connection closed") {
		t.Fatalf("a panic while serving: %v, %v", resp, err)
	}
}
