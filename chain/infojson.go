package chain

import (
	"encoding/json"
	"strings"

	"github.com/antelopego/abigen/antelope"
)

// decodeInfoFast reads get_info's answer as encoding/json reads it into
// Info, for the answers nodes write: Transact asks get_info before every
// transaction, and encoding/json's reflection was a thirtieth of one. ok
// is false when the answer has anything whose reading it leaves to
// encoding/json — a null, a number or string in another form than plain
// digits and printable ASCII, a key matching a field only in another case
// (encoding/json folds case), or any error — so that the answer then read
// by encoding/json gives exactly what it gave before. The syntax is
// checked by json.Valid, as json.Unmarshal checks it before reading.
func decodeInfoFast(body []byte, info *Info) (ok bool) {
	if !json.Valid(body) {
		return false
	}
	r := antelope.NewJSONReader(body)
	if r.BeginObject() != nil {
		return false
	}
	for {
		key, more, err := r.NextKey()
		if err != nil {
			return false
		}
		if !more {
			break
		}
		if r.Peek() == antelope.JSONNull {
			return false
		}
		switch string(key) {
		case "server_version":
			ok = infoText(r, &info.ServerVersion)
		case "server_version_string":
			ok = infoText(r, &info.ServerVersionString)
		case "chain_id":
			ok = info.ChainID.DecodeJSON(r) == nil
		case "head_block_num":
			ok = infoNum(r, &info.HeadBlockNum)
		case "head_block_id":
			ok = info.HeadBlockID.DecodeJSON(r) == nil
		case "head_block_time":
			ok = info.HeadBlockTime.DecodeJSON(r) == nil
		case "head_block_producer":
			ok = info.HeadBlockProducer.DecodeJSON(r) == nil
		case "last_irreversible_block_num":
			ok = infoNum(r, &info.LastIrreversibleBlockNum)
		case "last_irreversible_block_id":
			ok = info.LastIrreversibleBlockID.DecodeJSON(r) == nil
		default:
			ok = !infoFieldFolded(key) && r.Skip() == nil
		}
		if !ok {
			return false
		}
	}
	return r.Finish() == nil
}

// infoFields are the JSON names of Info's fields.
var infoFields = [...]string{"server_version", "server_version_string", "chain_id", "head_block_num", "head_block_id",
	"head_block_time", "head_block_producer", "last_irreversible_block_num", "last_irreversible_block_id"}

// infoFieldFolded tells whether encoding/json could take key for one of
// Info's fields though it is not exactly its name: it matches names
// ignoring case, with Unicode's folding (so a non-ASCII key is left to it).
func infoFieldFolded(key []byte) bool {
	for _, c := range key {
		if c >= 0x80 {
			return true
		}
	}
	for _, f := range infoFields {
		if strings.EqualFold(string(key), f) {
			return true
		}
	}
	return false
}

// infoText reads a string of printable ASCII with no escape.
func infoText(r *antelope.JSONReader, dst *string) bool {
	if r.Peek() != antelope.JSONString {
		return false
	}
	start := r.Offset()
	s, err := r.StringBytes()
	if err != nil || r.Offset()-start != len(s)+2 {
		return false // an escape: encoding/json's unescaping decides
	}
	for _, c := range s {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	*dst = string(s)
	return true
}

// infoNum reads a uint32 written as plain digits, no sign, fraction or
// exponent, without a redundant leading zero.
func infoNum(r *antelope.JSONReader, dst *uint32) bool {
	if r.Peek() != antelope.JSONNumber {
		return false
	}
	text, _, err := r.Scalar("uint32")
	if err != nil || len(text) == 0 || len(text) > 10 || (text[0] == '0' && len(text) > 1) {
		return false
	}
	var v uint64
	for _, c := range text {
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + uint64(c-'0')
	}
	if v > 1<<32-1 {
		return false
	}
	*dst = uint32(v)
	return true
}
