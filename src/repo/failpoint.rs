//! Crash injection for tests: a named point in a writing command where a test
//! can make the process die as `kill -9` would, to prove that the next command
//! detects the interrupted operation and completes or rolls it back (D22).
//!
//! Set `GIT_STANDARDS_FAILPOINT=<name>` (or a comma-separated list) and the
//! process aborts, without unwinding or running destructors, when it reaches
//! [`hit`] with that name. Only debug builds (the binary the tests drive) read
//! the variable; a release build compiles every point to nothing.

/// The environment variable naming the failpoints to trigger.
pub const VARIABLE: &str = "GIT_STANDARDS_FAILPOINT";

/// Dies here if the failpoint `name` is armed (debug builds only).
#[inline]
pub fn hit(name: &str) {
    #[cfg(debug_assertions)]
    if armed(std::env::var_os(VARIABLE).as_deref(), name) {
        // The exit status a SIGKILL gives, without Rust's cleanup: temporary
        // files, journals and half-written folders stay as a real kill leaves them.
        std::process::abort();
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Whether `name` is in the comma-separated list `value`.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn armed(value: Option<&std::ffi::OsStr>, name: &str) -> bool {
    value
        .and_then(|v| v.to_str())
        .is_some_and(|v| v.split(',').any(|p| p.trim() == name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn only_named_points_are_armed() {
        assert!(armed(Some(OsStr::new("reset:delete")), "reset:delete"));
        assert!(armed(Some(OsStr::new("a, reset:delete")), "reset:delete"));
        assert!(!armed(
            Some(OsStr::new("reset:delete-docs")),
            "reset:delete"
        ));
        assert!(!armed(None, "reset:delete"));
    }
}
