//! PVM message buffers and packing.
//!
//! A [`MsgBuf`] holds one message body and a read cursor. Items are appended
//! with the `pk_*` functions and read back, in the same order and with the same
//! types, with the `upk_*` functions; the stream carries no type tags.
//!
//! Three encodings exist:
//! - [`Encoding::Default`]: XDR, big-endian. Every item takes a multiple of
//!   4 bytes: `short`/`ushort` are widened to 4 bytes, `long`/`ulong` are
//!   narrowed to 4 bytes (a value that does not fit is `PvmOverflow`), and each
//!   run of bytes is padded with zeros to a multiple of 4.
//! - [`Encoding::Raw`]: native copies of the C types (LP64: `long` is 8 bytes),
//!   without padding.
//! - [`Encoding::InPlace`]: the buffer records where the caller's data lives and
//!   reads it only when the message is sent ([`MsgBuf::wire`]); the bytes on the
//!   wire are in the raw layout. Unpacking reads only the copied bytes, so an
//!   in-place send buffer is readable once it has been sent and received.

use crate::{PvmError, PvmResult};
use std::borrow::Cow;

/// Bodies at least this large are kept in storage laid out for huge pages
/// ([`crate::ptr::huge_storage`]).
pub const HUGE_MIN: usize = 2 << 20;

/// `PvmBadParam`: an argument is invalid.
const PVM_BAD_PARAM: i32 = -2;
/// `PvmOverflow`: a value does not fit the encoding.
const PVM_OVERFLOW: i32 = -4;
/// `PvmNoData`: reading past the end of the buffer.
const PVM_NO_DATA: i32 = -5;
/// `PvmNotImpl`: the operation is not available for this encoding.
const PVM_NOT_IMPL: i32 = -24;

const BAD_PARAM: PvmError = PvmError(PVM_BAD_PARAM);
const OVERFLOW: PvmError = PvmError(PVM_OVERFLOW);
const NO_DATA: PvmError = PvmError(PVM_NO_DATA);
const NOT_IMPL: PvmError = PvmError(PVM_NOT_IMPL);

/// How a message body is encoded (the argument of `pvm_initsend`/`pvm_mkbuf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `PvmDataDefault` (0): XDR.
    Default,
    /// `PvmDataRaw` (1): native layout.
    Raw,
    /// `PvmDataInPlace` (2): data left in the caller's memory until sent.
    InPlace,
}

impl Encoding {
    /// The encoding for a `pvm3.h` code: 0, 1 or 2. Any other code
    /// (including `PvmDataTrace`, which `pvm_initsend` does not document) is `None`.
    pub fn from_code(code: i32) -> Option<Encoding> {
        match code {
            0 => Some(Encoding::Default),
            1 => Some(Encoding::Raw),
            2 => Some(Encoding::InPlace),
            _ => None,
        }
    }

    /// The `pvm3.h` code of this encoding.
    pub fn code(self) -> i32 {
        match self {
            Encoding::Default => 0,
            Encoding::Raw => 1,
            Encoding::InPlace => 2,
        }
    }
}

/// Size in bytes of one element of a `pvm3.h` datatype (`PVM_STR` .. `PVM_ULONG`)
/// in the native LP64 layout, as `pvm_psend`/`pvm_precv` use it. Unknown codes give `None`.
pub fn datatype_size(dt: i32) -> Option<usize> {
    match dt {
        0 | 1 => Some(1),          // PVM_STR, PVM_BYTE
        2 | 9 => Some(2),          // PVM_SHORT, PVM_USHORT
        3 | 4 | 10 => Some(4),     // PVM_INT, PVM_FLOAT, PVM_UINT
        5 | 6 | 8 | 11 => Some(8), // PVM_CPLX, PVM_DOUBLE, PVM_LONG, PVM_ULONG
        7 => Some(16),             // PVM_DCPLX
        _ => None,
    }
}

/// A region of the caller's memory recorded by [`MsgBuf::pk_inplace`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct InPlaceRef {
    /// Offset in the copied body where this region belongs.
    at: usize,
    addr: usize,
    elem_size: usize,
    nitem: usize,
    stride: usize,
}

/// One PVM message buffer: the packed body and a read cursor.
#[derive(Clone, Debug)]
pub struct MsgBuf {
    enc: Encoding,
    /// Bytes packed by copy (for a received buffer: the whole body).
    body: Vec<u8>,
    /// In-place regions, in packing order, each placed at an offset of `body`.
    refs: Vec<InPlaceRef>,
    /// Read position in `body`.
    cursor: usize,
    /// Bytes of a received body that were handed straight to the caller's
    /// memory by its first unpack and are not held here (see
    /// [`MsgBuf::set_spent`]).
    spent: usize,
}

/// A C type that can be packed: its native layout and its XDR form.
trait Item: crate::ptr::Plain {
    /// Bytes of one item in the native layout.
    const RAW_SIZE: usize;
    /// Bytes of one item in XDR (before the padding of a run).
    const XDR_SIZE: usize;
    /// Appends the native bytes.
    fn put_raw(self, out: &mut Vec<u8>);
    /// Appends the XDR bytes, or fails with `PvmOverflow`.
    fn put_xdr(self, out: &mut Vec<u8>) -> PvmResult<()>;
    /// Decodes from exactly `RAW_SIZE` native bytes.
    fn get_raw(b: &[u8]) -> Self;
    /// Decodes from exactly `XDR_SIZE` XDR bytes.
    fn get_xdr(b: &[u8]) -> Self;
}

/// Copies a slice of the right length into an array (lengths are checked by the callers).
fn array<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(b);
    a
}

/// Implements [`Item`] for a scalar type `$t` whose XDR form is the type `$wire`.
macro_rules! scalar_item {
    ($t:ty, $wire:ty, |$v:ident| $encode:expr, |$w:ident| $decode:expr) => {
        impl Item for $t {
            const RAW_SIZE: usize = std::mem::size_of::<$t>();
            const XDR_SIZE: usize = std::mem::size_of::<$wire>();
            fn put_raw(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_ne_bytes());
            }
            fn put_xdr(self, out: &mut Vec<u8>) -> PvmResult<()> {
                let $v = self;
                let wire: $wire = $encode?;
                out.extend_from_slice(&wire.to_be_bytes());
                Ok(())
            }
            fn get_raw(b: &[u8]) -> Self {
                <$t>::from_ne_bytes(array(b))
            }
            fn get_xdr(b: &[u8]) -> Self {
                let $w = <$wire>::from_be_bytes(array(b));
                $decode
            }
        }
    };
}

scalar_item!(u8, u8, |v| Ok::<u8, PvmError>(v), |w| w);
scalar_item!(i16, i32, |v| Ok::<i32, PvmError>(v.into()), |w| w as i16);
scalar_item!(u16, u32, |v| Ok::<u32, PvmError>(v.into()), |w| w as u16);
scalar_item!(i32, i32, |v| Ok::<i32, PvmError>(v), |w| w);
scalar_item!(u32, u32, |v| Ok::<u32, PvmError>(v), |w| w);
scalar_item!(i64, i32, |v| i32::try_from(v).map_err(|_| OVERFLOW), |w| w
    .into());
scalar_item!(u64, u32, |v| u32::try_from(v).map_err(|_| OVERFLOW), |w| w
    .into());
scalar_item!(f32, f32, |v| Ok::<f32, PvmError>(v), |w| w);
scalar_item!(f64, f64, |v| Ok::<f64, PvmError>(v), |w| w);

/// A complex number: real part, then imaginary part.
impl<T: Item> Item for [T; 2] {
    const RAW_SIZE: usize = 2 * T::RAW_SIZE;
    const XDR_SIZE: usize = 2 * T::XDR_SIZE;
    fn put_raw(self, out: &mut Vec<u8>) {
        self[0].put_raw(out);
        self[1].put_raw(out);
    }
    fn put_xdr(self, out: &mut Vec<u8>) -> PvmResult<()> {
        self[0].put_xdr(out)?;
        self[1].put_xdr(out)
    }
    fn get_raw(b: &[u8]) -> Self {
        let (re, im) = b.split_at(T::RAW_SIZE);
        [T::get_raw(re), T::get_raw(im)]
    }
    fn get_xdr(b: &[u8]) -> Self {
        let (re, im) = b.split_at(T::XDR_SIZE);
        [T::get_xdr(re), T::get_xdr(im)]
    }
}

/// `n` rounded up to a multiple of 4 (XDR alignment).
fn pad4(n: usize) -> usize {
    n.div_ceil(4) * 4
}

/// Checks that a slice of `len` elements holds `nitem` items at `stride`.
fn check_span(len: usize, nitem: usize, stride: usize) -> PvmResult<()> {
    if stride == 0 {
        return Err(BAD_PARAM);
    }
    if nitem == 0 {
        return Ok(());
    }
    let need = (nitem - 1)
        .checked_mul(stride)
        .and_then(|n| n.checked_add(1))
        .ok_or(BAD_PARAM)?;
    if len < need {
        return Err(BAD_PARAM);
    }
    Ok(())
}

/// Generates a pair of public `pk_*`/`upk_*` functions for one C type.
macro_rules! pk_upk {
    ($pk:ident, $upk:ident, $t:ty, $c:literal) => {
        #[doc = concat!("Packs `nitem` values of C type `", $c, "` taken from every `stride`-th element of `data`.")]
        #[inline]
        pub fn $pk(&mut self, data: &[$t], nitem: usize, stride: usize) -> PvmResult<()> {
            self.pack(data, nitem, stride)
        }

        #[doc = concat!("Unpacks `nitem` values of C type `", $c, "` into every `stride`-th slot of `out`.")]
        #[inline]
        pub fn $upk(&mut self, out: &mut [$t], nitem: usize, stride: usize) -> PvmResult<()> {
            self.unpack(out, nitem, stride)
        }
    };
}

impl MsgBuf {
    /// An empty send buffer with encoding `enc`.
    pub fn new(enc: Encoding) -> MsgBuf {
        MsgBuf {
            enc,
            body: Vec::new(),
            refs: Vec::new(),
            cursor: 0,
            spent: 0,
        }
    }

    /// A buffer holding received bytes `wire`, packed by the sender with
    /// encoding `enc` (an in-place message arrives in the raw layout).
    pub fn received(enc: Encoding, wire: Vec<u8>) -> MsgBuf {
        MsgBuf {
            enc,
            body: wire,
            refs: Vec::new(),
            cursor: 0,
            spent: 0,
        }
    }

    /// Makes this buffer hold received bytes `wire` packed with `enc`, as
    /// [`received`](Self::received) would make it.
    #[inline]
    pub fn refill(&mut self, enc: Encoding, wire: Vec<u8>) {
        self.enc = enc;
        self.body = wire;
        self.refs.clear();
        self.cursor = 0;
        self.spent = 0;
    }

    /// An empty send buffer that reuses `storage`'s capacity.
    pub fn with_storage(enc: Encoding, mut storage: Vec<u8>) -> MsgBuf {
        storage.clear();
        MsgBuf {
            enc,
            body: storage,
            refs: Vec::new(),
            cursor: 0,
            spent: 0,
        }
    }

    /// Empties the buffer for packing anew with `enc`, keeping the room of
    /// its storage and of its in-place list.
    pub fn reset(&mut self, enc: Encoding) {
        self.enc = enc;
        self.body.clear();
        self.refs.clear();
        self.cursor = 0;
        self.spent = 0;
    }

    /// Gives up the buffer, returning its storage for reuse.
    pub fn into_storage(self) -> Vec<u8> {
        self.body
    }

    /// The encoding of this buffer.
    pub fn encoding(&self) -> Encoding {
        self.enc
    }

    /// Length of the encoded body in bytes, as `pvm_bufinfo` reports it
    /// (in-place regions count with the bytes they will send).
    pub fn byte_len(&self) -> usize {
        self.body.len()
            + self.spent
            + self
                .refs
                .iter()
                .map(|r| r.elem_size * r.nitem)
                .sum::<usize>()
    }

    /// True when items are stored as XDR.
    fn xdr(&self) -> bool {
        self.enc == Encoding::Default
    }

    /// Whether items of `T` are stored as their native bytes (any type in
    /// the raw layout, bytes in XDR), so a contiguous run is one copy.
    #[inline(always)]
    fn stores_native<T: Item>(&self) -> bool {
        !self.xdr() || T::XDR_SIZE == T::RAW_SIZE && T::RAW_SIZE == 1
    }

    /// Makes room for `extra` more bytes. A body growing to `HUGE_MIN` or
    /// more moves to storage laid out for huge pages, at least doubling its
    /// room (a message packed in many pieces is moved a bounded number of
    /// times).
    #[inline]
    fn reserve(&mut self, extra: usize) {
        if self.body.capacity() - self.body.len() < extra {
            self.grow(extra);
        }
    }

    /// [`reserve`](Self::reserve) when the room is short.
    #[inline(never)]
    fn grow(&mut self, extra: usize) {
        let len = self.body.len();
        let total = len.saturating_add(extra);
        if total < HUGE_MIN {
            self.body.reserve(extra);
            return;
        }
        let room = total.max(self.body.capacity().saturating_mul(2));
        let mut grown = crate::ptr::huge_storage(room);
        grown.extend_from_slice(&self.body);
        self.body = grown;
    }

    /// Appends `nitem` items of `data` at `stride`; on failure nothing is appended.
    ///
    /// Contiguous items stored as their native bytes are copied as one
    /// block, inline; the rest is packed item by item out of line.
    #[inline]
    fn pack<T: Item>(&mut self, data: &[T], nitem: usize, stride: usize) -> PvmResult<()> {
        if stride != 1 || !self.stores_native::<T>() || nitem > data.len() {
            return self.pack_items(data, nitem, stride);
        }
        let bytes = crate::ptr::bytes_of(&data[..nitem]);
        self.reserve(pad4(bytes.len()));
        self.body.extend_from_slice(bytes);
        if self.xdr() {
            self.body.resize(pad4(self.body.len()), 0);
        }
        Ok(())
    }

    /// [`pack`](Self::pack) item by item (strided or converted items), and
    /// its argument checks.
    #[inline(never)]
    fn pack_items<T: Item>(&mut self, data: &[T], nitem: usize, stride: usize) -> PvmResult<()> {
        check_span(data.len(), nitem, stride)?;
        let size = if self.xdr() { T::XDR_SIZE } else { T::RAW_SIZE };
        self.reserve(pad4(nitem.saturating_mul(size)));
        let items = data.iter().step_by(stride).take(nitem);
        if !self.xdr() {
            items.for_each(|v| v.put_raw(&mut self.body));
            return Ok(());
        }
        let start = self.body.len();
        for v in items {
            if let Err(e) = v.put_xdr(&mut self.body) {
                self.body.truncate(start);
                return Err(e);
            }
        }
        self.body.resize(start + pad4(self.body.len() - start), 0);
        Ok(())
    }

    /// The `len` bytes at offset `at` of the body, or `PvmNoData`.
    fn peek(&self, at: usize, len: usize) -> PvmResult<&[u8]> {
        let end = at.checked_add(len).ok_or(NO_DATA)?;
        self.body.get(at..end).ok_or(NO_DATA)
    }

    /// Reads `nitem` items into every `stride`-th slot of `out`; on failure the cursor stays.
    ///
    /// Contiguous items stored as their native bytes are one copy, inline;
    /// the rest is unpacked item by item out of line.
    #[inline]
    fn unpack<T: Item>(&mut self, out: &mut [T], nitem: usize, stride: usize) -> PvmResult<()> {
        if stride != 1 || !self.stores_native::<T>() || nitem > out.len() {
            return self.unpack_items(out, nitem, stride);
        }
        let out = crate::ptr::bytes_of_mut(&mut out[..nitem]);
        let run = out.len();
        let taken = if self.xdr() { pad4(run) } else { run };
        let bytes = self.peek(self.cursor, taken)?;
        out.copy_from_slice(&bytes[..run]);
        self.cursor += taken;
        Ok(())
    }

    /// [`unpack`](Self::unpack) item by item (strided or converted items),
    /// and its argument checks.
    #[inline(never)]
    fn unpack_items<T: Item>(
        &mut self,
        out: &mut [T],
        nitem: usize,
        stride: usize,
    ) -> PvmResult<()> {
        check_span(out.len(), nitem, stride)?;
        let (size, get): (usize, fn(&[u8]) -> T) = if self.xdr() {
            (T::XDR_SIZE, T::get_xdr)
        } else {
            (T::RAW_SIZE, T::get_raw)
        };
        let run = nitem.checked_mul(size).ok_or(NO_DATA)?;
        let taken = if self.xdr() { pad4(run) } else { run };
        let bytes = self.peek(self.cursor, taken)?;
        for (slot, chunk) in out
            .iter_mut()
            .step_by(stride)
            .zip(bytes[..run].chunks_exact(size))
        {
            *slot = get(chunk);
        }
        self.cursor += taken;
        Ok(())
    }

    pk_upk!(pk_byte, upk_byte, u8, "char");
    pk_upk!(pk_short, upk_short, i16, "short");
    pk_upk!(pk_ushort, upk_ushort, u16, "unsigned short");
    pk_upk!(pk_int, upk_int, i32, "int");
    pk_upk!(pk_uint, upk_uint, u32, "unsigned int");
    pk_upk!(pk_long, upk_long, i64, "long");
    pk_upk!(pk_ulong, upk_ulong, u64, "unsigned long");
    pk_upk!(pk_float, upk_float, f32, "float");
    pk_upk!(pk_double, upk_double, f64, "double");
    pk_upk!(pk_cplx, upk_cplx, [f32; 2], "float complex");
    pk_upk!(pk_dcplx, upk_dcplx, [f64; 2], "double complex");

    /// Packs a C string given without its NUL: an int `len + 1`, then the bytes
    /// and the NUL (padded to 4 in XDR). `PvmNotImpl` for an in-place buffer.
    pub fn pk_str(&mut self, s: &[u8]) -> PvmResult<()> {
        if self.enc == Encoding::InPlace {
            return Err(NOT_IMPL);
        }
        let len = s.len().checked_add(1).ok_or(BAD_PARAM)?;
        let len = i32::try_from(len).map_err(|_| BAD_PARAM)?;
        self.pk_int(&[len], 1, 1)?;
        let start = self.body.len();
        self.body.extend_from_slice(s);
        self.body.push(0);
        if self.xdr() {
            self.body.resize(start + pad4(s.len() + 1), 0);
        }
        Ok(())
    }

    /// Unpacks a string packed by [`MsgBuf::pk_str`]; the result excludes the NUL.
    /// On failure the cursor stays.
    pub fn upk_str(&mut self) -> PvmResult<Vec<u8>> {
        let head = array(self.peek(self.cursor, 4)?);
        let len = if self.xdr() {
            i32::from_be_bytes(head)
        } else {
            i32::from_ne_bytes(head)
        };
        let len = usize::try_from(len).map_err(|_| NO_DATA)?;
        let taken = if self.xdr() { pad4(len) } else { len };
        let mut s = self.peek(self.cursor + 4, taken)?[..len].to_vec();
        if s.last() == Some(&0) {
            s.pop();
        }
        self.cursor += 4 + taken;
        Ok(s)
    }

    /// Records, for an in-place buffer, `nitem` elements of `elem_size` bytes at
    /// every `stride`-th element from address `addr`; they are read at send time.
    /// `PvmBadParam` for another encoding, a zero size or stride, or an overflow.
    pub fn pk_inplace(
        &mut self,
        addr: usize,
        elem_size: usize,
        nitem: usize,
        stride: usize,
    ) -> PvmResult<()> {
        if self.enc != Encoding::InPlace || elem_size == 0 || stride == 0 {
            return Err(BAD_PARAM);
        }
        if nitem == 0 {
            return Ok(());
        }
        elem_size.checked_mul(nitem).ok_or(BAD_PARAM)?;
        self.refs.push(InPlaceRef {
            at: self.body.len(),
            addr,
            elem_size,
            nitem,
            stride,
        });
        Ok(())
    }

    /// The bytes to send. In-place regions are fetched now, in packing order,
    /// with `read(addr, elem_size, nitem, stride)`, which returns their packed
    /// native bytes.
    /// Without in-place regions the body itself is returned, uncopied.
    #[inline]
    pub fn wire(&self, read: &dyn Fn(usize, usize, usize, usize) -> Vec<u8>) -> Cow<'_, [u8]> {
        if self.refs.is_empty() {
            return Cow::Borrowed(&self.body);
        }
        self.gathered(read)
    }

    /// [`wire`](Self::wire) of a buffer with in-place regions.
    fn gathered(&self, read: &dyn Fn(usize, usize, usize, usize) -> Vec<u8>) -> Cow<'_, [u8]> {
        let mut out = Vec::with_capacity(self.byte_len());
        let mut done = 0;
        for r in &self.refs {
            out.extend_from_slice(&self.body[done..r.at]);
            done = r.at;
            out.extend_from_slice(&read(r.addr, r.elem_size, r.nitem, r.stride));
        }
        out.extend_from_slice(&self.body[done..]);
        Cow::Owned(out)
    }

    /// The caller's memory that is the whole message, when it is one piece:
    /// an in-place buffer with no copied bytes whose regions each lie
    /// contiguously (stride 1, or a single item) and follow one another in
    /// memory. Returns `(addr, len)`; `None` otherwise. Such a message can
    /// be sent straight from that memory instead of through [`MsgBuf::wire`].
    pub fn sole_region(&self) -> Option<(usize, usize)> {
        if !self.body.is_empty() || self.spent != 0 {
            return None;
        }
        let start = self.refs.first()?.addr;
        let mut end = start;
        for r in &self.refs {
            if r.addr != end || (r.stride != 1 && r.nitem > 1) {
                return None;
            }
            end = end.checked_add(r.elem_size.checked_mul(r.nitem)?)?;
        }
        Some((start, end - start))
    }

    /// Moves the read cursor back to the start of the body.
    pub fn rewind(&mut self) {
        self.cursor = 0;
    }

    /// Whether nothing was read from the buffer yet and it holds no bytes
    /// (a received buffer whose body is still to come).
    pub fn untouched_empty(&self) -> bool {
        self.cursor == 0 && self.body.is_empty() && self.refs.is_empty() && self.spent == 0
    }

    /// The storage of an empty received buffer, for its body to be
    /// received into.
    pub fn fill_storage(&mut self) -> &mut Vec<u8> {
        &mut self.body
    }

    /// Records that the whole body (`len` bytes) of this empty received
    /// buffer was delivered straight into the caller's memory by its first
    /// unpack: the buffer then reads as fully unpacked, reports `len`
    /// bytes, and can no longer be sent or read again (`PvmNoData`).
    pub fn set_spent(&mut self, len: usize) {
        self.spent = len;
    }

    /// `PvmNoData` if the body was handed to the caller's memory (see
    /// [`MsgBuf::set_spent`]), so the buffer's bytes cannot be sent.
    pub fn whole(&self) -> PvmResult<()> {
        if self.spent > 0 {
            Err(NO_DATA)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    const ENCS: [Encoding; 2] = [Encoding::Default, Encoding::Raw];

    fn len_after(enc: Encoding, f: impl FnOnce(&mut MsgBuf) -> PvmResult<()>) -> usize {
        let mut b = MsgBuf::new(enc);
        f(&mut b).unwrap();
        b.byte_len()
    }

    /// A send buffer turned into the receiver's view.
    fn deliver(b: &MsgBuf) -> MsgBuf {
        MsgBuf::received(
            b.encoding(),
            b.wire(&|_, _, _, _| panic!("no in-place data"))
                .into_owned(),
        )
    }

    #[test]
    fn encoding_codes() {
        for enc in [Encoding::Default, Encoding::Raw, Encoding::InPlace] {
            assert_eq!(Encoding::from_code(enc.code()), Some(enc));
        }
        assert_eq!(Encoding::Default.code(), 0);
        assert_eq!(Encoding::Raw.code(), 1);
        assert_eq!(Encoding::InPlace.code(), 2);
        for bad in [-1, 3, 4, 5, 0x1000_0000] {
            assert_eq!(Encoding::from_code(bad), None);
        }
    }

    #[test]
    fn byte_counts_xdr() {
        let d = Encoding::Default;
        assert_eq!(len_after(d, |b| b.pk_int(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_uint(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_short(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_ushort(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_long(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_ulong(&[1], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_float(&[1.0], 1, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_double(&[1.0], 1, 1)), 8);
        assert_eq!(len_after(d, |b| b.pk_cplx(&[[1.0, 2.0]], 1, 1)), 8);
        assert_eq!(len_after(d, |b| b.pk_dcplx(&[[1.0, 2.0]], 1, 1)), 16);
        assert_eq!(len_after(d, |b| b.pk_str(b"abc")), 8);
        assert_eq!(len_after(d, |b| b.pk_byte(b"abc", 3, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_byte(b"abcd", 4, 1)), 4);
        assert_eq!(len_after(d, |b| b.pk_byte(b"abcde", 5, 1)), 8);
        // each byte run pads on its own
        assert_eq!(
            len_after(d, |b| {
                b.pk_byte(b"a", 1, 1)?;
                b.pk_byte(b"b", 1, 1)
            }),
            8
        );
        assert_eq!(len_after(d, |b| b.pk_short(&[1, 2, 3], 3, 1)), 12);
    }

    #[test]
    fn byte_counts_raw() {
        for enc in [Encoding::Raw, Encoding::InPlace] {
            assert_eq!(len_after(enc, |b| b.pk_int(&[1], 1, 1)), 4);
            assert_eq!(len_after(enc, |b| b.pk_short(&[1], 1, 1)), 2);
            assert_eq!(len_after(enc, |b| b.pk_ushort(&[1], 1, 1)), 2);
            assert_eq!(len_after(enc, |b| b.pk_long(&[1], 1, 1)), 8);
            assert_eq!(len_after(enc, |b| b.pk_ulong(&[1], 1, 1)), 8);
            assert_eq!(len_after(enc, |b| b.pk_float(&[1.0], 1, 1)), 4);
            assert_eq!(len_after(enc, |b| b.pk_double(&[1.0], 1, 1)), 8);
            assert_eq!(len_after(enc, |b| b.pk_cplx(&[[1.0, 2.0]], 1, 1)), 8);
            assert_eq!(len_after(enc, |b| b.pk_dcplx(&[[1.0, 2.0]], 1, 1)), 16);
            assert_eq!(len_after(enc, |b| b.pk_byte(b"abc", 3, 1)), 3);
        }
        assert_eq!(len_after(Encoding::Raw, |b| b.pk_str(b"abc")), 8);
        assert_eq!(len_after(Encoding::Raw, |b| b.pk_str(b"abcd")), 9);
    }

    #[test]
    fn nothing_packed_for_zero_items() {
        for enc in ENCS {
            assert_eq!(len_after(enc, |b| b.pk_byte(&[], 0, 1)), 0);
            assert_eq!(len_after(enc, |b| b.pk_double(&[], 0, 5)), 0);
            let mut b = deliver(&MsgBuf::new(enc));
            assert_eq!(b.upk_int(&mut [], 0, 1), Ok(()));
        }
    }

    #[test]
    fn xdr_bytes() {
        let mut b = MsgBuf::new(Encoding::Default);
        b.pk_int(&[1], 1, 1).unwrap();
        b.pk_short(&[-2], 1, 1).unwrap();
        b.pk_ushort(&[0xfffe], 1, 1).unwrap();
        b.pk_long(&[-1], 1, 1).unwrap();
        b.pk_ulong(&[0x8000_0000], 1, 1).unwrap();
        b.pk_double(&[1.0], 1, 1).unwrap();
        b.pk_float(&[-2.5], 1, 1).unwrap();
        b.pk_byte(b"xy", 2, 1).unwrap();
        b.pk_str(b"hi").unwrap();
        b.pk_cplx(&[[1.0, -1.0]], 1, 1).unwrap();
        #[rustfmt::skip]
        let expect: &[u8] = &[
            0x00, 0x00, 0x00, 0x01,
            0xff, 0xff, 0xff, 0xfe,
            0x00, 0x00, 0xff, 0xfe,
            0xff, 0xff, 0xff, 0xff,
            0x80, 0x00, 0x00, 0x00,
            0x3f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0xc0, 0x20, 0x00, 0x00,
            b'x', b'y', 0x00, 0x00,
            0x00, 0x00, 0x00, 0x03, b'h', b'i', 0x00, 0x00,
            0x3f, 0x80, 0x00, 0x00, 0xbf, 0x80, 0x00, 0x00,
        ];
        assert_eq!(deliver(&b).body, expect);
        assert_eq!(b.byte_len(), expect.len());
    }

    #[test]
    fn raw_bytes_are_native() {
        let mut b = MsgBuf::new(Encoding::Raw);
        b.pk_short(&[-2], 1, 1).unwrap();
        b.pk_long(&[1 << 40], 1, 1).unwrap();
        b.pk_str(b"ab").unwrap();
        let mut expect = Vec::new();
        expect.extend_from_slice(&(-2i16).to_ne_bytes());
        expect.extend_from_slice(&(1i64 << 40).to_ne_bytes());
        expect.extend_from_slice(&3i32.to_ne_bytes());
        expect.extend_from_slice(b"ab\0");
        assert_eq!(deliver(&b).body, expect);
    }

    /// Packs every 2nd of `src` (5 items), unpacks into every 3rd slot of 15.
    fn strided_round_trip<T: Item + PartialEq + std::fmt::Debug>(
        src: [T; 10],
        fill: T,
        pk: fn(&mut MsgBuf, &[T], usize, usize) -> PvmResult<()>,
        upk: fn(&mut MsgBuf, &mut [T], usize, usize) -> PvmResult<()>,
    ) {
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            pk(&mut b, &src, 5, 2).unwrap();
            let mut r = deliver(&b);
            let mut out = [fill; 15];
            upk(&mut r, &mut out, 5, 3).unwrap();
            for (i, v) in out.iter().enumerate() {
                let want = if i % 3 == 0 { src[i / 3 * 2] } else { fill };
                assert_eq!(*v, want, "{enc:?} slot {i}");
            }
            assert_eq!(upk(&mut r, &mut out, 1, 1), Err(NO_DATA));
        }
    }

    #[test]
    fn round_trips_with_strides() {
        let b: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 8, 0xfe, 0xff];
        strided_round_trip(b, 0xaa, MsgBuf::pk_byte, MsgBuf::upk_byte);
        let s: [i16; 10] = [i16::MIN, -1, 0, 1, i16::MAX, 7, -7, 300, -300, 2];
        strided_round_trip(s, 99, MsgBuf::pk_short, MsgBuf::upk_short);
        let us: [u16; 10] = [0, 1, u16::MAX, 0x8000, 5, 6, 7, 8, 9, 10];
        strided_round_trip(us, 99, MsgBuf::pk_ushort, MsgBuf::upk_ushort);
        let i: [i32; 10] = [i32::MIN, -1, 0, 1, i32::MAX, 7, -7, 300, -300, 2];
        strided_round_trip(i, 99, MsgBuf::pk_int, MsgBuf::upk_int);
        let ui: [u32; 10] = [0, 1, u32::MAX, 0x8000_0000, 5, 6, 7, 8, 9, 10];
        strided_round_trip(ui, 99, MsgBuf::pk_uint, MsgBuf::upk_uint);
        let l: [i64; 10] = [i32::MIN as i64, -1, 0, 1, i32::MAX as i64, 7, -7, 3, -3, 2];
        strided_round_trip(l, 99, MsgBuf::pk_long, MsgBuf::upk_long);
        let ul: [u64; 10] = [0, 1, u32::MAX as u64, 0x8000_0000, 5, 6, 7, 8, 9, 10];
        strided_round_trip(ul, 99, MsgBuf::pk_ulong, MsgBuf::upk_ulong);
        let f: [f32; 10] = [
            0.0,
            -0.5,
            1e30,
            f32::MIN_POSITIVE,
            3.25,
            6.0,
            7.0,
            8.0,
            9.0,
            1.0,
        ];
        strided_round_trip(f, 99.0, MsgBuf::pk_float, MsgBuf::upk_float);
        let d: [f64; 10] = [
            0.0,
            -0.5,
            1e300,
            f64::MIN_POSITIVE,
            3.25,
            6.0,
            7.0,
            8.0,
            9.0,
            1.0,
        ];
        strided_round_trip(d, 99.0, MsgBuf::pk_double, MsgBuf::upk_double);
        let c: [[f32; 2]; 10] = std::array::from_fn(|k| [k as f32, -(k as f32) / 4.0]);
        strided_round_trip(c, [9.5, 9.5], MsgBuf::pk_cplx, MsgBuf::upk_cplx);
        let z: [[f64; 2]; 10] = std::array::from_fn(|k| [k as f64 * 1e200, -(k as f64) / 3.0]);
        strided_round_trip(z, [9.5, 9.5], MsgBuf::pk_dcplx, MsgBuf::upk_dcplx);
    }

    #[test]
    fn raw_keeps_64_bit_longs() {
        let mut b = MsgBuf::new(Encoding::Raw);
        b.pk_long(&[1 << 40, i64::MIN], 2, 1).unwrap();
        b.pk_ulong(&[u64::MAX], 1, 1).unwrap();
        let mut r = deliver(&b);
        let (mut l, mut u) = ([0i64; 2], [0u64; 1]);
        r.upk_long(&mut l, 2, 1).unwrap();
        r.upk_ulong(&mut u, 1, 1).unwrap();
        assert_eq!(l, [1 << 40, i64::MIN]);
        assert_eq!(u, [u64::MAX]);
    }

    #[test]
    fn long_overflow_in_xdr() {
        let mut b = MsgBuf::new(Encoding::Default);
        b.pk_int(&[5], 1, 1).unwrap();
        assert_eq!(b.pk_long(&[1 << 40], 1, 1), Err(OVERFLOW));
        // an overflow in the middle of a call packs nothing of that call
        assert_eq!(b.pk_long(&[1, 2, 1 << 40], 3, 1), Err(OVERFLOW));
        assert_eq!(b.pk_long(&[i32::MIN as i64 - 1], 1, 1), Err(OVERFLOW));
        assert_eq!(b.byte_len(), 4);
        b.pk_long(&[-1, i32::MIN as i64], 2, 1).unwrap();
        b.pk_ulong(&[u32::MAX as u64], 1, 1).unwrap();
        assert_eq!(b.pk_ulong(&[u32::MAX as u64 + 1], 1, 1), Err(OVERFLOW));
        assert_eq!(b.byte_len(), 16);
        let mut r = deliver(&b);
        let (mut i, mut l, mut u) = ([0i32], [0i64; 2], [0u64]);
        r.upk_int(&mut i, 1, 1).unwrap();
        r.upk_long(&mut l, 2, 1).unwrap();
        r.upk_ulong(&mut u, 1, 1).unwrap();
        assert_eq!((i, l, u), ([5], [-1, i32::MIN as i64], [u32::MAX as u64]));
    }

    #[test]
    fn over_unpack_keeps_cursor() {
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            b.pk_int(&[10, 20, 30], 3, 1).unwrap();
            b.pk_str(b"tail").unwrap();
            let mut r = deliver(&b);
            let mut out = [0i32; 8];
            assert_eq!(r.upk_int(&mut out, 8, 1), Err(NO_DATA));
            assert_eq!(r.upk_double(&mut [0.0; 4], 4, 1), Err(NO_DATA));
            assert_eq!(out, [0; 8]);
            r.upk_int(&mut out, 3, 1).unwrap();
            assert_eq!(out[..3], [10, 20, 30]);
            assert_eq!(r.upk_str().unwrap(), b"tail");
            assert_eq!(r.upk_str(), Err(NO_DATA));
            assert_eq!(r.upk_byte(&mut [0], 1, 1), Err(NO_DATA));
            r.rewind();
            r.upk_int(&mut out, 1, 1).unwrap();
            assert_eq!(out[0], 10);
        }
    }

    #[test]
    fn truncated_string_keeps_cursor() {
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            b.pk_str(b"hello").unwrap();
            let mut wire = deliver(&b).body;
            wire.truncate(7);
            let mut r = MsgBuf::received(enc, wire);
            assert_eq!(r.upk_str(), Err(NO_DATA));
            let mut len = [0i32];
            r.upk_int(&mut len, 1, 1).unwrap();
            assert_eq!(len, [6]);
        }
    }

    #[test]
    fn short_slices_are_bad_params() {
        let mut b = MsgBuf::new(Encoding::Default);
        assert_eq!(b.pk_int(&[1, 2, 3], 2, 3), Err(BAD_PARAM));
        assert_eq!(b.pk_int(&[1, 2, 3], 1, 0), Err(BAD_PARAM));
        assert_eq!(b.pk_int(&[1, 2, 3], usize::MAX, usize::MAX), Err(BAD_PARAM));
        b.pk_int(&[1, 2, 3, 4], 2, 3).unwrap();
        assert_eq!(b.byte_len(), 8);
        let mut r = deliver(&b);
        assert_eq!(r.upk_int(&mut [0; 3], 2, 3), Err(BAD_PARAM));
        let mut out = [0; 4];
        r.upk_int(&mut out, 2, 3).unwrap();
        assert_eq!(out, [1, 0, 0, 4]);
    }

    #[test]
    fn strings_of_every_padding() {
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            let strs: Vec<Vec<u8>> = (0..10).map(|n| (b'a'..).take(n).collect()).collect();
            let mut total = 0;
            for s in &strs {
                b.pk_str(s).unwrap();
                b.pk_int(&[s.len() as i32], 1, 1).unwrap();
                total += 4 + 4;
                total += match enc {
                    Encoding::Default => pad4(s.len() + 1),
                    _ => s.len() + 1,
                };
            }
            assert_eq!(b.byte_len(), total);
            let mut r = deliver(&b);
            for s in &strs {
                assert_eq!(&r.upk_str().unwrap(), s);
                let mut n = [0i32];
                r.upk_int(&mut n, 1, 1).unwrap();
                assert_eq!(n[0] as usize, s.len());
            }
            assert_eq!(r.upk_str(), Err(NO_DATA));
        }
    }

    #[test]
    fn in_place() {
        let mut b = MsgBuf::new(Encoding::InPlace);
        assert_eq!(b.pk_str(b"no"), Err(NOT_IMPL));
        b.pk_inplace(0x1000, 4, 3, 2).unwrap();
        b.pk_short(&[7], 1, 1).unwrap(); // copied now, raw layout
        b.pk_inplace(0x2000, 8, 2, 1).unwrap();
        b.pk_inplace(0x3000, 8, 0, 1).unwrap(); // nothing recorded
        assert_eq!(b.pk_inplace(0x3000, 0, 1, 1), Err(BAD_PARAM));
        assert_eq!(b.pk_inplace(0x3000, 4, 1, 0), Err(BAD_PARAM));
        assert_eq!(b.byte_len(), 12 + 2 + 16);

        let calls = RefCell::new(Vec::new());
        let read = |addr: usize, size: usize, n: usize, stride: usize| {
            calls.borrow_mut().push((addr, size, n, stride));
            vec![(addr >> 12) as u8; size * n]
        };
        let wire = b.wire(&read);
        assert_eq!(
            *calls.borrow(),
            [(0x1000, 4, 3, 2), (0x2000, 8, 2, 1)],
            "regions in packing order"
        );
        let mut expect = vec![1u8; 12];
        expect.extend_from_slice(&7i16.to_ne_bytes());
        expect.extend_from_slice(&[2u8; 16]);
        assert_eq!(wire, expect);
        assert_eq!(wire.len(), b.byte_len());

        // the receiver decodes the raw layout
        let mut r = MsgBuf::received(Encoding::InPlace, wire.into_owned());
        assert_eq!(r.encoding(), Encoding::InPlace);
        let (mut i, mut s, mut d) = ([0i32; 3], [0i16], [0f64; 2]);
        r.upk_int(&mut i, 3, 1).unwrap();
        r.upk_short(&mut s, 1, 1).unwrap();
        r.upk_double(&mut d, 2, 1).unwrap();
        assert_eq!(i, [0x0101_0101; 3]);
        assert_eq!(s, [7]);
        assert_eq!(d, [f64::from_ne_bytes([2; 8]); 2]);
        assert_eq!(r.upk_byte(&mut [0], 1, 1), Err(NO_DATA));

        for enc in ENCS {
            assert_eq!(MsgBuf::new(enc).pk_inplace(0x1000, 4, 1, 1), Err(BAD_PARAM));
        }
    }

    #[test]
    fn sole_region_only_for_one_contiguous_piece() {
        let inplace = |f: &dyn Fn(&mut MsgBuf)| {
            let mut b = MsgBuf::new(Encoding::InPlace);
            f(&mut b);
            b.sole_region()
        };
        assert_eq!(inplace(&|_| {}), None, "nothing packed");
        assert_eq!(
            inplace(&|b| b.pk_inplace(0x1000, 8, 4, 1).unwrap()),
            Some((0x1000, 32))
        );
        assert_eq!(
            inplace(&|b| b.pk_inplace(0x1000, 4, 1, 9).unwrap()),
            Some((0x1000, 4)),
            "one item lies contiguously whatever its stride"
        );
        assert_eq!(
            inplace(&|b| {
                b.pk_inplace(0x1000, 4, 2, 1).unwrap();
                b.pk_inplace(0x1008, 8, 3, 1).unwrap();
            }),
            Some((0x1000, 32)),
            "regions that follow each other in memory join"
        );
        assert_eq!(
            inplace(&|b| {
                b.pk_inplace(0x1000, 4, 2, 1).unwrap();
                b.pk_inplace(0x1010, 4, 2, 1).unwrap();
            }),
            None,
            "a gap between regions"
        );
        assert_eq!(
            inplace(&|b| {
                b.pk_inplace(0x1008, 4, 2, 1).unwrap();
                b.pk_inplace(0x1000, 4, 2, 1).unwrap();
            }),
            None,
            "regions out of memory order"
        );
        assert_eq!(
            inplace(&|b| b.pk_inplace(0x1000, 4, 3, 2).unwrap()),
            None,
            "a stride"
        );
        assert_eq!(
            inplace(&|b| {
                b.pk_short(&[7], 1, 1).unwrap();
                b.pk_inplace(0x1000, 4, 2, 1).unwrap();
            }),
            None,
            "copied bytes too"
        );
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            b.pk_int(&[1, 2], 2, 1).unwrap();
            assert_eq!(b.sole_region(), None, "{enc:?}: a copied body");
        }
    }

    #[test]
    fn received_buffer_can_be_resent() {
        let mut b = MsgBuf::new(Encoding::Default);
        b.pk_int(&[42], 1, 1).unwrap();
        let mut r = deliver(&b);
        r.upk_int(&mut [0], 1, 1).unwrap();
        r.pk_str(b"more").unwrap();
        let mut again = deliver(&r);
        let mut n = [0];
        again.upk_int(&mut n, 1, 1).unwrap();
        assert_eq!(n, [42]);
        assert_eq!(again.upk_str().unwrap(), b"more");
    }

    #[test]
    fn large_bodies_packed_in_pieces_keep_every_byte() {
        // Crosses HUGE_MIN part way, so the body moves to new storage.
        let piece: Vec<u8> = (0..(HUGE_MIN / 2 + 3)).map(|i| (i % 251) as u8).collect();
        for enc in ENCS {
            let mut b = MsgBuf::new(enc);
            b.pk_int(&[7], 1, 1).unwrap();
            for _ in 0..5 {
                b.pk_byte(&piece, piece.len(), 1).unwrap();
            }
            let stored = match enc {
                Encoding::Default => pad4(piece.len()),
                _ => piece.len(),
            };
            assert_eq!(b.byte_len(), 4 + 5 * stored);
            let mut r = deliver(&b);
            let mut n = [0];
            r.upk_int(&mut n, 1, 1).unwrap();
            assert_eq!(n, [7]);
            let mut out = vec![0u8; piece.len()];
            for _ in 0..5 {
                r.upk_byte(&mut out, piece.len(), 1).unwrap();
                assert!(out == piece, "{enc:?}");
            }
            assert_eq!(r.upk_byte(&mut [0], 1, 1), Err(NO_DATA));
        }
    }

    #[test]
    fn datatype_sizes() {
        let want = [1, 1, 2, 4, 4, 8, 8, 16, 8, 2, 4, 8];
        for (dt, size) in want.iter().enumerate() {
            assert_eq!(datatype_size(dt as i32), Some(*size), "datatype {dt}");
        }
        assert_eq!(datatype_size(-1), None);
        assert_eq!(datatype_size(12), None);
    }
}
