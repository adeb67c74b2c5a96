//! `same_as!`: C entries that are another entry under a second name, with
//! the same arguments and the same result. GA's Fortran library gives some
//! routines an `nga_` name beside the `ga_` one, and ARMCI's profiling
//! interface names every call a second time with a `P` in front.

/// Defines each `$alias` as a call of `$target` with the same arguments,
/// returning its result; the alias's documentation points at the target.
macro_rules! same_as {
    ($($alias:ident => $target:ident ($($a:ident: $t:ty),*) $(-> $r:ty)?;)*) => {
        $(
            #[doc = concat!("As `", stringify!($target), "`.")]
            #[allow(clippy::too_many_arguments)]
            #[no_mangle]
            pub extern "C" fn $alias($($a: $t),*) $(-> $r)? {
                $target($($a),*)
            }
        )*
    };
}

pub(crate) use same_as;
