package chain

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestOutcomeTableCoversSpring holds the outcome table to spring's list of
// exceptions (testdata/spring-exceptions.txt, copied from its
// exceptions.hpp and libfc's exception.hpp): every code there is in the
// table under spring's name, with the source its stage is read from, and
// the table has nothing else. A code spring adds is then found by this
// test, not by an outside review.
func TestOutcomeTableCoversSpring(t *testing.T) {
	f, err := os.Open("testdata/spring-exceptions.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spring := map[int64]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		code, err := strconv.ParseInt(fields[0], 10, 64)
		if len(fields) != 3 || err != nil {
			t.Fatalf("bad line %q", line)
		}
		spring[code] = fields[1]
	}
	if len(spring) < 240 {
		t.Fatalf("only %d codes read", len(spring))
	}
	for code, name := range spring {
		r := outcomeByCode[code]
		switch {
		case r == nil:
			t.Errorf("%d %s: not in the outcome table", code, name)
		case r.name != name:
			t.Errorf("%d: the table names it %s, spring %s", code, r.name, name)
		case r.source == "":
			t.Errorf("%d %s: no source for its stage", code, name)
		}
	}
	if len(outcomeByCode) != len(outcomeTable) {
		t.Errorf("the table has %d rows for %d codes: a code twice", len(outcomeTable), len(outcomeByCode))
	}
	for _, r := range outcomeTable {
		if _, ok := spring[r.code]; !ok {
			t.Errorf("%d %s: in the table, not in spring's list", r.code, r.name)
		}
	}
}

// TestOutcomeTableStages pins the stages issue #31 read in spring's source:
// a code that can come after execution never proves a refusal; a plain fc
// exception a contract raises does; a code under another name proves
// nothing.
func TestOutcomeTableStages(t *testing.T) {
	for _, c := range []struct {
		code    int64
		name    string
		refuses bool
	}{
		{3040018, "tx_resource_exhaustion", false}, // trx_retry_db track_transaction, after execution
		{3040008, "tx_duplicate", false},           // only queued, may expire
		{3040005, "expired_tx_exception", false},   // trx_retry_db clear_expired
		{3080011, "interrupt_exception", false},    // retried by the producer
		{2, "timeout_exception", false},
		{0, "exception", false},
		{13, "std_exception", false},
		{3015010, "abi_serialization_deadline_exception", false},
		{8, "out_of_range_exception", true},
		{10, "assert_exception", true},
		{3050003, "eosio_assert_message_exception", true},
		{3040007, "invalid_ref_block_exception", true},
		{3100008, "unsupported_feature", true},
		{3080004, "tx_cpu_usage_exceeded", true},
		{3050003, "timeout_exception", false}, // a name spring does not give the code
		{3999999, "new_exception", false},     // a code the table does not have
	} {
		if got := stageOf(c.code, c.name).refuses(); got != c.refuses {
			t.Errorf("%d %s: refuses %v (stage %v)", c.code, c.name, got, stageOf(c.code, c.name))
		}
	}
}

// TestStatusTable: a gateway's refusal before nodeos is a refusal; a 5xx
// or a 408 without nodeos's answer may follow an execution.
func TestStatusTable(t *testing.T) {
	for status, refuses := range map[int]bool{400: true, 401: true, 403: true, 404: true, 413: true, 429: true,
		408: false, 500: false, 502: false, 503: false, 504: false, 302: false, 200: false} {
		if got := refusedStatus(status); got != refuses {
			t.Errorf("HTTP %d: refused %v", status, got)
		}
	}
	for _, r := range statusTable {
		if r.source == "" || r.stage != stageBefore && r.stage != stageUnknown {
			t.Errorf("HTTP %d: stage %v, source %q", r.status, r.stage, r.source)
		}
	}
}
