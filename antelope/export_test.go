package antelope

// BuiltinCodecs lists the ABI built-in types the test harness has a codec
// for, in its fixed order, for the external test that ties them to
// model.BuiltinTypes (package antelope cannot import model).
var BuiltinCodecs = builtinNames
