package wasm

import "encoding/binary"

// The privileged intrinsics: nodeos refuses them, when called, to a
// receiver that is not privileged.

func privileged(fn func(c *call, s []uint64)) func(c *call, s []uint64) {
	if fn == nil {
		return nil
	}
	return func(c *call, s []uint64) {
		if !c.host.Privileged() {
			raise(errUnaccessible(c.act.Receiver))
		}
		fn(c, s)
	}
}

func must(err error) {
	if err != nil {
		raise(err)
	}
}

func definePrivileged() {
	def("is_feature_active", "I", "i", privileged(func(c *call, s []uint64) { s[0] = 0 }))
	def("activate_feature", "I", "", privileged(func(c *call, s []uint64) {
		raise(newException(3170000, "unsupported_feature", "Unsupported feature", "Unsupported Hardfork Detected"))
	}))
	def("preactivate_feature", "i", "", privileged(func(c *call, s []uint64) {
		var d [32]byte
		copy(d[:], c.view(argI32(s, 0), 32))
		must(c.host.PreactivateFeature(d))
	}))
	def("is_feature_activated", "i", "i", func(c *call, s []uint64) {
		var d [32]byte
		copy(d[:], c.view(argI32(s, 0), 32))
		retBool(s, c.host.IsFeatureActivated(d))
	})
	def("set_resource_limits", "IIII", "", privileged(func(c *call, s []uint64) {
		for i, what := range []string{"ram resource limit", "net resource weight", "cpu resource weight"} {
			if int64(s[i+1]) < -1 {
				raise(errExecution("invalid value for " + what + " expected [-1,INT64_MAX]"))
			}
		}
		must(c.host.SetResourceLimits(s[0], int64(s[1]), int64(s[2]), int64(s[3])))
	}))
	def("get_resource_limits", "Iiii", "", privileged(func(c *call, s []uint64) {
		ram, net, cpu, err := c.host.ResourceLimits(s[0])
		must(err)
		c.putU64(argI32(s, 1), uint64(ram))
		c.putU64(argI32(s, 2), uint64(net))
		c.putU64(argI32(s, 3), uint64(cpu))
	}))
	def("get_wasm_parameters_packed", "iii", "i", privileged(nil))
	def("set_wasm_parameters_packed", "ii", "", privileged(nil))
	def("get_parameters_packed", "iiii", "i", privileged(nil))
	def("set_parameters_packed", "ii", "", privileged(nil))
	def("set_proposed_producers", "ii", "I", privileged(func(c *call, s []uint64) {
		v, err := c.host.SetProposedProducers(0, c.bytes(argI32(s, 0), argI32(s, 1)))
		must(err)
		s[0] = uint64(v)
	}))
	def("set_proposed_producers_ex", "Iii", "I", privileged(func(c *call, s []uint64) {
		if s[0] > 1 {
			raise(errExecution("Producer schedule is in an unknown format!"))
		}
		v, err := c.host.SetProposedProducers(s[0], c.bytes(argI32(s, 1), argI32(s, 2)))
		must(err)
		s[0] = uint64(v)
	}))
	def("get_blockchain_parameters_packed", "ii", "i", privileged(func(c *call, s []uint64) {
		p := c.host.BlockchainParameters()
		n := argI32(s, 1)
		switch {
		case n == 0:
			retI32(s, int32(len(p)))
		case uint32(len(p)) <= n:
			c.write(argI32(s, 0), p)
			retI32(s, int32(len(p)))
		default:
			retI32(s, 0)
		}
	}))
	def("set_blockchain_parameters_packed", "ii", "", privileged(func(c *call, s []uint64) {
		must(c.host.SetBlockchainParameters(c.bytes(argI32(s, 0), argI32(s, 1))))
	}))
	def("is_privileged", "I", "i", privileged(func(c *call, s []uint64) {
		ok, err := c.host.IsPrivileged(s[0])
		must(err)
		retBool(s, ok)
	}))
	def("set_privileged", "Ii", "", privileged(func(c *call, s []uint64) {
		must(c.host.SetPrivileged(s[0], argI32(s, 1) != 0))
	}))
	def("get_active_producers", "ii", "i", func(c *call, s []uint64) {
		var out []byte
		for _, p := range c.host.ActiveProducers() {
			out = binary.LittleEndian.AppendUint64(out, p)
		}
		c.copyOut(s, out, argI32(s, 0), argI32(s, 1))
	})
}
