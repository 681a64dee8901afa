package randcontract_test

import (
	"encoding/hex"
	"fmt"

	"github.com/antelopego/abigen/antelope"
	"github.com/antelopego/abigen/generated/randcontract"
)

// Build a requestrand action for orng.wax and print it as nodeos's
// push_transaction JSON, with the payload packed as hex.
func ExampleContract_Requestrand() {
	act, err := randcontract.Default.Requestrand(randcontract.Requestrand{
		AssocID:      42,
		SigningValue: 0x1122334455667788,
		Caller:       antelope.MustName("mygamedapp"),
	}, antelope.Active(antelope.MustName("mygamedapp")))
	if err != nil {
		panic(err)
	}
	js, _ := act.MarshalJSON()
	fmt.Println(string(js))
	// Output:
	// {"account":"orng.wax","name":"requestrand","authorization":[{"actor":"mygamedapp","permission":"active"}],"data":"2a0000000000000088776655443322110040ad2629699897"}
}

// Decode a row of the jobs.a table, as get_table_rows returns it with
// "json": false.
func ExampleDecodeTableRow() {
	row, _ := hex.DecodeString("07000000000000002a0000000000000088776655443322110040ad2629699897")
	v, err := randcontract.DecodeTableRow("jobs.a", row)
	if err != nil {
		panic(err)
	}
	job := v.(*randcontract.JobsA)
	fmt.Println(job.ID, job.AssocID, job.Caller)
	js, _ := job.MarshalJSON()
	fmt.Println(string(js))
	// Output:
	// 7 42 mygamedapp
	// {"id":7,"assoc_id":42,"signing_value":"1234605616436508552","caller":"mygamedapp"}
}

// Decode action data by the action's name, as an indexer does.
func ExampleDecodeAction() {
	data, _ := hex.DecodeString("0207000000000000000800000000000000")
	v, err := randcontract.DecodeAction("killjobs", data)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%T %v\n", v, v.(*randcontract.Killjobs).JobIDs)

	_, err = randcontract.DecodeAction("requestrand", []byte{1, 2, 3})
	fmt.Println(err)
	// Output:
	// *randcontract.Killjobs [7 8]
	// requestrand.assoc_id: decoding uint64 at byte 0: need 8 bytes, have 3
}
