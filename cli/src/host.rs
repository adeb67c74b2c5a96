//! Facts about the machine we run on: effective user, core count, programs on
//! `PATH`, and files matching simple wildcard patterns.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// Effective user id of this process.
///
/// Read from `/proc/self/status` (no `unsafe` needed); falls back to `id -u`
/// where `/proc` is not mounted.
pub fn effective_uid() -> Option<u32> {
    if let Ok(text) = std::fs::read_to_string("/proc/self/status") {
        if let Some(uid) = parse_status_euid(&text) {
            return Some(uid);
        }
    }
    let out = Command::new("id").arg("-u").output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// True when running as root. Unknown counts as "not root".
pub fn is_root() -> bool {
    effective_uid() == Some(0)
}

/// The effective uid from the text of `/proc/<pid>/status`.
///
/// The `Uid:` line lists real, effective, saved and filesystem ids.
pub fn parse_status_euid(status: &str) -> Option<u32> {
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line["Uid:".len()..].split_whitespace().nth(1)?.parse().ok()
}

/// True when `path` is a regular file with an execute bit set.
pub fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Locate a program the way a shell would: a name containing `/` is taken as
/// a path, anything else is searched for in `PATH`.
pub fn find_program(name: &OsStr) -> Option<PathBuf> {
    let as_path = Path::new(name);
    if name.as_encoded_bytes().contains(&b'/') {
        return is_executable(as_path).then(|| as_path.to_path_buf());
    }
    let path_var = std::env::var_os("PATH")?;
    std::env::split_paths(&path_var)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

/// All existing paths matching an absolute `pattern` whose components may
/// contain `*` (for example `/usr/lib/llvm-*/lib/libclang*.so*`), sorted.
pub fn glob(pattern: &str) -> Vec<PathBuf> {
    let mut current = vec![PathBuf::from("/")];
    for component in Path::new(pattern).components() {
        let part = match component {
            Component::Normal(part) => part.to_string_lossy().into_owned(),
            Component::RootDir | Component::CurDir => continue,
            Component::ParentDir => "..".to_string(),
            Component::Prefix(_) => return Vec::new(),
        };
        let mut next = Vec::new();
        for base in &current {
            if part.contains('*') {
                let Ok(entries) = std::fs::read_dir(base) else {
                    continue;
                };
                for entry in entries.flatten() {
                    let name = entry.file_name();
                    if wildcard::matches(&part, &name.to_string_lossy()) {
                        next.push(base.join(name));
                    }
                }
            } else {
                let candidate = base.join(&part);
                if candidate.symlink_metadata().is_ok() {
                    next.push(candidate);
                }
            }
        }
        current = next;
        if current.is_empty() {
            break;
        }
    }
    // A dangling symlink is not something we can use.
    current.retain(|p| p.exists());
    current.sort();
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euid_is_second_field_of_uid_line() {
        let status =
            "Name:\tcat\nUmask:\t0022\nUid:\t1000\t0\t0\t0\nGid:\t1000\t1000\t1000\t1000\n";
        assert_eq!(parse_status_euid(status), Some(0));
        let status = "Uid:\t0\t1000\t1000\t1000\n";
        assert_eq!(parse_status_euid(status), Some(1000));
    }

    #[test]
    fn euid_missing_or_garbled() {
        assert_eq!(parse_status_euid("Name:\tx\n"), None);
        assert_eq!(parse_status_euid("Uid:\t5\n"), None);
        assert_eq!(parse_status_euid("Uid:\t5\tabc\n"), None);
    }

    #[test]
    fn glob_finds_files_in_a_tree() {
        let root = std::env::temp_dir().join(format!("mpbridge-glob-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("llvm-14/lib")).unwrap();
        std::fs::create_dir_all(root.join("llvm-15/lib")).unwrap();
        std::fs::write(root.join("llvm-14/lib/libclang.so.1"), b"").unwrap();
        std::fs::write(root.join("llvm-15/lib/libclang-15.so"), b"").unwrap();
        std::fs::write(root.join("llvm-15/lib/libLLVM.so"), b"").unwrap();

        let pattern = format!("{}/llvm-*/lib/libclang*.so*", root.display());
        let found = glob(&pattern);
        assert_eq!(
            found,
            vec![
                root.join("llvm-14/lib/libclang.so.1"),
                root.join("llvm-15/lib/libclang-15.so")
            ]
        );
        assert!(glob(&format!("{}/nothing-*/x", root.display())).is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn find_program_with_slash_checks_the_file() {
        assert_eq!(
            find_program(OsStr::new("/bin/sh")),
            Some(PathBuf::from("/bin/sh"))
        );
        assert_eq!(find_program(OsStr::new("/nonexistent/prog")), None);
    }
}
