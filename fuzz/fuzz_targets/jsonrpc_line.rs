#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| torii::fuzzing::run("jsonrpc_line", data));
