#![no_main]
//! Fuzz target `record`: see `standards_core::fuzzing`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    standards_core::fuzzing::run("record", data);
});
