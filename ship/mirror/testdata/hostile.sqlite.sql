CREATE TABLE IF NOT EXISTS "select" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT NOT NULL,
	"owner" TEXT,
	"select" TEXT,
	"a""b" TEXT,
	"Amount" INTEGER,
	"amount_2" INTEGER,
	"x; DROP TABLE accounts; --" TEXT,
	"code_2" TEXT,
	"_raw_2" BLOB,
	"bal_amount" INTEGER,
	"bal_symbol" TEXT,
	"bal_amount_2" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" INTEGER,
	"tab_here" INTEGER,
	"ünï" INTEGER,
	"opt" TEXT,
	"list" TEXT,
	"pair" TEXT,
	"choice" TEXT,
	"when" INTEGER,
	"ext_amount" INTEGER,
	"ext_symbol" TEXT,
	"_raw" BLOB NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "order" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT NOT NULL,
	"owner" TEXT,
	"select" TEXT,
	"a""b" TEXT,
	"Amount" INTEGER,
	"amount_2" INTEGER,
	"x; DROP TABLE accounts; --" TEXT,
	"code_2" TEXT,
	"_raw_2" BLOB,
	"bal_amount" INTEGER,
	"bal_symbol" TEXT,
	"bal_amount_2" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" INTEGER,
	"tab_here" INTEGER,
	"ünï" INTEGER,
	"opt" TEXT,
	"list" TEXT,
	"pair" TEXT,
	"choice" TEXT,
	"when" INTEGER,
	"ext_amount" INTEGER,
	"ext_symbol" TEXT,
	"_raw" BLOB NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "limits" (
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT NOT NULL,
	"id" TEXT,
	"f_bool" INTEGER,
	"f_int8" INTEGER,
	"f_uint8" INTEGER,
	"f_int16" INTEGER,
	"f_uint16" INTEGER,
	"f_int32" INTEGER,
	"f_uint32" INTEGER,
	"f_int64" INTEGER,
	"f_uint64" TEXT,
	"f_int128" TEXT,
	"f_uint128" TEXT,
	"f_varint32" INTEGER,
	"f_varuint32" INTEGER,
	"f_float32",
	"f_float64",
	"f_float128" TEXT,
	"f_time_point" INTEGER,
	"f_time_point_sec" INTEGER,
	"f_block_timestamp_type" INTEGER,
	"f_name" TEXT,
	"f_bytes" BLOB,
	"f_string" TEXT,
	"f_checksum160" TEXT,
	"f_checksum256" TEXT,
	"f_checksum512" TEXT,
	"f_public_key" TEXT,
	"f_signature" TEXT,
	"f_symbol" TEXT,
	"f_symbol_code" TEXT,
	"f_asset_amount" INTEGER,
	"f_asset_symbol" TEXT,
	"f_extended_asset_amount" INTEGER,
	"f_extended_asset_symbol" TEXT,
	"f_extended_asset_contract" TEXT,
	"_raw" BLOB NOT NULL,
	PRIMARY KEY ("code", "scope", "primary_key")
);

CREATE TABLE IF NOT EXISTS "delete_action" (
	"global_sequence" TEXT NOT NULL,
	"block_num" INTEGER NOT NULL,
	"block_id" TEXT NOT NULL,
	"trx_id" TEXT NOT NULL,
	"action_ordinal" INTEGER NOT NULL,
	"receiver" TEXT NOT NULL,
	"authorization" TEXT NOT NULL,
	"from" TEXT,
	"where" TEXT,
	"_raw" BLOB NOT NULL,
	PRIMARY KEY ("global_sequence")
);

CREATE TABLE IF NOT EXISTS "insert_action" (
	"global_sequence" TEXT NOT NULL,
	"block_num" INTEGER NOT NULL,
	"block_id" TEXT NOT NULL,
	"trx_id" TEXT NOT NULL,
	"action_ordinal" INTEGER NOT NULL,
	"receiver" TEXT NOT NULL,
	"authorization" TEXT NOT NULL,
	"owner" TEXT,
	"select" TEXT,
	"a""b" TEXT,
	"Amount" INTEGER,
	"amount_2" INTEGER,
	"x; DROP TABLE accounts; --" TEXT,
	"code" TEXT,
	"_raw_2" BLOB,
	"bal_amount" INTEGER,
	"bal_symbol" TEXT,
	"bal_amount_2" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_feed930b" INTEGER,
	"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn_48bd064d" INTEGER,
	"tab_here" INTEGER,
	"ünï" INTEGER,
	"opt" TEXT,
	"list" TEXT,
	"pair" TEXT,
	"choice" TEXT,
	"when" INTEGER,
	"ext_amount" INTEGER,
	"ext_symbol" TEXT,
	"_raw" BLOB NOT NULL,
	PRIMARY KEY ("global_sequence")
);

CREATE INDEX IF NOT EXISTS "select_by_select" ON "select" ("code", "scope", "select");

CREATE INDEX IF NOT EXISTS "delete_action_by_block" ON "delete_action" ("block_num");

CREATE INDEX IF NOT EXISTS "insert_action_by_block" ON "insert_action" ("block_num");

CREATE TABLE IF NOT EXISTS "_mirror_state" (
	"mirror" TEXT NOT NULL PRIMARY KEY,
	"abi_sha256" TEXT NOT NULL,
	"abi" TEXT NOT NULL,
	"cursor" TEXT NOT NULL,
	"block_num" INTEGER NOT NULL,
	"lib" INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS "_mirror_undo" (
	"mirror" TEXT NOT NULL,
	"block_num" INTEGER NOT NULL,
	"seq" INTEGER NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" BLOB,
	PRIMARY KEY ("mirror", "block_num", "seq")
);

CREATE TABLE IF NOT EXISTS "_mirror_ranges" (
	"mirror" TEXT NOT NULL,
	"first" INTEGER NOT NULL,
	"last" INTEGER NOT NULL,
	"next" INTEGER NOT NULL,
	"cursor" TEXT NOT NULL,
	PRIMARY KEY ("mirror", "first")
);

CREATE TABLE IF NOT EXISTS "_mirror_claims" (
	"mirror" TEXT NOT NULL,
	"first" INTEGER NOT NULL,
	PRIMARY KEY ("mirror", "first")
);

CREATE TABLE IF NOT EXISTS "_mirror_backfill" (
	"mirror" TEXT NOT NULL,
	"block_num" INTEGER NOT NULL,
	"seq" INTEGER NOT NULL,
	"tbl" TEXT NOT NULL,
	"code" TEXT NOT NULL,
	"scope" TEXT NOT NULL,
	"primary_key" TEXT NOT NULL,
	"payer" TEXT,
	"raw" BLOB,
	PRIMARY KEY ("mirror", "block_num", "seq")
);
