//! Guards against integration test files that are not registered in `tests.rs`.

#[test]
fn every_test_file_is_registered() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("tests.rs")).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && name != "tests" {
            assert!(
                main.contains(&format!("mod {name};")),
                "tests/{name}.rs is not registered in tests/tests.rs"
            );
        }
        if path.is_dir() {
            assert!(
                main.contains(&format!("mod {name};")),
                "tests/{name}/ is not registered in tests/tests.rs"
            );
        }
    }
}
