package chaintest_test

import (
	"testing"

	"github.com/antelopego/abigen/antelope"
)

// leap's unittests/api_tests.cpp db_tests and multi_index_tests, against
// the real test_api_db.wasm and test_api_multi_index.wasm: the contracts
// check themselves (an assertion names what went wrong), and each
// check_failure case must fail with its exact message.

func TestLeapDBTests(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("testapi", "testapi2")
	w.c.ProduceBlocks(10)
	w.deploy("testapi", "test_api_db")
	w.deploy("testapi2", "test_api_db")
	w.c.Produce()
	for _, a := range []string{"pg", "pl", "pu", "s1g", "s1l", "s1u"} {
		if _, err := w.push(act("testapi", a, nil, "testapi")); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	tia := func(account string, val uint64, index uint32, store bool) error {
		data := antelope.AppendUint64(nil, uint64(antelope.MustName("testapi")))
		data = antelope.AppendUint64(data, val)
		data = antelope.AppendUint32(data, index)
		data = antelope.AppendBool(data, store)
		_, err := w.push(act(account, "tia", data, account))
		return err
	}
	for _, index := range []uint32{0, 1} {
		must(t, tia("testapi", 10, index, true))
		// testapi2 finds testapi's row and updates it: the host refuses.
		wantException(t, tia("testapi2", 20, index, true), "table_access_violation", "db access violation")
		must(t, tia("testapi", 10, index, false)) // the value did not change
	}
	const nan = "NaN is not an allowed value for a secondary key"
	_, err := w.push(act("testapi", "sdnancreate", nil, "testapi"))
	wantException(t, err, "transaction_exception", nan)
	_, err = w.push(act("testapi", "sdnanmodify", nil, "testapi"))
	wantException(t, err, "transaction_exception", nan)
	for lookup := range uint32(3) {
		_, err = w.push(act("testapi", "sdnanlookup", antelope.AppendUint32(nil, lookup), "testapi"))
		wantException(t, err, "transaction_exception", nan)
	}
	// A 256-bit key at an address that is not aligned.
	w.mustPush(act("testapi", "sk32align", nil, "testapi"))
}

func TestLeapMultiIndexTests(t *testing.T) {
	w := newWasmTester(t)
	w.accounts("testapi")
	w.c.Produce()
	w.deploy("testapi", "test_api_multi_index")
	w.c.Produce()
	for _, a := range []string{"s1g", "s1store", "s1check", "s2g", "s2store", "s2check", "s2autoinc", "s2autoinc1",
		"s2autoinc2", "s3g", "sdg", "sldg"} {
		if _, err := w.push(act("testapi", a, nil, "testapi")); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	for _, c := range []struct{ action, msg string }{
		{"s1pkend", "cannot increment end iterator"},
		{"s1skend", "cannot increment end iterator"},
		{"s1pkbegin", "cannot decrement iterator at beginning of table"},
		{"s1skbegin", "cannot decrement iterator at beginning of index"},
		{"s1pkref", "object passed to iterator_to is not in multi_index"},
		{"s1skref", "object passed to iterator_to is not in multi_index"},
		{"s1pkitrto", "object passed to iterator_to is not in multi_index"},
		{"s1pkmodify", "cannot pass end iterator to modify"},
		{"s1pkerase", "cannot pass end iterator to erase"},
		{"s1skitrto", "object passed to iterator_to is not in multi_index"},
		{"s1skmodify", "cannot pass end iterator to modify"},
		{"s1skerase", "cannot pass end iterator to erase"},
		{"s1modpk", "updater cannot change primary key when modifying an object"},
		{"s1exhaustpk", "next primary key in table is at autoincrement limit"},
		{"s1findfail1", "unable to find key"},
		{"s1findfail2", "unable to find primary key in require_find"},
		{"s1findfail3", "unable to find secondary key"},
		{"s1findfail4", "unable to find sec key"},
	} {
		_, err := w.push(act("testapi", c.action, nil, "testapi"))
		wantAssert(t, err, c.msg)
	}
	// The iterator cache shared between secondary and primary lookups.
	w.mustPush(act("testapi", "s1skcache", nil, "testapi"))
	w.mustPush(act("testapi", "s1pkcache", nil, "testapi"))
}
