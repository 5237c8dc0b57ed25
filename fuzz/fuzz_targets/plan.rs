#![no_main]
//! Fuzz target `plan`: see `standards_core::fuzzing`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    standards_core::fuzzing::run("plan", data);
});
