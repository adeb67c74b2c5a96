//! Where the mpbridge libraries and companion programs live, found from the
//! location of the `mpbridge` executable itself.
//!
//! * installed: `$PREFIX/bin/mpbridge` -> libraries in `$PREFIX/lib`;
//! * cargo build output: `target/{debug,release}/mpbridge` -> libraries in the
//!   same directory (that is where `libmpbridge.so` is built);
//! * `MPBRIDGE_LIBDIR` overrides both.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// File name of the one shared library every drop-in name points at.
pub const LIBRARY_FILE: &str = "libmpbridge.so";

/// Environment variable that overrides the library directory.
pub const LIBDIR_ENV: &str = "MPBRIDGE_LIBDIR";

/// The library directory for an executable at `exe`, honouring an override.
pub fn library_dir(exe: &Path, override_dir: Option<&OsStr>) -> PathBuf {
    if let Some(dir) = override_dir.filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let bin_dir = exe.parent().unwrap_or_else(|| Path::new("."));
    if bin_dir.file_name() == Some(OsStr::new("bin")) {
        bin_dir
            .parent()
            .unwrap_or_else(|| Path::new("/"))
            .join("lib")
    } else {
        bin_dir.to_path_buf()
    }
}

/// A companion program (such as `ga-server`) installed next to `exe`.
pub fn sibling(exe: &Path, name: &str) -> PathBuf {
    exe.parent().unwrap_or_else(|| Path::new(".")).join(name)
}

/// Path of the running `mpbridge` executable, symlinks resolved.
pub fn current_exe() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.canonicalize().unwrap_or(exe))
}

/// The library directory for this process: from `MPBRIDGE_LIBDIR`, else
/// derived from the executable's location.
pub fn this_library_dir() -> Option<PathBuf> {
    let override_dir = std::env::var_os(LIBDIR_ENV);
    if override_dir.as_ref().is_some_and(|d| !d.is_empty()) {
        return Some(library_dir(Path::new(""), override_dir.as_deref()));
    }
    current_exe().map(|exe| library_dir(&exe, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_dir_follows_layout_unless_overridden() {
        let cases = [
            // Installed: the prefix's lib/.
            ("/opt/mpb/bin/mpbridge", None, "/opt/mpb/lib"),
            ("/usr/local/bin/mpbridge", None, "/usr/local/lib"),
            // Cargo's target directory: beside the executable.
            (
                "/src/mpbridge/target/release/mpbridge",
                None,
                "/src/mpbridge/target/release",
            ),
            (
                "/src/mpbridge/target/debug/mpbridge",
                None,
                "/src/mpbridge/target/debug",
            ),
            // The override wins unless it is empty.
            (
                "/usr/local/bin/mpbridge",
                Some("/elsewhere/lib"),
                "/elsewhere/lib",
            ),
            ("/usr/local/bin/mpbridge", Some(""), "/usr/local/lib"),
        ];
        for (exe, over, want) in cases {
            assert_eq!(
                library_dir(Path::new(exe), over.map(OsStr::new)),
                PathBuf::from(want),
                "{exe} with override {over:?}"
            );
        }
    }

    #[test]
    fn sibling_is_next_to_exe() {
        assert_eq!(
            sibling(Path::new("/opt/mpb/bin/mpbridge"), "ga-server"),
            PathBuf::from("/opt/mpb/bin/ga-server")
        );
    }
}
