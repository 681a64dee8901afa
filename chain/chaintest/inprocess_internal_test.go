package chaintest

import (
	"bytes"
	"log"
	"net/http"
	"strings"
	"testing"
)

// A panic in the chain's own code while serving in process drops the
// connection, as net/http does over a socket, instead of killing the test
// binary.
func TestInProcessServePanic(t *testing.T) {
	broken := &Chain{} // no genesis block: get_info indexes past the end
	var logged bytes.Buffer
	prev := log.Writer()
	log.SetOutput(&logged)
	t.Cleanup(func() { log.SetOutput(prev) })
	req, err := http.NewRequest(http.MethodPost, inProcessURL+"/v1/chain/get_info", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := inProcess{broken}.RoundTrip(req)
	if err == nil || !strings.Contains(err.Error(), "connection closed") {
		t.Fatalf("a panic while serving: %v, %v", resp, err)
	}
	if !strings.Contains(logged.String(), "panic serving /v1/chain/get_info") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("the panic was not logged with its stack:\n%s", logged.String())
	}
}
