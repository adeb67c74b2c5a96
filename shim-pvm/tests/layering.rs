//! The PVM layer's direction of use: the ABI files (`capi*.rs` for C,
//! `fapi*.rs` for Fortran) sit on top of the domain modules, and no domain
//! module names an ABI module (`capi`, `capi_*`, `fapi`), not even in a
//! comment, so the domain never reaches back up into the entry points.

use std::path::{Path, PathBuf};

/// Whether a source file is one of the ABI files.
fn is_abi(file: &Path) -> bool {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with("capi") || name.starts_with("fapi")
}

/// The words of `line` that name an ABI module.
fn abi_names(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            *w == "capi" || *w == "fapi" || w.starts_with("capi_") || w.starts_with("fapi_")
        })
        .collect()
}

fn sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("shim-pvm/src")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_word_check_finds_abi_names() {
    assert_eq!(abi_names("use crate::capi_extra::x;"), ["capi_extra"]);
    assert_eq!(
        abi_names("crate::fapi::pvmfsend(capi::pvm_send)"),
        ["fapi", "capi"]
    );
    assert!(abi_names("pvm_capi_like and capital").is_empty());
}

#[test]
fn no_domain_module_names_an_abi_module() {
    let files = sources();
    let (abi, domain): (Vec<&PathBuf>, Vec<&PathBuf>) = files.iter().partition(|p| is_abi(p));
    assert!(abi.len() >= 3, "ABI files found: {abi:?}");
    assert!(domain.len() >= 10, "domain modules found: {domain:?}");
    let mut offences = Vec::new();
    for file in domain {
        // The crate root declares every module, ABI files included.
        if file.ends_with("lib.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("source file");
        for (i, line) in text.lines().enumerate() {
            let names = abi_names(line);
            if !names.is_empty() {
                offences.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "domain modules naming ABI modules:\n{}",
        offences.join("\n")
    );
}
