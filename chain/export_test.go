package chain

import "github.com/antelopego/abigen/antelope"

// DecodeTrace and DecodeAnswer let the external tests hold an in-process
// chain's kept traces (internal/inproc) to what decoding gives.
var DecodeTrace = decodeTrace

func DecodeAnswer(c *Client, body []byte, id antelope.Checksum256) (*TransactResult, error) {
	return c.decodeAnswer(body, id)
}
