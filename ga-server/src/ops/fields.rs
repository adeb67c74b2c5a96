//! Field access of the GA APIs (`NGA_Get_field`, `NGA_Put_field` and their
//! non-blocking forms): the bytes `foff..foff+fsize` of every element of a
//! patch, to or from a buffer of `fsize`-byte items laid out with leading
//! dimensions `ld` (counted in items), in the C API's index convention.
//!
//! A get reads the patch's whole elements and keeps the field. A put reads
//! them, replaces the field and writes them back: other fields of those
//! elements written by another process between the two steps would be
//! undone, so, as for any GA put, concurrent writers of one element must
//! be ordered by the program (`GA_Sync`, a lock).

use super::patch::{check_patch, count, for_each_index, get_rect, put_rect, shape};
use crate::core::{GaError, GaResult, Handle};

/// A field of the elements of a patch and the user's buffer layout.
#[derive(Clone, Debug)]
pub struct Field {
    /// The patch, C order, `hi` inclusive.
    pub lo: Vec<i64>,
    pub hi: Vec<i64>,
    /// Byte offset and size of the field in an element.
    pub foff: i64,
    pub fsize: i64,
    /// Leading dimensions of the user's buffer, in items (ndim − 1).
    pub ld: Vec<i64>,
}

/// The user's buffer: filled by a get, read by a put.
pub enum Buffer<'a> {
    Get(&'a mut [u8]),
    Put(&'a [u8]),
}

/// Where a field call's data lies: element size, patch extents, item
/// strides of the user's buffer and how many items it must hold.
struct Layout {
    es: usize,
    sh: Vec<i64>,
    st: Vec<usize>,
    items: usize,
}

impl Field {
    /// Checks the field and the caller's leading dimensions against `g`.
    fn layout(&self, call: &'static str, g: Handle) -> GaResult<Layout> {
        let (ty, _) = check_patch(call, g, &self.lo, &self.hi)?;
        let es = ty.size() as i64;
        let (foff, fsize) = (self.foff, self.fsize);
        if foff < 0 || fsize < 1 || foff + fsize > es {
            return Err(GaError::new(
                call,
                format!(
                    "field of {fsize} bytes at offset {foff} is not inside the {es}-byte elements"
                ),
            ));
        }
        let sh = shape(&self.lo, &self.hi);
        let n = sh.len();
        let mut st = vec![1usize; n];
        for d in (0..n.saturating_sub(1)).rev() {
            let l = *self.ld.get(d).unwrap_or(&0);
            if l < sh[d + 1] {
                return Err(GaError::new(
                    call,
                    format!(
                        "ld[{d}] = {l} is smaller than the patch's extent {}",
                        sh[d + 1]
                    ),
                ));
            }
            st[d] = st[d + 1] * l as usize;
        }
        let items = if count(&sh) == 0 {
            0
        } else {
            1 + (0..n).map(|d| (sh[d] as usize - 1) * st[d]).sum::<usize>()
        };
        Ok(Layout {
            es: es as usize,
            sh,
            st,
            items,
        })
    }

    /// Bytes the user's buffer must hold.
    pub fn buffer_bytes(&self, call: &'static str, g: Handle) -> GaResult<usize> {
        Ok(self.layout(call, g)?.items * self.fsize as usize)
    }
}

/// Moves the field of each element of the patch of `g` into or out of the
/// user's buffer.
pub fn access(call: &'static str, g: Handle, f: &Field, buf: Buffer<'_>) -> GaResult<()> {
    let Layout { es, sh, st, .. } = f.layout(call, g)?;
    let (fo, fs) = (f.foff as usize, f.fsize as usize);
    let mut data = get_rect(call, g, es, &f.lo, &f.hi)?;
    let mut places = Vec::with_capacity(count(&sh));
    let mut k = 0;
    for_each_index(&sh, |ix| {
        let at: usize = ix.iter().zip(&st).map(|(&i, &s)| i as usize * s).sum();
        places.push((k * es + fo, at * fs));
        k += 1;
    });
    match buf {
        Buffer::Get(out) => {
            for (e, u) in places {
                out[u..u + fs].copy_from_slice(&data[e..e + fs]);
            }
            Ok(())
        }
        Buffer::Put(src) => {
            for (e, u) in places {
                data[e..e + fs].copy_from_slice(&src[u..u + fs]);
            }
            put_rect(call, g, &f.lo, &f.hi, &data)
        }
    }
}
