//! The README's CLI and C examples, read from README.md and run as written (the Rust ones run as
//! doctests; Node, browser, Python and Dask ones in the bindings' tests).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The body of the README's fenced block whose info string is `info`.
fn block(info: &str) -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let mut lines = readme.lines();
    while let Some(l) = lines.next() {
        let fence = l.len() - l.trim_start_matches('`').len();
        if fence >= 3 && l[fence..].trim() == info {
            let body: Vec<&str> = lines.take_while(|x| x.trim() != &l[..fence]).collect();
            return body.join("\n") + "\n";
        }
    }
    panic!("README.md has no ```{info} block");
}

fn artifacts() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_plurnk-parser")).parent().unwrap().to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plurnk-readme-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn readme_cli_example_runs() {
    let dir = scratch("cli");
    let path = format!("{}:{}", artifacts().display(), std::env::var("PATH").unwrap_or_default());
    let run = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &block("sh cli-example")])
        .current_dir(&dir)
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("1 requests"));
}

#[test]
fn readme_c_example_runs() {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("gcc not found; skipped");
        return;
    }
    let dir = scratch("c");
    std::fs::write(dir.join("main.c"), block("c c-example")).unwrap();
    let lib_dir = artifacts();
    let cc = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Werror", "-o"])
        .arg(dir.join("example"))
        .arg(dir.join("main.c"))
        .arg("-I")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/include"))
        .arg("-L")
        .arg(&lib_dir)
        .arg("-lplurnk_parser")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .output()
        .unwrap();
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let run = Command::new(dir.join("example")).output().unwrap();
    assert!(run.status.success());
    let out = String::from_utf8(run.stdout).unwrap();
    assert!(out.starts_with("{\"result\":{\"items\":[") && out.contains("\"op\":\"READ\""), "{out}");
}
