//! Compiles the C glue of `csrc/` (what Rust cannot express, such as the
//! variadic `pvm_packf`) into a static archive linked into the library,
//! and has the shared library export its entry points (`csrc/exports.map`:
//! the list of exports the Rust toolchain gives the linker names only Rust
//! functions), with the library's own calls bound inside it.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=include/pvm3.h");
    cc::Build::new()
        .file("csrc/pvm_packf.c")
        .flag("-std=c11")
        .flag("-Wall")
        .flag("-Wextra")
        .flag("-Werror")
        .compile("mpbridge_cglue");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={dir}/csrc/exports.map");
    // The library's calls of its own functions stay inside it: a program
    // that defines an entry of the same name (a profiling tool's
    // `ARMCI_Put` that counts and calls `PARMCI_Put`) replaces the entry
    // for its own calls only, so `PARMCI_Put` still reaches the library.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic-functions");
}
