#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| torii::fuzzing::run("dotenv", data));
