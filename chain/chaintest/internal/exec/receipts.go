package exec

import (
	"cmp"
	"crypto/sha256"
	"slices"

	"github.com/antelopego/abigen/antelope"
)

// receiptSeqs is an action receipt's numbers beyond its global sequence,
// as nodeos's apply_context gives them when the action completes.
type receiptSeqs struct {
	Recv      uint64               // the receiver's recv_sequence
	Auth      []authSeq            // each authorizer's auth_sequence, by name
	Code, ABI uint64               // the contract's code_sequence and abi_sequence
	Digest    antelope.Checksum256 // act_digest
}

type authSeq struct {
	Account antelope.Name
	Seq     uint64
}

// Sequence numbers the transaction's receipts chain-wide, in execution
// order: the global sequence (the chain's count of executed actions), the
// receiver's recv_sequence, each authorizer's auth_sequence (an actor
// named twice counts twice, and the receipt keeps the last), and the
// contract's code and ABI sequences and the action digest. commit: the
// chain's counters advance (a dry run shows what they would be).
func (c *Engine) Sequence(t *TrxContext, commit bool) {
	if t == nil {
		return
	}
	done := make([]*ActionTrace, 0, len(t.Traces))
	for _, tr := range t.Traces {
		if tr.GlobalSeq != 0 {
			done = append(done, tr)
		}
	}
	slices.SortFunc(done, func(a, b *ActionTrace) int { return cmp.Compare(a.GlobalSeq, b.GlobalSeq) })
	recv := map[antelope.Name]uint64{}
	auth := map[antelope.Name]uint64{}
	base := c.globalSeq
	for _, tr := range done {
		tr.GlobalSeq += base
		recv[tr.Receiver]++
		s := receiptSeqs{Digest: actDigest(&tr.Action, tr.ReturnValue)}
		if a := c.Account(tr.Receiver); a != nil {
			s.Recv = a.recvSequence + recv[tr.Receiver]
		}
		last := map[antelope.Name]uint64{}
		for _, l := range tr.Action.Authorization {
			auth[l.Actor]++
			if a := c.Account(l.Actor); a != nil {
				last[l.Actor] = a.authSequence + auth[l.Actor]
			}
		}
		for n, seq := range last {
			s.Auth = append(s.Auth, authSeq{n, seq})
		}
		slices.SortFunc(s.Auth, func(a, b authSeq) int { return cmp.Compare(a.Account, b.Account) })
		if a := c.Account(tr.Action.Account); a != nil {
			s.Code, s.ABI = a.codeSequence, a.abiSequence
		}
		tr.Seq = s
	}
	if !commit {
		return
	}
	c.globalSeq += uint64(len(done))
	for n, k := range recv {
		if a := c.Account(n); a != nil {
			a.recvSequence += k
		}
	}
	for n, k := range auth {
		if a := c.Account(n); a != nil {
			a.authSequence += k
		}
	}
}

// actDigest is nodeos's act_digest with the action_return_value feature
// (which every Spring chain has): sha256 of the hash of the action's
// account, name and authorization, then the hash of its data and return
// value, each packed.
func actDigest(a *antelope.Action, ret []byte) antelope.Checksum256 {
	// Sized for a usual action, on the stack; a bigger one grows them.
	var baseBuf [16 + 5 + 16*4]byte
	var dataBuf [256]byte
	base := antelope.AppendUint64(baseBuf[:0], uint64(a.Account))
	base = antelope.AppendUint64(base, uint64(a.Name))
	base = antelope.AppendVarUint32(base, uint32(len(a.Authorization)))
	for _, l := range a.Authorization {
		base = antelope.AppendUint64(base, uint64(l.Actor))
		base = antelope.AppendUint64(base, uint64(l.Permission))
	}
	data := antelope.AppendVarUint32(dataBuf[:0], uint32(len(a.Data)))
	data = append(data, a.Data...)
	data = antelope.AppendVarUint32(data, uint32(len(ret)))
	data = append(data, ret...)
	h1, h2 := sha256.Sum256(base), sha256.Sum256(data)
	return sha256.Sum256(append(h1[:], h2[:]...))
}
