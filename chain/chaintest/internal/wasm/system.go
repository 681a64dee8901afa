package wasm

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"

	"github.com/antelopego/abigen/antelope"
)

// maxAssertMessage is how much of an assertion's message nodeos keeps.
const maxAssertMessage = 1024

func defineSystem() {
	// cf_system
	def("abort", "", "", func(c *call, s []uint64) { raise(errAbort()) })
	def("eosio_assert", "ii", "", func(c *call, s []uint64) {
		if argI32(s, 0) == 0 {
			raise(errAssertMessage(c.cstring(argI32(s, 1), maxAssertMessage)))
		}
	})
	def("eosio_assert_message", "iii", "", func(c *call, s []uint64) {
		if argI32(s, 0) == 0 {
			msg := c.view(argI32(s, 1), argI32(s, 2))
			raise(errAssertMessage(string(msg[:min(len(msg), maxAssertMessage)])))
		}
	})
	def("eosio_assert_code", "iI", "", func(c *call, s []uint64) {
		if argI32(s, 0) == 0 {
			raise(errAssertCode(s[1]))
		}
	})
	def("eosio_exit", "i", "", func(c *call, s []uint64) { panic(exitSignal{}) })

	// action
	def("read_action_data", "ii", "i", func(c *call, s []uint64) {
		c.copyOut(s, c.act.Data, argI32(s, 0), argI32(s, 1))
	})
	def("action_data_size", "", "i", func(c *call, s []uint64) { retI32(s, int32(len(c.act.Data))) })
	def("current_receiver", "", "I", func(c *call, s []uint64) { s[0] = c.act.Receiver })
	def("set_action_return_value", "ii", "", func(c *call, s []uint64) {
		if err := c.host.SetActionReturnValue(c.bytes(argI32(s, 0), argI32(s, 1))); err != nil {
			raise(err)
		}
	})
	def("get_sender", "", "I", func(c *call, s []uint64) { s[0] = c.host.Sender() })

	// console
	def("prints", "i", "", func(c *call, s []uint64) { c.host.Print(c.cstring(argI32(s, 0), -1)) })
	def("prints_l", "ii", "", func(c *call, s []uint64) { c.host.Print(string(c.view(argI32(s, 0), argI32(s, 1)))) })
	def("printi", "I", "", func(c *call, s []uint64) { c.host.Print(strconv.FormatInt(int64(s[0]), 10)) })
	def("printui", "I", "", func(c *call, s []uint64) { c.host.Print(strconv.FormatUint(s[0], 10)) })
	def("printi128", "i", "", func(c *call, s []uint64) {
		lo, hi := c.u128(argI32(s, 0))
		v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		v.Or(v, new(big.Int).SetUint64(lo))
		if hi>>63 == 1 {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
		}
		c.host.Print(v.String())
	})
	def("printui128", "i", "", func(c *call, s []uint64) {
		lo, hi := c.u128(argI32(s, 0))
		v := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
		c.host.Print(v.Or(v, new(big.Int).SetUint64(lo)).String())
	})
	def("printsf", "f", "", func(c *call, s []uint64) { c.host.Print(formatScientific(float64(argF32(s, 0)), 6)) })
	def("printdf", "F", "", func(c *call, s []uint64) { c.host.Print(formatScientific(argF64(s, 0), 15)) })
	def("printqf", "i", "", func(c *call, s []uint64) {
		lo, hi := c.u128(argI32(s, 0))
		c.host.Print(formatFloat128(lo, hi))
	})
	def("printn", "I", "", func(c *call, s []uint64) { c.host.Print(antelope.Name(s[0]).String()) })
	def("printhex", "ii", "", func(c *call, s []uint64) { c.host.Print(hex.EncodeToString(c.view(argI32(s, 0), argI32(s, 1)))) })

	// memory
	def("memcpy", "iii", "i", func(c *call, s []uint64) {
		dst, src, n := argI32(s, 0), argI32(s, 1), argI32(s, 2)
		d := int64(dst) - int64(src)
		if d < 0 {
			d = -d
		}
		if d < int64(n) {
			raise(errOverlap())
		}
		c.write(dst, c.view(src, n))
		s[0] = uint64(dst)
	})
	def("memmove", "iii", "i", func(c *call, s []uint64) {
		dst, src, n := argI32(s, 0), argI32(s, 1), argI32(s, 2)
		c.write(dst, c.bytes(src, n))
		s[0] = uint64(dst)
	})
	def("memcmp", "iii", "i", func(c *call, s []uint64) {
		n := argI32(s, 2)
		retI32(s, int32(bytes.Compare(c.view(argI32(s, 0), n), c.view(argI32(s, 1), n))))
	})
	def("memset", "iii", "i", func(c *call, s []uint64) {
		dst, v, n := argI32(s, 0), byte(argI32(s, 1)), argI32(s, 2)
		b := c.view(dst, n)
		for i := range b {
			b[i] = v
		}
		s[0] = uint64(dst)
	})

	// authorization
	def("require_auth", "I", "", func(c *call, s []uint64) {
		if err := c.host.RequireAuth(s[0]); err != nil {
			raise(err)
		}
	})
	def("require_auth2", "II", "", func(c *call, s []uint64) {
		if err := c.host.RequireAuth2(s[0], s[1]); err != nil {
			raise(err)
		}
	})
	def("has_auth", "I", "i", func(c *call, s []uint64) { retBool(s, c.host.HasAuth(s[0])) })
	def("require_recipient", "I", "", func(c *call, s []uint64) {
		if err := c.host.RequireRecipient(s[0]); err != nil {
			raise(err)
		}
	})
	def("is_account", "I", "i", func(c *call, s []uint64) { retBool(s, c.host.IsAccount(s[0])) })
	def("get_code_hash", "Iiii", "i", func(c *call, s []uint64) {
		seq, hash, vmType, vmVersion := c.host.CodeHash(s[0])
		// struct_version (varuint32 0), code_sequence, code_hash, vm_type, vm_version
		out := []byte{0}
		out = binary.LittleEndian.AppendUint64(out, seq)
		out = append(out, hash[:]...)
		out = append(out, vmType, vmVersion)
		if uint32(len(out)) <= argI32(s, 3) {
			c.write(argI32(s, 2), out)
		}
		retI32(s, int32(len(out)))
	})
	def("check_transaction_authorization", "iiiiii", "i", func(c *call, s []uint64) {
		ok, err := c.host.CheckTransactionAuthorization(c.bytes(argI32(s, 0), argI32(s, 1)),
			c.bytes(argI32(s, 2), argI32(s, 3)), c.bytes(argI32(s, 4), argI32(s, 5)))
		if err != nil {
			raise(err)
		}
		retBool(s, ok)
	})
	def("check_permission_authorization", "IIiiiiI", "i", func(c *call, s []uint64) {
		if s[6] > math.MaxInt64 {
			raise(newException(3050000, "action_validate_exception", "Action validate exception", "provided delay is too large"))
		}
		ok, err := c.host.CheckPermissionAuthorization(s[0], s[1], c.bytes(argI32(s, 2), argI32(s, 3)),
			c.bytes(argI32(s, 4), argI32(s, 5)), s[6])
		if err != nil {
			raise(err)
		}
		retBool(s, ok)
	})
	def("get_permission_last_used", "II", "I", func(c *call, s []uint64) {
		v, err := c.host.PermissionLastUsed(s[0], s[1])
		if err != nil {
			raise(err)
		}
		s[0] = uint64(v)
	})
	def("get_account_creation_time", "I", "I", func(c *call, s []uint64) {
		v, err := c.host.AccountCreationTime(s[0])
		if err != nil {
			raise(err)
		}
		s[0] = uint64(v)
	})

	// time and block
	def("current_time", "", "I", func(c *call, s []uint64) { s[0] = uint64(c.host.Now()) })
	def("publication_time", "", "I", func(c *call, s []uint64) { s[0] = uint64(c.host.PublicationTime()) })
	def("get_block_num", "", "i", func(c *call, s []uint64) { s[0] = uint64(c.host.BlockNum()) })

	// transaction
	def("send_inline", "ii", "", func(c *call, s []uint64) { sendInline(c, s, false) })
	def("send_context_free_inline", "ii", "", func(c *call, s []uint64) { sendInline(c, s, true) })
	// Deferred transactions, as spring runs them since
	// DISABLE_DEFERRED_TRXS_STAGE_1: send_deferred reads the transaction and
	// schedules nothing; cancel_deferred finds nothing to cancel.
	def("send_deferred", "iIiii", "", func(c *call, s []uint64) {
		c.view(argI32(s, 0), 16)
		var trx antelope.Transaction
		if err := trx.DecodeBinary(antelope.NewDecoder(c.view(argI32(s, 2), argI32(s, 3)))); err != nil {
			raise(newException(3040000, "transaction_exception", "Transaction exception", "unpacking the deferred transaction: "+err.Error()))
		}
	})
	def("cancel_deferred", "i", "i", func(c *call, s []uint64) {
		c.view(argI32(s, 0), 16)
		retI32(s, 0)
	})
	def("read_transaction", "ii", "i", func(c *call, s []uint64) {
		trx, _ := c.host.Transaction().Transaction.MarshalBinary()
		c.copyOut(s, trx, argI32(s, 0), argI32(s, 1))
	})
	def("transaction_size", "", "i", func(c *call, s []uint64) {
		trx, _ := c.host.Transaction().Transaction.MarshalBinary()
		retI32(s, int32(len(trx)))
	})
	def("expiration", "", "i", func(c *call, s []uint64) { s[0] = uint64(c.host.Transaction().Expiration) })
	def("tapos_block_num", "", "i", func(c *call, s []uint64) { s[0] = uint64(c.host.Transaction().RefBlockNum) })
	def("tapos_block_prefix", "", "i", func(c *call, s []uint64) { s[0] = uint64(c.host.Transaction().RefBlockPrefix) })
	def("get_action", "iiii", "i", func(c *call, s []uint64) {
		trx := c.host.Transaction()
		typ, index := argI32(s, 0), argI32(s, 1)
		var list []antelope.Action
		switch typ {
		case 0:
			list = trx.ContextFreeActions
		case 1:
			list = trx.Actions
		default:
			raise(newException(3050005, "action_not_found_exception", "Action can not be found", "action is not found"))
		}
		if index >= uint32(len(list)) {
			retI32(s, -1)
			return
		}
		packed, _ := list[index].MarshalBinary()
		if uint32(len(packed)) <= argI32(s, 3) {
			c.write(argI32(s, 2), packed)
		}
		retI32(s, int32(len(packed)))
	})
	def("get_context_free_data", "iii", "i", func(c *call, s []uint64) {
		trx := c.host.Transaction()
		index := argI32(s, 0)
		if index >= uint32(len(trx.ContextFreeData)) {
			retI32(s, -1)
			return
		}
		c.copyOut(s, trx.ContextFreeData[index], argI32(s, 1), argI32(s, 2))
	})
}

// maxInlineActionSize is nodeos's default max_inline_action_size.
const maxInlineActionSize = 512 * 1024

func sendInline(c *call, s []uint64, contextFree bool) {
	n := argI32(s, 1)
	if n >= maxInlineActionSize {
		raise(newException(3050009, "inline_action_too_big", "Inline Action exceeds maximum size limit", "inline action too big"))
	}
	if err := c.host.SendInline(c.bytes(argI32(s, 0), n), contextFree); err != nil {
		raise(err)
	}
}

// formatScientific prints as C++ streams do in std::scientific with the
// given precision: "1.500000000000000e+00", "inf", "-nan".
func formatScientific(v float64, prec int) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case math.IsNaN(v):
		if math.Signbit(v) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(v, 'e', prec, 64)
}
