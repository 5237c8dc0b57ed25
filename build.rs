//! Link the binary with packed relative relocations (`DT_RELR`) where the C
//! library can load them.
//!
//! A position-independent Rust binary carries one 24-byte `R_X86_64_RELATIVE`
//! entry per pointer in its tables (vtables, string-slice tables): 316 KB for
//! this one, which the dynamic loader reads at every start, so they count in
//! every command's peak RSS. `-z pack-relative-relocs` stores the same
//! relocations as a bitmap of about 4 KB; the binary stays position
//! independent (address-space randomisation is unchanged) and its read-only
//! relocations are still protected after loading (RELRO). Measured on the
//! floor benchmark's small repository: `check` 10.11 to 9.88 MiB peak RSS
//! (medians of 10), CPU unchanged. See docs/benchmarks.md.
//!
//! The linker then makes the binary require `GLIBC_ABI_DT_RELR` (glibc 2.36,
//! 2022), so the flag is given only when the C library this build runs on
//! has that version or later, and only for a native build (a cross build's
//! target C library is not the one this script can ask). Linkers without the
//! option (GNU ld before 2.38) warn and ignore it. Only the binary gets it:
//! `cargo:rustc-link-arg-bins` leaves the test and benchmark executables as
//! they were. `cargo install` runs this script too, so an installed binary is
//! linked the same way.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let native = var("TARGET") == var("HOST");
    if native
        && var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && glibc_has_relr()
    {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether the running glibc is 2.36 or later (it loads `DT_RELR`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_has_relr() -> bool {
    extern "C" {
        fn gnu_get_libc_version() -> *const std::ffi::c_char;
    }
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap_or("")
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    (major, minor) >= (2, 36)
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn glibc_has_relr() -> bool {
    false
}
