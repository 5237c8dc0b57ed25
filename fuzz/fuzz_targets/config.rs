#![no_main]
//! Fuzz target `config`: see `git_standards::protocol::fuzzing`.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    git_standards::protocol::fuzzing::run("config", data);
});
