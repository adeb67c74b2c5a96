//! PVM's error texts and the lines libpvm writes to stderr.
//!
//! `pvm_errlist` has [`ERROR_SLOTS`] entries, indexed by the negated code.
//! Slots without a defined code read `Error N`; a code outside the table
//! (including any positive one) reads `Unknown Error`, as in
//! `pvm_strerror`.
//!
//! When a call fails and `PvmAutoErr` is set, libpvm prints
//! [`report_line`]: `libpvm [t40001]: pvm_send(): Bad parameter`, or
//! `libpvm [pid1234]: ...` while the process has no task id yet.
//! `pvm_perror(msg)` prints [`perror_line`] with the same prefix.
//!
//! The last error code of a failed call is kept in the C global
//! [`pvm_errno`] (read and written through `ptr::errno`/`ptr::set_errno`).

use std::ffi::{c_char, c_int};
use std::fmt;

/// The last PVM error code (C global `pvm_errno`).
#[no_mangle]
pub static mut pvm_errno: c_int = 0;

/// Number of entries of `pvm_errlist` (the value of `pvm_nerr`): codes 0
/// down to -36.
pub const ERROR_SLOTS: usize = 37;

/// Defines the table of texts twice from one list: as Rust strings
/// (`TEXTS`) and as NUL-terminated C strings (`ERRLIST_C`).
macro_rules! error_texts {
    ($($text:literal,)*) => {
        /// The texts of `pvm_errlist`, slot `i` belonging to code `-i`.
        const TEXTS: [&str; ERROR_SLOTS] = [$($text,)*];

        /// The same texts as C strings, the contents of the C global
        /// `pvm_errlist` (static, never freed).
        pub const ERRLIST_C: [*const c_char; ERROR_SLOTS] =
            [$(concat!($text, "\0").as_ptr().cast::<c_char>(),)*];
    };
}

error_texts! {
    "Error 0",
    "Error 1",
    "Bad parameter",
    "Parameter mismatch",
    "Value too large",
    "End of buffer",
    "No such host",
    "No such file",
    "Permission denied",
    "Error 9",
    "Malloc failed",
    "Error 11",
    "Can't decode message",
    "Error 13",
    "Can't contact local daemon",
    "No current buffer",
    "No such buffer",
    "Null group name",
    "Already in group",
    "No such group",
    "Not in group",
    "No such instance",
    "Host failed",
    "No parent task",
    "Not implemented",
    "Pvmd system error",
    "Version mismatch",
    "Out of resources",
    "Duplicate host",
    "Can't start pvmd",
    "Already in progress",
    "No such task",
    "Not Found",
    "Already Exists",
    "Hoster must run on master host",
    "Spawning parent set PvmNoParent",
    "Master Host IP Address is Loopback! (See pvm3/Readme)",
}

/// The C names of the codes, same indexing; "" where no code is defined.
const NAMES: [&str; ERROR_SLOTS] = [
    "PvmOk",
    "",
    "PvmBadParam",
    "PvmMismatch",
    "PvmOverflow",
    "PvmNoData",
    "PvmNoHost",
    "PvmNoFile",
    "PvmDenied",
    "",
    "PvmNoMem",
    "",
    "PvmBadMsg",
    "",
    "PvmSysErr",
    "PvmNoBuf",
    "PvmNoSuchBuf",
    "PvmNullGroup",
    "PvmDupGroup",
    "PvmNoGroup",
    "PvmNotInGroup",
    "PvmNoInst",
    "PvmHostFail",
    "PvmNoParent",
    "PvmNotImpl",
    "PvmDSysErr",
    "PvmBadVersion",
    "PvmOutOfRes",
    "PvmDupHost",
    "PvmCantStart",
    "PvmAlready",
    "PvmNoTask",
    "PvmNotFound",
    "PvmExists",
    "PvmHostrNMstr",
    "PvmParentNotSet",
    "PvmIPLoopback",
];

/// Text for a code when it is outside the table.
pub const UNKNOWN_TEXT: &str = "Unknown Error";

/// The slot of `code` in the tables, if it has one.
fn slot(code: i32) -> Option<usize> {
    if code > 0 {
        return None;
    }
    let i = usize::try_from(code.unsigned_abs()).ok()?;
    (i < ERROR_SLOTS).then_some(i)
}

/// PVM's message for `code`: `pvm_errlist[-code]` when that slot exists
/// ("Bad parameter" for -2, "Error 9" for -9), otherwise "Unknown Error".
pub fn error_text(code: i32) -> &'static str {
    slot(code).map_or(UNKNOWN_TEXT, |i| TEXTS[i])
}

/// [`error_text`] as a static NUL-terminated C string (`pvm_strerror`).
pub fn error_text_c(code: i32) -> *const c_char {
    slot(code).map_or(UNKNOWN_TEXT_C.as_ptr(), |i| ERRLIST_C[i])
}

/// [`UNKNOWN_TEXT`] as a C string.
const UNKNOWN_TEXT_C: &std::ffi::CStr = c"Unknown Error";

/// The C name of `code` (`"PvmBadParam"` for -2), `None` for a value that
/// is not a PVM code. For -32 and -33 this gives `PvmNotFound` and
/// `PvmExists`, not the 3.3 aliases.
pub fn error_name(code: i32) -> Option<&'static str> {
    slot(code).map(|i| NAMES[i]).filter(|name| !name.is_empty())
}

/// Who a libpvm message is about: an enrolled task, or a process that has
/// no task id yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reporter {
    /// An enrolled task, shown as `t` and its id in lowercase hex.
    Task(i32),
    /// A process before enrolment, shown as `pid` and its process id.
    Pid(u32),
}

impl fmt::Display for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // `{:x}` on an i32 prints the two's complement bits, as C's %x.
            Reporter::Task(tid) => write!(f, "t{tid:x}"),
            Reporter::Pid(pid) => write!(f, "pid{pid}"),
        }
    }
}

/// The longest function name libpvm keeps in an automatic report.
const MAX_FUNC_LEN: usize = 124;

/// The line libpvm prints (with `PvmAutoErr` on) when `func` fails with
/// `code`, without the trailing newline:
/// `libpvm [t40001]: pvm_send(): Bad parameter`.
/// `func` is the bare name; very long names are cut to 124 bytes.
pub fn report_line(who: Reporter, func: &str, code: i32) -> String {
    let mut end = func.len().min(MAX_FUNC_LEN);
    while !func.is_char_boundary(end) {
        end -= 1;
    }
    format!("libpvm [{who}]: {}(): {}", &func[..end], error_text(code))
}

/// The line `pvm_perror(user_msg)` prints for `code` (normally
/// `pvm_errno`), without the trailing newline:
/// `libpvm [t40001]: user_msg: No current buffer`. `tid` is the caller's
/// task id, or `None` before enrolment, which shows this process's id
/// (`libpvm [pid1234]: ...`; PVM itself shows `pid-1` when nothing has
/// looked up the pid yet). A NULL message prints as `(null)`: pass that
/// string for it.
pub fn perror_line(tid: Option<i32>, user_msg: &str, code: i32) -> String {
    let who = match tid {
        Some(t) => Reporter::Task(t),
        None => Reporter::Pid(std::process::id()),
    };
    format!("libpvm [{who}]: {user_msg}: {}", error_text(code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consts::err;

    #[test]
    fn texts_of_defined_codes() {
        assert_eq!(error_text(err::BAD_PARAM), "Bad parameter");
        assert_eq!(error_text(err::NO_DATA), "End of buffer");
        assert_eq!(error_text(err::SYS_ERR), "Can't contact local daemon");
        assert_eq!(error_text(err::NO_BUF), "No current buffer");
        assert_eq!(error_text(err::NO_PARENT), "No parent task");
        assert_eq!(error_text(err::NOT_FOUND), "Not Found");
        assert_eq!(error_text(err::EXISTS), "Already Exists");
        assert_eq!(
            error_text(err::PARENT_NOT_SET),
            "Spawning parent set PvmNoParent"
        );
        assert_eq!(
            error_text(err::IP_LOOPBACK),
            "Master Host IP Address is Loopback! (See pvm3/Readme)"
        );
    }

    #[test]
    fn texts_of_empty_slots_and_out_of_range() {
        assert_eq!(error_text(err::OK), "Error 0");
        assert_eq!(error_text(-1), "Error 1");
        assert_eq!(error_text(-9), "Error 9");
        assert_eq!(error_text(-11), "Error 11");
        assert_eq!(error_text(-13), "Error 13");
        assert_eq!(error_text(-37), "Unknown Error");
        assert_eq!(error_text(-1000), "Unknown Error");
        assert_eq!(error_text(i32::MIN), "Unknown Error");
        assert_eq!(error_text(1), "Unknown Error");
        assert_eq!(error_text(5), "Unknown Error");
        assert_eq!(error_text(i32::MAX), "Unknown Error");
    }

    #[test]
    fn every_slot_has_a_text() {
        for i in 0..ERROR_SLOTS as i32 {
            let t = error_text(-i);
            assert!(!t.is_empty() && t != UNKNOWN_TEXT, "slot {i}");
            if error_name(-i).is_none() {
                assert_eq!(t, format!("Error {i}"));
            }
        }
    }

    #[test]
    fn c_texts_match() {
        for code in [3, 1, 0, -1, -2, -14, -36, -37, i32::MIN] {
            let c = shim_core::cstr::text(error_text_c(code));
            assert_eq!(c, Some(error_text(code)), "code {code}");
        }
        for (i, p) in ERRLIST_C.iter().enumerate() {
            assert_eq!(shim_core::cstr::text(*p), Some(TEXTS[i]));
        }
    }

    #[test]
    fn names() {
        assert_eq!(error_name(err::OK), Some("PvmOk"));
        assert_eq!(error_name(err::BAD_PARAM), Some("PvmBadParam"));
        assert_eq!(error_name(err::DSYS_ERR), Some("PvmDSysErr"));
        assert_eq!(error_name(err::IP_LOOPBACK), Some("PvmIPLoopback"));
        assert_eq!(error_name(-1), None);
        assert_eq!(error_name(-9), None);
        assert_eq!(error_name(-37), None);
        assert_eq!(error_name(3), None);
        let defined = (0..ERROR_SLOTS as i32)
            .filter(|i| error_name(-i).is_some())
            .count();
        assert_eq!(defined, 33); // PvmOk and 32 error codes
    }

    #[test]
    fn reporter_format() {
        assert_eq!(Reporter::Task(0x40001).to_string(), "t40001");
        assert_eq!(Reporter::Task(0x3ffc_abcd).to_string(), "t3ffcabcd");
        assert_eq!(Reporter::Task(-1).to_string(), "tffffffff");
        assert_eq!(Reporter::Pid(1234).to_string(), "pid1234");
    }

    #[test]
    fn auto_error_lines() {
        assert_eq!(
            report_line(Reporter::Task(0x40001), "pvm_send", err::BAD_PARAM),
            "libpvm [t40001]: pvm_send(): Bad parameter"
        );
        assert_eq!(
            report_line(Reporter::Pid(21497), "pvm_mytid", err::SYS_ERR),
            "libpvm [pid21497]: pvm_mytid(): Can't contact local daemon"
        );
        assert_eq!(
            report_line(Reporter::Task(0x80002), "pvm_upkint", -99),
            "libpvm [t80002]: pvm_upkint(): Unknown Error"
        );
        let long = "f".repeat(200);
        let line = report_line(Reporter::Task(0x40001), &long, err::NO_BUF);
        assert_eq!(
            line,
            format!("libpvm [t40001]: {}(): No current buffer", "f".repeat(124))
        );
    }

    /// Compares the table and `pvm_perror`'s line with Debian's libpvm3,
    /// linked statically so no other `libpvm3.so` can stand in for it.
    /// Skipped when `pvm-dev` is not installed.
    #[test]
    fn same_texts_as_debian_libpvm() {
        let lib = std::path::Path::new("/usr/lib/x86_64-linux-gnu/libpvm3.a");
        if !lib.exists() || !std::path::Path::new("/usr/include/pvm3.h").exists() {
            eprintln!("skipped: no Debian pvm-dev (apt-get install pvm-dev)");
            return;
        }
        let dir = std::env::temp_dir().join(format!("shim-pvm-errlist-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("errlist.c");
        std::fs::write(
            &src,
            r#"#include <stdio.h>
#include <pvm3.h>
extern int pvm_errno, pvm_nerr;
extern char *pvm_errlist[];
int main(void) {
    int c;
    printf("%d\n", pvm_nerr);
    for (c = 3; c >= -40; c--) {
        pvm_errno = c;
        printf("%d %s\n", c, pvm_strerror());
    }
    pvm_errno = PvmNoBuf;
    pvm_perror("probe");
    pvm_perror(NULL);
    return 0;
}
"#,
        )
        .unwrap();
        let exe = dir.join("errlist");
        let built = std::process::Command::new("cc")
            .arg(&src)
            .arg(lib)
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("cc");
        assert!(built.success(), "cannot build {}", src.display());
        let out = std::process::Command::new(&exe).output().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 1 + 44, "stdout was:\n{stdout}");
        assert_eq!(lines[0], ERROR_SLOTS.to_string());
        for (line, code) in lines[1..].iter().zip((-40..=3).rev()) {
            assert_eq!(*line, format!("{code} {}", error_text(code)));
        }
        // Before enrolment Debian shows "pid-1"; compare what follows it.
        let stderr = String::from_utf8(out.stderr).unwrap();
        let tails: Vec<&str> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("libpvm [")?.split_once("]: "))
            .map(|(_, tail)| tail)
            .collect();
        let ours: Vec<String> = ["probe", "(null)"]
            .iter()
            .map(|m| {
                let line = perror_line(Some(1), m, err::NO_BUF);
                line.split_once("]: ").unwrap().1.to_string()
            })
            .collect();
        assert_eq!(tails, ours, "stderr was:\n{stderr}");
    }

    #[test]
    fn perror_lines() {
        assert_eq!(
            perror_line(Some(0x40001), "after enrol", err::NO_BUF),
            "libpvm [t40001]: after enrol: No current buffer"
        );
        assert_eq!(
            perror_line(Some(0x40003), "", err::BAD_PARAM),
            "libpvm [t40003]: : Bad parameter"
        );
        assert_eq!(
            perror_line(Some(0x40001), "(null)", err::OK),
            "libpvm [t40001]: (null): Error 0"
        );
        let pid = std::process::id();
        assert_eq!(
            perror_line(None, "oor", -50),
            format!("libpvm [pid{pid}]: oor: Unknown Error")
        );
    }
}
