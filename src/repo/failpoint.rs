//! Crash injection for tests: a named point in a writing command where a test
//! can make the process die as `kill -9` would, to prove that the next command
//! detects the interrupted operation and completes or rolls it back (D22).
//!
//! Set `GIT_STANDARDS_FAILPOINT=<name>` (or a comma-separated list) and the
//! process aborts, without unwinding or running destructors, when it reaches
//! [`hit`] with that name. Only debug builds (the binary the tests drive) read
//! the variable; a release build compiles every point to nothing.
//!
//! A point reached several times in one run (once per journal step) is armed
//! for its `n`-th arrival only with `<name>@<n>` (counted from 1).

/// The environment variable naming the failpoints to trigger.
pub const VARIABLE: &str = "GIT_STANDARDS_FAILPOINT";
/// A test barrier, `<point>=<folder>`: the process reaching that point
/// creates `<folder>/arrived-<pid>` and waits (at most a minute) until
/// `<folder>/go` exists, so a test releases several processes together.
pub const PAUSE: &str = "GIT_STANDARDS_PAUSE";

/// Dies here if the failpoint `name` is armed (debug builds only).
#[inline]
pub fn hit(name: &str) {
    #[cfg(debug_assertions)]
    if armed(std::env::var_os(VARIABLE).as_deref(), name, arrival(name)) {
        // The exit status a SIGKILL gives, without Rust's cleanup: temporary
        // files, journals and half-written folders stay as a real kill leaves them.
        std::process::abort();
    }
    #[cfg(debug_assertions)]
    pause(name);
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Waits at the barrier of [`PAUSE`] if it names `name` (debug builds only).
#[cfg(debug_assertions)]
fn pause(name: &str) {
    let Some(value) = std::env::var_os(PAUSE) else {
        return;
    };
    let Some((point, folder)) = value.to_str().and_then(|v| v.split_once('=')) else {
        return;
    };
    if point != name {
        return;
    }
    let folder = std::path::Path::new(folder);
    let _ = std::fs::write(folder.join(format!("arrived-{}", std::process::id())), name);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !folder.join("go").exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// How many times this process has reached `name`, this time included.
#[cfg(debug_assertions)]
fn arrival(name: &str) -> u64 {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    let count = seen
        .get_or_insert_with(HashMap::new)
        .entry(name.to_string())
        .or_insert(0);
    *count += 1;
    *count
}

/// Whether `name` (any arrival) or `name@<arrival>` is in the comma-separated list `value`.
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn armed(value: Option<&std::ffi::OsStr>, name: &str, arrival: u64) -> bool {
    value.and_then(|v| v.to_str()).is_some_and(|v| {
        v.split(',')
            .map(str::trim)
            .any(|p| match p.split_once('@') {
                Some((point, n)) => point == name && n.parse() == Ok(arrival),
                None => p == name,
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn only_named_points_are_armed() {
        assert!(armed(Some(OsStr::new("reset:delete")), "reset:delete", 1));
        assert!(armed(
            Some(OsStr::new("a, reset:delete")),
            "reset:delete",
            3
        ));
        assert!(!armed(
            Some(OsStr::new("reset:delete-docs")),
            "reset:delete",
            1
        ));
        assert!(!armed(None, "reset:delete", 1));
        assert!(armed(Some(OsStr::new("reset:step@2")), "reset:step", 2));
        assert!(!armed(Some(OsStr::new("reset:step@2")), "reset:step", 1));
    }
}
