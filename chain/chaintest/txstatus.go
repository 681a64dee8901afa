package chaintest

// WithoutTransactionStatus makes the chain answer get_transaction_status
// with unsupported_feature, as a node without
// transaction-finality-status-max-storage-size-gb does (nodeos's default).
// By default the chain tracks every transaction it executed.
func WithoutTransactionStatus() Option { return func(o *options) { o.noStatus = true } }
