package exec

// nodeos's iterator cache (apply_context::iterator_cache): the numbers a
// contract's table calls hand out. One cache per index type (the primary
// table and each of the five secondary types), shared by the receiver and
// every notified account of one action, as nodeos shares its apply_context.
// A row iterator is 0, 1, 2… in the order rows were first reached, and
// stays the same for the same row; each table reached gets an end iterator
// -2, -3…; -1 is a table that does not exist.

// objRef names a row (or a secondary object) of a table by its primary
// key: rows are replaced, never mutated, so the cache holds where a row
// is, not the row.
type objRef struct {
	table tableID
	pk    uint64
}

type iterCache struct {
	ends   []tableID         // end iterator -(i+2) → its table
	endOf  map[tableID]int32 // table → its end iterator
	objs   []objRef          // row iterator → its row
	gone   []bool            // the row at that iterator was removed through it
	iterOf map[objRef]int32  // row → its iterator
}

// cacheTable returns the table's end iterator, making one the first time.
func (c *iterCache) cacheTable(id tableID) int32 {
	if it, ok := c.endOf[id]; ok {
		return it
	}
	if c.endOf == nil {
		c.endOf = map[tableID]int32{}
	}
	it := -int32(len(c.ends)) - 2
	c.ends = append(c.ends, id)
	c.endOf[id] = it
	return it
}

// tableOfEnd is the table of an end iterator (ok false: no such end
// iterator).
func (c *iterCache) tableOfEnd(it int32) (tableID, bool) {
	i := int(-it - 2)
	if it >= -1 || i >= len(c.ends) {
		return tableID{}, false
	}
	return c.ends[i], true
}

// add returns the row's iterator, making one the first time.
func (c *iterCache) add(ref objRef) int32 {
	if it, ok := c.iterOf[ref]; ok {
		return it
	}
	if c.iterOf == nil {
		c.iterOf = map[objRef]int32{}
	}
	it := int32(len(c.objs))
	c.objs = append(c.objs, ref)
	c.gone = append(c.gone, false)
	c.iterOf[ref] = it
	return it
}

// get is the row of a row iterator, with nodeos's errors for the others.
func (c *iterCache) get(it int32) (objRef, error) {
	switch {
	case it == -1:
		return objRef{}, errInvalidIterator("invalid iterator")
	case it < 0:
		return objRef{}, errTableOperation("dereference of end iterator")
	case int(it) >= len(c.objs):
		return objRef{}, errInvalidIterator("iterator out of range")
	case c.gone[it]:
		return objRef{}, errTableOperation("dereference of deleted object")
	}
	return c.objs[it], nil
}

// remove forgets a removed row's iterator (its number is not reused).
func (c *iterCache) remove(it int32) error {
	switch {
	case it == -1:
		return errInvalidIterator("invalid iterator")
	case it < 0:
		return errTableOperation("cannot call remove on end iterators")
	case int(it) >= len(c.objs):
		return errInvalidIterator("iterator out of range")
	}
	if !c.gone[it] {
		c.gone[it] = true
		delete(c.iterOf, c.objs[it])
	}
	return nil
}
