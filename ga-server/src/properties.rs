//! Array properties (`GA_Set_property`, `GA_Unset_property`) and the
//! registry of user element types (`NGA_Register_type`,
//! `NGA_Deregister_type`), as GA 5.8 checks and numbers them.
//!
//! Properties: GA 5.8 knows `"read_only"` and `"read_cache"`; an array has
//! at most one, and `"read_only"` is refused on block-cyclic arrays and on
//! arrays of a processor group other than the world, as in GA. GA 5.8
//! makes a read-only array a copy per process; here the data stays where
//! it is (every process on a server's node reads it straight from the
//! node's segment already), so a property changes no result, and
//! `NGA_Distribution` still shows the blocks. The table is keyed by the
//! array's job-wide serial, so a handle reused after `GA_Destroy` starts
//! without a property.
//!
//! User types: each registered size gets the lowest free code from 1017
//! up (the first after `C_LONGLONG`), as GA numbers them; deregistering
//! gives 0, -1 for a built-in type code, -2 for a code not registered.

use crate::core::{self, ElemType, GaError, GaResult, Handle};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// The first code GA gives a registered type.
pub const FIRST_USER_TYPE: i32 = 1017;
/// How many types may be registered at once.
const MAX_USER_TYPES: usize = 256;

/// A property GA 5.8 knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    ReadOnly,
    ReadCache,
}

struct Tables {
    /// Array serial → its property.
    props: BTreeMap<u32, Property>,
    /// User type code → element size in bytes.
    types: BTreeMap<i32, usize>,
}

static TABLES: Mutex<Tables> = Mutex::new(Tables {
    props: BTreeMap::new(),
    types: BTreeMap::new(),
});

fn tables<R>(f: impl FnOnce(&mut Tables) -> R) -> R {
    f(&mut TABLES.lock().unwrap_or_else(|e| e.into_inner()))
}

fn serial(call: &'static str, g: Handle) -> GaResult<u32> {
    core::server_array_id(g).map_err(|_| GaError::new(call, format!("invalid array handle {g}")))
}

/// Gives `g` the property named `name` (collective: every process of the
/// array's group sets it, then they synchronise).
pub fn set(call: &'static str, g: Handle, name: &str) -> GaResult<()> {
    let s = serial(call, g)?;
    let p = match name.trim() {
        "read_only" => Property::ReadOnly,
        "read_cache" => Property::ReadCache,
        other => {
            return Err(GaError::new(
                call,
                format!("unknown property '{other}' (GA knows \"read_only\" and \"read_cache\")"),
            ))
        }
    };
    let label = core::name(g).unwrap_or_default();
    if let Some(old) = tables(|t| t.props.get(&s).copied()) {
        return Err(GaError::new(
            call,
            format!("array '{label}' already has property {old:?}; unset it first"),
        ));
    }
    if p == Property::ReadOnly {
        if core::cyclic_kind(g)?.0 {
            return Err(GaError::new(
                call,
                format!(
                    "array '{label}' is block-cyclic: read_only is not available on such arrays"
                ),
            ));
        }
        if core::array_group(g)?.0 != core::pgroups::WORLD {
            return Err(GaError::new(
                call,
                format!(
                    "array '{label}' lives on a processor group: read_only needs the world group"
                ),
            ));
        }
    }
    core::sync_array(g)?;
    tables(|t| t.props.insert(s, p));
    Ok(())
}

/// Removes the property of `g`, if it has one (collective).
pub fn unset(call: &'static str, g: Handle) -> GaResult<()> {
    let s = serial(call, g)?;
    core::sync_array(g)?;
    tables(|t| t.props.remove(&s));
    Ok(())
}

/// The property of `g`, if any.
pub fn get(g: Handle) -> Option<Property> {
    let s = core::server_array_id(g).ok()?;
    tables(|t| t.props.get(&s).copied())
}

/// Registers an element type of `bytes` bytes; returns its code, or an
/// error when the size is zero or the table is full.
pub fn register_type(call: &'static str, bytes: usize) -> GaResult<i32> {
    if bytes == 0 {
        return Err(GaError::new(call, "a type of 0 bytes cannot be registered"));
    }
    tables(|t| {
        if t.types.len() >= MAX_USER_TYPES {
            return Err(GaError::new(
                call,
                format!("{MAX_USER_TYPES} types are registered already"),
            ));
        }
        let code = (FIRST_USER_TYPE..)
            .find(|c| !t.types.contains_key(c))
            .unwrap_or(FIRST_USER_TYPE);
        t.types.insert(code, bytes);
        Ok(code)
    })
}

/// Deregisters a type: 0, or -1 for a built-in code, -2 for a code that
/// is not registered.
pub fn deregister_type(code: i32) -> i32 {
    if code < FIRST_USER_TYPE {
        return -1;
    }
    if tables(|t| t.types.remove(&code)).is_some() {
        0
    } else {
        -2
    }
}

/// The element size of a registered type.
pub fn user_type_size(code: i32) -> Option<usize> {
    tables(|t| t.types.get(&code).copied())
}

/// The element type of a built-in code, or of a code registered now (an
/// array keeps its element size when its type is deregistered later).
pub fn elem_type(code: i32) -> Option<ElemType> {
    ElemType::from_code(code).or_else(|| user_type_size(code).map(|n| ElemType::user(code, n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_reused_lowest_first_and_deregistering_reports_why() {
        let a = register_type("t", 24).unwrap();
        let b = register_type("t", 8).unwrap();
        assert!(a >= FIRST_USER_TYPE && b > a);
        assert_eq!(user_type_size(a), Some(24));
        assert_eq!(deregister_type(a), 0);
        assert_eq!(deregister_type(a), -2);
        assert_eq!(deregister_type(1004), -1);
        assert_eq!(register_type("t", 12).unwrap(), a);
        assert!(register_type("t", 0).is_err());
        assert_eq!(deregister_type(a), 0);
        assert_eq!(deregister_type(b), 0);
    }
}
