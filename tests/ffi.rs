//! The C ABI from C: `tests/ffi/main.c` is compiled by gcc against `include/plurnk_parser.h` and
//! linked to the `cdylib` cargo built, then run. Also: the committed header declares exactly the
//! functions `src/ffi.rs` exports.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where cargo put the artifacts of this build (the directory of the binary it built).
fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_plurnk-parser")).parent().unwrap().to_path_buf()
}

#[test]
fn a_c_program_parses_through_the_c_abi() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib_dir = artifacts();
    let lib = lib_dir.join(format!("{}plurnk_parser{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    assert!(lib.exists(), "the cdylib was not built at {}", lib.display());
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("gcc not found; skipped");
        return;
    }
    let exe = std::env::temp_dir().join(format!("plurnk_ffi_test_{}", std::process::id()));
    let cc = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(root.join("tests/ffi/main.c"))
        .arg("-I")
        .arg(root.join("include"))
        .arg("-L")
        .arg(&lib_dir)
        .arg("-lplurnk_parser")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .output()
        .expect("run gcc");
    assert!(cc.status.success(), "gcc failed:\n{}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(&exe).env("LD_LIBRARY_PATH", &lib_dir).output().expect("run the C test");
    let _ = std::fs::remove_file(&exe);
    let out = String::from_utf8_lossy(&run.stdout);
    print!("{out}");
    assert!(run.status.success(), "the C test failed:\n{out}{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.contains("all passed"));
}

#[test]
fn the_header_declares_the_exports() {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/plurnk_parser.h")).unwrap();
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/ffi.rs")).unwrap();
    let exports: Vec<&str> =
        source.lines().filter_map(|l| l.trim().strip_prefix("pub unsafe extern \"C\" fn ")).map(|l| &l[..l.find('(').unwrap()]).collect();
    assert_eq!(exports, ["plurnk_parse", "plurnk_free"]);
    for f in exports {
        assert!(header.contains(&format!("{f}(")), "include/plurnk_parser.h does not declare {f}; regenerate it with cbindgen");
    }
}

/// Where the cbindgen CLI is installed, the committed header is exactly what it generates.
#[test]
fn the_header_is_what_cbindgen_generates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("plurnk_parser_{}.h", std::process::id()));
    let run = Command::new("cbindgen")
        .current_dir(root)
        .args(["--config", "cbindgen.toml", "--crate", "plurnk-parser", "--quiet", "--output"])
        .arg(&out)
        .output();
    match run {
        Ok(r) if r.status.success() => {
            let fresh = std::fs::read_to_string(&out).unwrap();
            let _ = std::fs::remove_file(&out);
            let committed = std::fs::read_to_string(root.join("include/plurnk_parser.h")).unwrap();
            assert_eq!(committed, fresh, "include/plurnk_parser.h is stale: regenerate it with cbindgen (see cbindgen.toml)");
        }
        _ => eprintln!("cbindgen not installed; skipped"),
    }
}
