//! Element types, errors and distributions of the GA core.

use std::fmt;

/// A GA handle: non-zero (array index − 1000); 0 means failure in the C API.
pub type Handle = i32;

/// The element types GA arrays can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    Char,
    Int,
    Long,
    LongLong,
    Float,
    Double,
    LongDouble,
    SComplex,
    DComplex,
    LDComplex,
    /// A type from `NGA_Register_type`: its code (1017 up) and element
    /// size in bytes. Arrays of it move, copy and zero bytes; arithmetic
    /// refuses it, as GA's does.
    User {
        code: i32,
        size: u32,
    },
}

/// Wire number of every user type (its size travels beside it).
const USER_WIRE: u8 = 10;

/// Every built-in type, in wire order.
const ALL: [ElemType; 10] = [
    ElemType::Char,
    ElemType::Int,
    ElemType::Long,
    ElemType::LongLong,
    ElemType::Float,
    ElemType::Double,
    ElemType::LongDouble,
    ElemType::SComplex,
    ElemType::DComplex,
    ElemType::LDComplex,
];

/// `C_*` type codes of `macdecls.h` (MT_BASE = 1000).
pub mod codes {
    pub const C_CHAR: i32 = 1000;
    pub const C_INT: i32 = 1001;
    pub const C_LONG: i32 = 1002;
    pub const C_FLOAT: i32 = 1003;
    pub const C_DBL: i32 = 1004;
    pub const C_LDBL: i32 = 1005;
    pub const C_SCPL: i32 = 1006;
    pub const C_DCPL: i32 = 1007;
    pub const C_LDCPL: i32 = 1008;
    pub const F_BYTE: i32 = 1009;
    pub const F_INT: i32 = 1010;
    pub const F_LOG: i32 = 1011;
    pub const F_REAL: i32 = 1012;
    pub const F_DBL: i32 = 1013;
    pub const F_SCPL: i32 = 1014;
    pub const F_DCPL: i32 = 1015;
    pub const C_LONGLONG: i32 = 1016;
}

impl ElemType {
    /// A user type of `size` bytes registered as `code`.
    pub fn user(code: i32, size: usize) -> ElemType {
        ElemType::User {
            code,
            size: u32::try_from(size).unwrap_or(u32::MAX),
        }
    }

    /// Whether this is a type from `NGA_Register_type`.
    pub fn is_user(self) -> bool {
        matches!(self, ElemType::User { .. })
    }

    /// The type of a built-in `C_*` or `F_*` code. Fortran INTEGER and LOGICAL are
    /// 8 bytes (`-fdefault-integer-8`), so `F_INT` and `F_LOG` are `Long`.
    pub fn from_code(code: i32) -> Option<ElemType> {
        use codes::*;
        Some(match code {
            C_CHAR | F_BYTE => ElemType::Char,
            C_INT => ElemType::Int,
            C_LONG | F_INT | F_LOG => ElemType::Long,
            C_LONGLONG => ElemType::LongLong,
            C_FLOAT | F_REAL => ElemType::Float,
            C_DBL | F_DBL => ElemType::Double,
            C_LDBL => ElemType::LongDouble,
            C_SCPL | F_SCPL => ElemType::SComplex,
            C_DCPL | F_DCPL => ElemType::DComplex,
            C_LDCPL => ElemType::LDComplex,
            _ => return None,
        })
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::Char => 1,
            ElemType::Int | ElemType::Float => 4,
            ElemType::Long | ElemType::LongLong | ElemType::Double | ElemType::SComplex => 8,
            ElemType::LongDouble | ElemType::DComplex => 16,
            ElemType::LDComplex => 32,
            ElemType::User { size, .. } => size as usize,
        }
    }

    /// The `C_*` code of this type.
    pub fn c_code(self) -> i32 {
        use codes::*;
        match self {
            ElemType::Char => C_CHAR,
            ElemType::Int => C_INT,
            ElemType::Long => C_LONG,
            ElemType::LongLong => C_LONGLONG,
            ElemType::Float => C_FLOAT,
            ElemType::Double => C_DBL,
            ElemType::LongDouble => C_LDBL,
            ElemType::SComplex => C_SCPL,
            ElemType::DComplex => C_DCPL,
            ElemType::LDComplex => C_LDCPL,
            ElemType::User { code, .. } => code,
        }
    }

    /// Wire number of the type (0..9 built in, 10 a user type) and, for
    /// a user type, its code and size (else 0, 0).
    pub fn wire(self) -> (u8, i32, u32) {
        match self {
            ElemType::User { code, size } => (USER_WIRE, code, size),
            t => (ALL.iter().position(|&a| a == t).unwrap_or(0) as u8, 0, 0),
        }
    }

    /// The type of a wire number (with a user type's code and size).
    pub fn from_wire((w, code, size): (u8, i32, u32)) -> Option<ElemType> {
        match w {
            USER_WIRE if size > 0 => Some(ElemType::User { code, size }),
            _ => ALL.get(w as usize).copied(),
        }
    }

    /// Whether read-increment is defined on this type.
    pub fn is_integer_counter(self) -> bool {
        matches!(self, ElemType::Int | ElemType::Long | ElemType::LongLong)
    }
}

/// An error of a GA call: which call, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaError {
    /// The GA call, e.g. `"NGA_Put"`.
    pub call: &'static str,
    /// What was wrong, e.g. `"patch [0:9,3:20] outside g_a 'A' [0:9,0:9]"`.
    pub message: String,
}

impl GaError {
    /// An error of `call`.
    pub fn new(call: &'static str, message: impl Into<String>) -> GaError {
        GaError {
            call,
            message: message.into(),
        }
    }

    /// Turns an error of the MPI backend (shim-core) into one of `call`.
    pub fn backend(call: &'static str) -> impl Fn(shim_core::CoreError) -> GaError + Copy {
        move |e| GaError::new(call, e.to_string())
    }
}

impl fmt::Display for GaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.call, self.message)
    }
}

impl std::error::Error for GaError {}

/// Result of a GA core call.
pub type GaResult<T> = Result<T, GaError>;

/// How an array is split over the compute ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// GA's default: GA 5.8's grid of blocks, at most one per rank.
    Default,
    /// Blocks of at least `chunk[d]` elements along dimension d (≤ 0: no minimum).
    Chunk(Vec<i64>),
    /// `block[d]` blocks along dimension d, starting at the 0-based offsets of
    /// `map` (the starts of dimension 0, then of dimension 1, ...).
    Irregular { block: Vec<i64>, map: Vec<i64> },
    /// Block-cyclic: blocks of `block[d]` elements (the last one along a
    /// dimension may be shorter), dealt out in turn. Without `grid`, block k
    /// (numbered in C order) goes to process k mod nproc
    /// (`GA_Set_block_cyclic`); with it, block (b0, b1, ...) goes to the
    /// process at coordinates (b0 mod grid[0], b1 mod grid[1], ...) of a
    /// process grid numbered in C order (`GA_Set_block_cyclic_proc_grid`,
    /// `GA_Set_tiled_proc_grid`). Every block is stored as its own tile.
    BlockCyclic {
        block: Vec<i64>,
        grid: Option<Vec<i64>>,
    },
    /// Tiles of irregular sizes (`block` and `map` as for `Irregular`)
    /// dealt over the process grid `grid` as `BlockCyclic` with a grid
    /// deals its blocks (`GA_Set_tiled_irreg_proc_grid`).
    TiledIrregular {
        block: Vec<i64>,
        map: Vec<i64>,
        grid: Vec<i64>,
    },
}

/// Formats a patch as `[lo0:hi0,lo1:hi1]`.
pub fn fmt_patch(lo: &[i64], hi: &[i64]) -> String {
    let parts: Vec<String> = lo
        .iter()
        .zip(hi.iter())
        .map(|(l, h)| format!("{l}:{h}"))
        .collect();
    format!("[{}]", parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for c in 1000..=1016 {
            let t = ElemType::from_code(c).expect("every code has a type");
            assert_eq!(ElemType::from_code(t.c_code()), Some(t));
            assert_eq!(ElemType::from_wire(t.wire()), Some(t));
        }
        assert_eq!(ElemType::from_code(999), None);
        assert_eq!(ElemType::from_code(1017), None);
        assert_eq!(ElemType::from_code(codes::F_INT).map(|t| t.size()), Some(8));
        let u = ElemType::user(1017, 12);
        assert_eq!((u.size(), u.c_code(), u.is_user()), (12, 1017, true));
        assert_eq!(ElemType::from_wire(u.wire()), Some(u));
        assert_eq!(ElemType::from_wire((10, 1017, 0)), None);
    }

    #[test]
    fn error_text_names_call_and_patch() {
        let e = GaError::new(
            "NGA_Put",
            format!("patch {} outside", fmt_patch(&[0, 3], &[9, 20])),
        );
        assert_eq!(e.to_string(), "NGA_Put: patch [0:9,3:20] outside");
    }
}
