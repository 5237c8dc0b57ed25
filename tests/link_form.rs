//! How the binary is linked (build.rs): packed relative relocations where
//! the C library loads them, and still a position-independent executable
//! with read-only relocations (RELRO), so address-space randomisation and
//! the protection of its pointer tables are kept.

#![cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]

const PT_DYNAMIC: u32 = 2;
const PT_INTERP: u32 = 3;
const PT_GNU_RELRO: u32 = 0x6474_e552;
const ET_DYN: u16 = 3;
const DT_RELR: u64 = 36;
const DT_FLAGS_1: u64 = 0x6fff_fffb;
const DF_1_PIE: u64 = 0x0800_0000;

struct Elf {
    kind: u16,
    segments: Vec<u32>,
    dynamic: Vec<(u64, u64)>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

/// The program headers' types and the dynamic section of a 64-bit
/// little-endian ELF file.
fn read_elf(path: &str) -> Elf {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..4], b"\x7fELF", "{path} is not an ELF file");
    assert_eq!((b[4], b[5]), (2, 1), "64-bit little-endian");
    let kind = u16_at(&b, 0x10);
    let (phoff, phentsize, phnum) = (
        u64_at(&b, 0x20) as usize,
        u16_at(&b, 0x36) as usize,
        u16_at(&b, 0x38) as usize,
    );
    let mut segments = Vec::new();
    let mut dynamic = Vec::new();
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        let kind = u32_at(&b, ph);
        segments.push(kind);
        if kind == PT_DYNAMIC {
            let (offset, size) = (u64_at(&b, ph + 8) as usize, u64_at(&b, ph + 32) as usize);
            for entry in b[offset..offset + size].chunks_exact(16) {
                let (tag, value) = (u64_at(entry, 0), u64_at(entry, 8));
                if tag == 0 {
                    break;
                }
                dynamic.push((tag, value));
            }
        }
    }
    Elf {
        kind,
        segments,
        dynamic,
    }
}

/// Whether the C library the tests run on loads `DT_RELR` (glibc 2.36).
fn glibc_loads_relr() -> bool {
    // SAFETY: glibc returns a pointer to a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
    let mut parts = version
        .to_str()
        .unwrap()
        .split('.')
        .map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0)) >= (2, 36)
}

#[test]
fn the_binary_packs_its_relative_relocations_and_stays_position_independent() {
    let bin = env!("CARGO_BIN_EXE_git-standards");
    let elf = read_elf(bin);
    assert_eq!(elf.kind, ET_DYN, "a position-independent executable");
    assert!(
        elf.segments.contains(&PT_INTERP),
        "an executable, not a library"
    );
    assert!(
        elf.dynamic
            .iter()
            .any(|&(tag, value)| tag == DT_FLAGS_1 && value & DF_1_PIE != 0),
        "DF_1_PIE is set"
    );
    assert!(
        elf.segments.contains(&PT_GNU_RELRO),
        "relocated tables become read-only after loading"
    );
    let relr = elf.dynamic.iter().any(|&(tag, _)| tag == DT_RELR);
    assert_eq!(
        relr,
        glibc_loads_relr(),
        "DT_RELR exactly when the C library loads it"
    );
    // And the loader accepts it: the binary runs.
    let out = std::process::Command::new(bin)
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}
