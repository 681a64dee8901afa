;; db_notify.wat — for TestLeapDBNotifyTests (leap's db_notify_tests): at
;; each receiver the contract stores a row of id 0 in its own table 0 (scope
;; 0) and in each secondary index, finds each again by primary key in its
;; own table, and notifies "notified". The iterators a notification sees
;; continue those of the receivers before it in the same action: the first
;; receiver's finds give iterator 0, a notified receiver's give 1.
(module
  (import "env" "db_store_i64" (func $store (param i64 i64 i64 i64 i32 i32) (result i32)))
  (import "env" "db_find_i64" (func $find (param i64 i64 i64 i64) (result i32)))
  (import "env" "db_idx64_store" (func $store64 (param i64 i64 i64 i64 i32) (result i32)))
  (import "env" "db_idx64_find_primary" (func $find64 (param i64 i64 i64 i32 i64) (result i32)))
  (import "env" "db_idx128_store" (func $store128 (param i64 i64 i64 i64 i32) (result i32)))
  (import "env" "db_idx128_find_primary" (func $find128 (param i64 i64 i64 i32 i64) (result i32)))
  (import "env" "db_idx256_store" (func $store256 (param i64 i64 i64 i64 i32 i32) (result i32)))
  (import "env" "db_idx256_find_primary" (func $find256 (param i64 i64 i64 i32 i32 i64) (result i32)))
  (import "env" "db_idx_double_store" (func $storef64 (param i64 i64 i64 i64 i32) (result i32)))
  (import "env" "db_idx_double_find_primary" (func $findf64 (param i64 i64 i64 i32 i64) (result i32)))
  (import "env" "db_idx_long_double_store" (func $storef128 (param i64 i64 i64 i64 i32) (result i32)))
  (import "env" "db_idx_long_double_find_primary" (func $findf128 (param i64 i64 i64 i32 i64) (result i32)))
  (import "env" "eosio_assert" (func $assert (param i32 i32)))
  (import "env" "require_recipient" (func $require_recipient (param i64)))
  (memory 1)
  ;; Assertion messages; a notified receiver turns "notifier" into "notified".
  (data (i32.const 0) "notifier: primary\00")
  (data (i32.const 32) "notifier: idx64\00")
  (data (i32.const 64) "notifier: idx128\00")
  (data (i32.const 96) "notifier: idx256\00")
  (data (i32.const 128) "notifier: idx_double\00")
  (data (i32.const 160) "notifier: idx_long_double\00")
  (func (export "apply") (param $receiver i64) (param $code i64) (param $action i64)
    (local $want i32) ;; the iterator each find should give
    (local $msg i32)
    (local.set $want (i64.ne (local.get $receiver) (local.get $code)))
    (if (local.get $want)
      (then
        (local.set $msg (i32.const 0))
        (loop $rename
          (i32.store8 offset=7 (local.get $msg) (i32.const 100)) ;; 'd'
          (local.set $msg (i32.add (local.get $msg) (i32.const 32)))
          (br_if $rename (i32.le_u (local.get $msg) (i32.const 160))))))
    ;; The secondary keys are the zeros at 512.
    (drop (call $store (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512) (i32.const 0)))
    (drop (call $store64 (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512)))
    (drop (call $store128 (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512)))
    (drop (call $store256 (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512) (i32.const 2)))
    (drop (call $storef64 (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512)))
    (drop (call $storef128 (i64.const 0) (i64.const 0) (local.get $receiver) (i64.const 0) (i32.const 512)))
    (call $assert (i32.eq (local.get $want)
      (call $find (local.get $receiver) (i64.const 0) (i64.const 0) (i64.const 0))) (i32.const 0))
    (call $assert (i32.eq (local.get $want)
      (call $find64 (local.get $receiver) (i64.const 0) (i64.const 0) (i32.const 512) (i64.const 0))) (i32.const 32))
    (call $assert (i32.eq (local.get $want)
      (call $find128 (local.get $receiver) (i64.const 0) (i64.const 0) (i32.const 512) (i64.const 0))) (i32.const 64))
    (call $assert (i32.eq (local.get $want)
      (call $find256 (local.get $receiver) (i64.const 0) (i64.const 0) (i32.const 512) (i32.const 2) (i64.const 0))) (i32.const 96))
    (call $assert (i32.eq (local.get $want)
      (call $findf64 (local.get $receiver) (i64.const 0) (i64.const 0) (i32.const 512) (i64.const 0))) (i32.const 128))
    (call $assert (i32.eq (local.get $want)
      (call $findf128 (local.get $receiver) (i64.const 0) (i64.const 0) (i32.const 512) (i64.const 0))) (i32.const 160))
    (call $require_recipient (i64.const 0x9d32e5b949000000)))) ;; "notified"
