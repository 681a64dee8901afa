package antelope

// Limits that bound what a decoder accepts, so that hostile input cannot make
// it allocate more than the input justifies or recurse without end. The
// element and byte limits are nodeos's (fc's MAX_NUM_ARRAY_ELEMENTS and
// MAX_SIZE_OF_BYTE_ARRAYS).
const (
	// MaxDepth is how deeply structs and variants may nest while decoding,
	// binary or JSON. Only recursive ABI types can reach it.
	MaxDepth = 64
	// MaxArrayElements is the largest element count a decoder accepts.
	MaxArrayElements = 1 << 20
	// MaxBytesLength is the largest bytes or string length a decoder accepts.
	MaxBytesLength = 20 << 20
)
