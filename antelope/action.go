package antelope

import "strconv"

// PermissionLevel is an authorization: an actor and one of its permissions.
// Binary: two names. JSON: {"actor":"alice","permission":"active"}.
type PermissionLevel struct {
	Actor      Name // the account that authorizes
	Permission Name // its permission, usually "active"
}

// Active is actor's active permission, the authorization most actions
// carry: Active(alice) is PermissionLevel{alice, "active"}.
func Active(actor Name) PermissionLevel { return PermissionLevel{Actor: actor, Permission: nameActive} }

// Owner is actor's owner permission.
func Owner(actor Name) PermissionLevel { return PermissionLevel{Actor: actor, Permission: nameOwner} }

var nameActive, nameOwner = MustName("active"), MustName("owner")

// Action is an action as it appears in a transaction. Binary: account, name,
// authorization array, then data as bytes. JSON: the nodeos push_transaction
// shape {"account","name","authorization":[…],"data":"<hex>"}.
type Action struct {
	Account       Name              // the contract that executes the action
	Name          Name              // the action's name
	Authorization []PermissionLevel // who authorizes it; their keys sign the transaction
	Data          []byte            // the packed action payload
}

// AppendBinary appends the two names.
func (p PermissionLevel) AppendBinary(b []byte) ([]byte, error) {
	return AppendUint64(AppendUint64(b, uint64(p.Actor)), uint64(p.Permission)), nil
}

// MarshalBinary returns 16 bytes.
func (p PermissionLevel) MarshalBinary() ([]byte, error) { return p.AppendBinary(nil) }

// DecodeBinary reads two names.
func (p *PermissionLevel) DecodeBinary(d *Decoder) error {
	if err := p.Actor.DecodeBinary(d); err != nil {
		return AtField(err, "actor")
	}
	return AtField(p.Permission.DecodeBinary(d), "permission")
}

// UnmarshalBinary decodes exactly 16 bytes.
func (p *PermissionLevel) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, p) }

// AppendJSON appends {"actor":…,"permission":…}.
func (p PermissionLevel) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"actor":`...)
	b, _ = p.Actor.AppendJSON(b)
	b = append(b, `,"permission":`...)
	b, _ = p.Permission.AppendJSON(b)
	return append(b, '}'), nil
}

// MarshalJSON returns {"actor":…,"permission":…}.
func (p PermissionLevel) MarshalJSON() ([]byte, error) { return p.AppendJSON(nil) }

// DecodeJSON reads {"actor":…,"permission":…}; both are required.
func (p *PermissionLevel) DecodeJSON(r *JSONReader) error {
	var v PermissionLevel
	err := readObject(r, []objectField{
		{"actor", func(r *JSONReader) error { return v.Actor.DecodeJSON(r) }},
		{"permission", func(r *JSONReader) error { return v.Permission.DecodeJSON(r) }},
	})
	if err == nil {
		*p = v
	}
	return err
}

// UnmarshalJSON reads {"actor":…,"permission":…}.
func (p *PermissionLevel) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, p) }

// AppendBinary appends the action as inside a transaction.
func (a Action) AppendBinary(b []byte) ([]byte, error) {
	b = AppendUint64(b, uint64(a.Account))
	b = AppendUint64(b, uint64(a.Name))
	b, err := AppendLength(b, len(a.Authorization))
	if err != nil {
		return b, AtField(err, "authorization")
	}
	for _, p := range a.Authorization {
		b, _ = p.AppendBinary(b)
	}
	b, err = AppendBytes(b, a.Data)
	return b, AtField(err, "data")
}

// MarshalBinary returns the action as inside a transaction.
func (a Action) MarshalBinary() ([]byte, error) { return a.AppendBinary(nil) }

// DecodeBinary reads an action.
func (a *Action) DecodeBinary(d *Decoder) error {
	var v Action
	if err := v.Account.DecodeBinary(d); err != nil {
		return AtField(err, "account")
	}
	if err := v.Name.DecodeBinary(d); err != nil {
		return AtField(err, "name")
	}
	n, err := d.Length("authorization", 16)
	if err != nil {
		return AtField(err, "authorization")
	}
	v.Authorization = make([]PermissionLevel, n)
	for i := range v.Authorization {
		if err := v.Authorization[i].DecodeBinary(d); err != nil {
			return AtField(AtIndex(err, i), "authorization")
		}
	}
	if v.Data, err = d.Bytes(); err != nil {
		return AtField(err, "data")
	}
	*a = v
	return nil
}

// UnmarshalBinary decodes exactly one action.
func (a *Action) UnmarshalBinary(data []byte) error { return UnmarshalBinary(data, a) }

// AppendJSON appends the push_transaction JSON, with data as hex.
func (a Action) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"account":`...)
	b, _ = a.Account.AppendJSON(b)
	b = append(b, `,"name":`...)
	b, _ = a.Name.AppendJSON(b)
	b = append(b, `,"authorization":[`...)
	for i, p := range a.Authorization {
		if i > 0 {
			b = append(b, ',')
		}
		b, _ = p.AppendJSON(b)
	}
	b = append(b, `],"data":`...)
	b = AppendHexJSON(b, a.Data)
	return append(b, '}'), nil
}

// MarshalJSON returns the push_transaction JSON, with data as hex.
func (a Action) MarshalJSON() ([]byte, error) { return a.AppendJSON(nil) }

// DecodeJSON reads the push_transaction JSON. data must be hex: an action
// payload given as an object needs its ABI, which the generated package for
// the contract has.
func (a *Action) DecodeJSON(r *JSONReader) error {
	var v Action
	err := readObject(r, []objectField{
		{"account", func(r *JSONReader) error { return v.Account.DecodeJSON(r) }},
		{"name", func(r *JSONReader) error { return v.Name.DecodeJSON(r) }},
		{"authorization", func(r *JSONReader) error {
			if err := r.BeginArray(); err != nil {
				return err
			}
			for i := 0; ; i++ {
				ok, err := r.NextElement()
				if err != nil || !ok {
					return err
				}
				if i >= MaxArrayElements {
					return r.errorf("more than " + itoa(MaxArrayElements) + " elements")
				}
				var p PermissionLevel
				if err := p.DecodeJSON(r); err != nil {
					return AtIndex(err, i)
				}
				v.Authorization = append(v.Authorization, p)
			}
		}},
		{"data", func(r *JSONReader) error {
			if r.Peek() != JSONString {
				return r.errorf("data must be a hex string of the packed payload; decode an object with the contract's generated package")
			}
			var err error
			v.Data, err = r.Bytes()
			return err
		}},
	})
	if err == nil {
		if v.Authorization == nil {
			v.Authorization = []PermissionLevel{}
		}
		*a = v
	}
	return err
}

// UnmarshalJSON reads the push_transaction JSON.
func (a *Action) UnmarshalJSON(data []byte) error { return UnmarshalJSON(data, a) }

// objectField is one required member of a JSON object read by readObject.
type objectField struct {
	key    string
	decode func(r *JSONReader) error
}

// readObject reads an object whose members are all required; unknown keys
// are skipped and a key given twice is an error. It serves the few fixed
// objects of this package; generated code emits the same logic inline.
func readObject(r *JSONReader, fields []objectField) error {
	return readObjectRequiring(r, fields, len(fields))
}

// readObjectRequiring is readObject where only the first required fields
// must be present; the others may be left out.
func readObjectRequiring(r *JSONReader, fields []objectField, required int) error {
	if err := r.BeginObject(); err != nil {
		return err
	}
	var seen uint64
	for {
		key, ok, err := r.NextKey()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		found := false
		for i, f := range fields {
			if string(key) != f.key {
				continue
			}
			if seen&(1<<i) != 0 {
				return r.errorf("duplicate key " + strconv.Quote(f.key))
			}
			seen |= 1 << i
			if err := f.decode(r); err != nil {
				return AtField(err, f.key)
			}
			found = true
			break
		}
		if !found {
			if err := r.Skip(); err != nil {
				return err
			}
		}
	}
	for i, f := range fields[:required] {
		if seen&(1<<i) == 0 {
			return r.errorf("missing field " + strconv.Quote(f.key))
		}
	}
	return nil
}
