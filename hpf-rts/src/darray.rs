//! `DArray<T>`: a distributed array owning its local buffer (owned cells
//! plus overlap) and its DAD, with the intrinsics and communication of the
//! run-time as methods.

use crate::dad::Dad;
use crate::element::Element;
use crate::error::{HpfError, HpfResult};
use crate::section::Section;
use crate::{reduce, reduce_dim, schedule};

/// A distributed array.
#[derive(Clone, Debug)]
pub struct DArray<T: Element> {
    dad: Dad,
    data: Vec<T>,
}

impl<T: Element> DArray<T> {
    /// A zero-filled array with DAD `dad`.
    pub fn new(dad: &Dad) -> DArray<T> {
        DArray {
            dad: dad.clone(),
            data: vec![T::zero(); dad.local_len()],
        }
    }

    /// An array whose owned element at global subscripts `g` is `f(g)`
    /// (overlap cells zero).
    pub fn from_fn(dad: &Dad, mut f: impl FnMut(&[i64]) -> T) -> DArray<T> {
        let mut a = DArray::new(dad);
        let lbs: Vec<i64> = dad.dims().iter().map(|d| d.spec.lb).collect();
        let mut sub = vec![0i64; dad.rank()];
        dad.for_each_owned(dad.grid().rank(), |g, off| {
            for k in 0..g.len() {
                sub[k] = lbs[k] + g[k] as i64;
            }
            a.data[off] = f(&sub);
        });
        a
    }

    /// The DAD.
    pub fn dad(&self) -> &Dad {
        &self.dad
    }

    /// The local buffer (column-major over the allocated box).
    pub fn local(&self) -> &[T] {
        &self.data
    }

    /// The local buffer, writable.
    pub fn local_mut(&mut self) -> &mut [T] {
        &mut self.data
    }

    /// The whole array on every process, column-major (collective; for
    /// checks and output).
    pub fn to_global(&self) -> HpfResult<Vec<T>> {
        gather_global(&self.dad, &self.data)
    }

    /// `R = A(V)` for this rank-1 array `A` and subscripts `v` (A's
    /// bounds), R on `r_dad` (V's shape). Plans an index schedule and
    /// executes it once; keep a [`crate::IndexSchedule`] to repeat it.
    pub fn gather_indexed(&self, v: &DArray<i64>, r_dad: &Dad) -> HpfResult<DArray<T>> {
        let s = crate::IndexSchedule::gather(&self.dad, &v.dad, &v.data, r_dad)?;
        let mut r = DArray::new(r_dad);
        s.execute(&self.data, &mut r.data)?;
        Ok(r)
    }

    /// `A(V) = B` for this rank-1 array `A`, subscripts `v` and values
    /// `b` (V's shape); the cells V does not name keep their values.
    pub fn scatter_indexed(&mut self, v: &DArray<i64>, b: &DArray<T>) -> HpfResult<()> {
        let s = crate::IndexSchedule::scatter(&b.dad, &v.dad, &v.data, &self.dad)?;
        s.execute(&b.data, &mut self.data)
    }

    /// `R(s) = A(V1(s), .., Vn(s))` for this rank-n array `A` and one
    /// index array per dimension in `v` (one shape), R on `r_dad` (their
    /// shape).
    pub fn gather_indexed_tuple(&self, v: &[&DArray<i64>], r_dad: &Dad) -> HpfResult<DArray<T>> {
        let vs: Vec<(&Dad, &[i64])> = v.iter().map(|x| (&x.dad, &x.data[..])).collect();
        let s = crate::IndexSchedule::gather_tuple(&self.dad, &vs, r_dad)?;
        let mut r = DArray::new(r_dad);
        s.execute(&self.data, &mut r.data)?;
        Ok(r)
    }

    /// `A(V1(s), .., Vn(s)) = B(s)` for this rank-n array `A`, one index
    /// array per dimension in `v` and values `b` (their shape).
    pub fn scatter_indexed_tuple(&mut self, v: &[&DArray<i64>], b: &DArray<T>) -> HpfResult<()> {
        let vs: Vec<(&Dad, &[i64])> = v.iter().map(|x| (&x.dad, &x.data[..])).collect();
        let s = crate::IndexSchedule::scatter_tuple(&b.dad, &vs, &self.dad)?;
        s.execute(&b.data, &mut self.data)
    }

    /// `A(V1(s), .., Vn(s)) += B(s)` for every `s` (the HPF library's
    /// `SUM_SCATTER(B, A, V1, .., Vn)` into this array): a cell named more
    /// than once gets all its values added.
    pub fn sum_scatter_indexed_tuple(
        &mut self,
        v: &[&DArray<i64>],
        b: &DArray<T>,
    ) -> HpfResult<()> {
        let vs: Vec<(&Dad, &[i64])> = v.iter().map(|x| (&x.dad, &x.data[..])).collect();
        let s = crate::IndexSchedule::scatter_tuple(&b.dad, &vs, &self.dad)?;
        s.execute_sum(&b.data, &mut self.data)
    }

    /// The HPF library's combining scatter `op` of `b` into this array
    /// through one index array per dimension (`XXX_SCATTER(B, A, V1, ..,
    /// Vn, MASK)` into `A`): every `B(s)` where `mask` (B's DAD; None: all
    /// true) is true is combined into `A(V1(s), ..)`. COUNT takes a
    /// LOGICAL `B`: use [`count_scatter_indexed_tuple`](Self::count_scatter_indexed_tuple).
    pub fn combine_scatter_indexed_tuple(
        &mut self,
        op: crate::ScatterOp,
        v: &[&DArray<i64>],
        b: &DArray<T>,
        mask: Option<&DArray<i32>>,
    ) -> HpfResult<()> {
        let m = mask_on(b.dad(), mask)?;
        let vs: Vec<(&Dad, &[i64])> = v.iter().map(|x| (&x.dad, &x.data[..])).collect();
        let s = crate::IndexSchedule::scatter_tuple(&b.dad, &vs, &self.dad)?;
        s.execute_op(op, &b.data, m, &mut self.data)
    }

    /// COUNT_SCATTER: `A(V1(s), ..) += 1` for every `s` where the LOGICAL
    /// `b(s)` and `mask` (B's DAD; None: all true) are true.
    pub fn count_scatter_indexed_tuple(
        &mut self,
        v: &[&DArray<i64>],
        b: &DArray<crate::Logical>,
        mask: Option<&DArray<i32>>,
    ) -> HpfResult<()> {
        let m = mask_on(b.dad(), mask)?;
        let vs: Vec<(&Dad, &[i64])> = v.iter().map(|x| (&x.dad, &x.data[..])).collect();
        let s = crate::IndexSchedule::scatter_tuple(&b.dad, &vs, &self.dad)?;
        s.execute_count(&b.data, m, &mut self.data)
    }

    /// SUM.
    pub fn sum(&self) -> HpfResult<T> {
        reduce::sum(&self.dad, &self.data)
    }

    /// PRODUCT.
    pub fn product(&self) -> HpfResult<T> {
        reduce::product(&self.dad, &self.data)
    }

    /// MAXVAL.
    pub fn maxval(&self) -> HpfResult<T> {
        reduce::maxval(&self.dad, &self.data)
    }

    /// MINVAL.
    pub fn minval(&self) -> HpfResult<T> {
        reduce::minval(&self.dad, &self.data)
    }

    /// COUNT of the elements for which `pred` holds.
    pub fn count(&self, pred: impl Fn(T) -> bool) -> HpfResult<i64> {
        reduce::count(&self.dad, &self.data, pred)
    }

    /// ALL elements satisfy `pred`.
    pub fn all(&self, pred: impl Fn(T) -> bool) -> HpfResult<bool> {
        reduce::all(&self.dad, &self.data, pred)
    }

    /// ANY element satisfies `pred`.
    pub fn any(&self, pred: impl Fn(T) -> bool) -> HpfResult<bool> {
        reduce::any(&self.dad, &self.data, pred)
    }

    /// DOT_PRODUCT with `other` (same DAD, rank 1).
    pub fn dot_product(&self, other: &DArray<T>) -> HpfResult<T> {
        if self.dad != other.dad {
            return Err(HpfError::mismatch(
                "hpf_dot_product",
                "the vectors have different DADs (remap one first)",
            ));
        }
        reduce::dot_product(&self.dad, &self.data, &other.data)
    }

    /// MAXLOC (1-based positions).
    pub fn maxloc(&self) -> HpfResult<Vec<i64>> {
        reduce::maxloc(&self.dad, &self.data)
    }

    /// MINLOC (1-based positions).
    pub fn minloc(&self) -> HpfResult<Vec<i64>> {
        reduce::minloc(&self.dad, &self.data)
    }

    /// `op(self, MASK=mask)` over the whole array; `mask` has this array's
    /// DAD (non-zero true), `None` for no mask.
    pub fn reduce_masked(&self, op: reduce_dim::NumOp, mask: Option<&DArray<i32>>) -> HpfResult<T> {
        let m = aligned_mask("reduction with MASK", &self.dad, mask)?;
        reduce_dim::reduce_masked(op, &self.dad, &self.data, m)
    }

    /// `op(self, DIM=dim, MASK=mask)` (dim 0-based) into a new array with
    /// DAD `res` (this array's shape without DIM, any distribution; see
    /// [`reduce_dim::reduced_dad`] for the natural one).
    pub fn reduce_dim(
        &self,
        op: reduce_dim::NumOp,
        dim: usize,
        mask: Option<&DArray<i32>>,
        res: &Dad,
    ) -> HpfResult<DArray<T>> {
        let m = aligned_mask("reduction with DIM", &self.dad, mask)?;
        let mut out = DArray::new(res);
        reduce_dim::reduce_dim(op, &self.dad, &self.data, m, dim, res, &mut out.data)?;
        Ok(out)
    }

    /// `MAXLOC(self, MASK=mask)` (`max`) or MINLOC: 1-based positions of
    /// the first extreme among the elements where MASK is true; zeros if
    /// there is none.
    pub fn loc_masked(&self, max: bool, mask: Option<&DArray<i32>>) -> HpfResult<Vec<i64>> {
        let m = aligned_mask("MAXLOC/MINLOC with MASK", &self.dad, mask)?;
        reduce_dim::locate_masked(max, &self.dad, &self.data, m)
    }

    /// `MAXLOC(self, DIM=dim, MASK=mask)` (`max`) or MINLOC (dim 0-based)
    /// into a new `i64` array with DAD `res`: per line along DIM the
    /// 1-based position of its first extreme, 0 if none.
    pub fn loc_dim(
        &self,
        max: bool,
        dim: usize,
        mask: Option<&DArray<i32>>,
        res: &Dad,
    ) -> HpfResult<DArray<i64>> {
        let m = aligned_mask("MAXLOC/MINLOC with DIM", &self.dad, mask)?;
        let mut out = DArray::new(res);
        reduce_dim::locate_dim(max, &self.dad, &self.data, m, dim, res, &mut out.data)?;
        Ok(out)
    }

    /// Fills the whole overlap area from the owners; `periodic` per
    /// dimension.
    pub fn shift_overlap(&mut self, periodic: &[bool]) -> HpfResult<()> {
        let wlo: Vec<usize> = self.dad.dims().iter().map(|d| d.spec.olo).collect();
        let whi: Vec<usize> = self.dad.dims().iter().map(|d| d.spec.ohi).collect();
        self.shift_overlap_widths(&wlo, &whi, periodic)
    }

    /// Fills the overlap cells `wlo`/`whi` deep per dimension.
    pub fn shift_overlap_widths(
        &mut self,
        wlo: &[usize],
        whi: &[usize],
        periodic: &[bool],
    ) -> HpfResult<()> {
        let s = schedule::halo(&self.dad, wlo, whi, periodic)?;
        s.execute_in_place(&self.dad, &mut self.data)
    }

    /// `CSHIFT(self, shift, dim)` with `dim` 0-based: a new array of the
    /// same DAD.
    pub fn cshift(&self, shift: i64, dim: usize) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(&self.dad);
        let s = schedule::cshift(&self.dad, dim, shift)?;
        s.execute(&self.dad, &self.data, &mut out.data)?;
        Ok(out)
    }

    /// A copy of this array with DAD `dst` (remap).
    pub fn remap(&self, dst: &Dad) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(dst);
        out.copy_from(self)?;
        Ok(out)
    }

    /// `TRANSPOSE(self)` for a rank-2 array, with result DAD `dst`
    /// (shape reversed, same grid, any distribution).
    pub fn transpose(&self, dst: &Dad) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(dst);
        schedule::transpose(&self.dad, dst)?.execute(dst, &self.data, &mut out.data)?;
        Ok(out)
    }

    /// `SPREAD(self, dim, ncopies)` with `dim` 0-based, result DAD `dst`
    /// (one dimension more, of extent `ncopies` at `dim`).
    pub fn spread(&self, dim: usize, dst: &Dad) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(dst);
        schedule::spread(&self.dad, dst, dim)?.execute(dst, &self.data, &mut out.data)?;
        Ok(out)
    }

    /// `EOSHIFT(self, shift, boundary, dim)` with `dim` 0-based and a
    /// scalar boundary: a new array of the same DAD.
    pub fn eoshift(&self, shift: i64, boundary: T, dim: usize) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(&self.dad);
        eoshift_into(&self.dad, &self.data, &mut out.data, shift, boundary, dim)?;
        Ok(out)
    }

    /// `self = MATMUL(a, b)` for rank-2 arrays on one grid (SUMMA with the
    /// system BLAS; operands in another layout than this array's are
    /// remapped first).
    pub fn matmul_from(&mut self, a: &DArray<T>, b: &DArray<T>) -> HpfResult<()>
    where
        T: crate::matmul::Gemm,
    {
        crate::matmul::matmul(&a.dad, &a.data, &b.dad, &b.data, &self.dad, &mut self.data)
    }

    /// `self(dsec) = src(ssec)`: the section copy between conforming
    /// sections of two arrays on one grid (any DADs). Only the owned cells
    /// of this array's section are written. To copy between sections of
    /// one array, copy from a clone (Fortran evaluates the right-hand side
    /// first).
    pub fn assign_section(
        &mut self,
        dsec: &Section,
        src: &DArray<T>,
        ssec: &Section,
    ) -> HpfResult<()> {
        let s = crate::section::copy_plan(&src.dad, ssec, &self.dad, dsec)?;
        s.execute(&self.dad, &src.data, &mut self.data)
    }

    /// The section `sec` of this array as a new array with DAD `dst`,
    /// whose shape is the section's (any distribution): every intrinsic
    /// then applies to the section.
    pub fn section(&self, sec: &Section, dst: &Dad) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(dst);
        out.assign_section(&Section::whole(dst), self, sec)?;
        Ok(out)
    }

    /// `RESHAPE(self, SHAPE(dst))` as a new array with DAD `dst` (at most
    /// as many elements as this array; they are taken in array element
    /// order).
    pub fn reshape(&self, dst: &Dad) -> HpfResult<DArray<T>> {
        let mut out = DArray::new(dst);
        crate::unstructured::reshape_into(&self.dad, &self.data, dst, &mut out.data)?;
        Ok(out)
    }

    /// `PACK(self, mask, VECTOR=vector)` into a rank-1 array with DAD
    /// `dst`: without VECTOR `dst`'s extent must be COUNT(MASK); with it,
    /// `vector` has DAD `dst` and supplies the elements past COUNT(MASK).
    /// MASK has this array's shape (any DAD, non-zero true).
    pub fn pack(
        &self,
        mask: &DArray<i32>,
        vector: Option<&DArray<T>>,
        dst: &Dad,
    ) -> HpfResult<DArray<T>> {
        let mut out = match vector {
            Some(v) if v.dad == *dst => v.clone(),
            Some(_) => {
                return Err(HpfError::mismatch(
                    "hpf_pack",
                    "VECTOR has another DAD than the result",
                ))
            }
            None => DArray::new(dst),
        };
        let n = crate::unstructured::pack_into(
            &self.dad,
            &self.data,
            &mask.dad,
            &mask.data,
            dst,
            &mut out.data,
        )?;
        if vector.is_none() && n != dst.global_len() {
            return Err(HpfError::mismatch(
                "hpf_pack",
                format!(
                    "without VECTOR the result has COUNT(MASK) = {n} elements, not {}",
                    dst.global_len()
                ),
            ));
        }
        Ok(out)
    }

    /// `UNPACK(self, mask, field)` for a rank-1 VECTOR `self`: an array
    /// with `field`'s DAD (MASK's shape) holding the next element of this
    /// vector where MASK is true and FIELD's element elsewhere.
    pub fn unpack(&self, mask: &DArray<i32>, field: &DArray<T>) -> HpfResult<DArray<T>> {
        let mut out = field.clone();
        crate::unstructured::unpack_into(
            &self.dad,
            &self.data,
            &mask.dad,
            &mask.data,
            &field.dad,
            &mut out.data,
        )?;
        Ok(out)
    }

    /// `self = src` where the DADs may differ (COPY; owned cells only).
    pub fn copy_from(&mut self, src: &DArray<T>) -> HpfResult<()> {
        let s = schedule::remap(&src.dad, &self.dad)?;
        s.execute(&self.dad, &src.data, &mut self.data)
    }
}

/// The whole array of local buffer `buf` with DAD `dad` on every process,
/// column-major (collective).
pub fn gather_global<T: Element>(dad: &Dad, buf: &[T]) -> HpfResult<Vec<T>> {
    const CALL: &str = "hpf_gather";
    reduce::check_len(CALL, dad, buf, "ARRAY")?;
    let grid = dad.grid();
    let mut mine = Vec::new();
    dad.for_each_owned(grid.rank(), |_, off| buf[off].put(&mut mine));
    let (all, lens) = grid
        .group()
        .allgatherv(&mine)
        .map_err(|e| HpfError::core(CALL, e))?;
    let size = T::KIND.size();
    let mut out = vec![T::zero(); dad.global_len()];
    let mut at = 0;
    for (r, len) in lens.iter().enumerate() {
        let mut j = at;
        dad.for_each_owned(r, |g, _| {
            out[dad.linear(g)] = T::get(&all[j..]);
            j += size;
        });
        at += len;
    }
    Ok(out)
}

/// `dst = EOSHIFT(src, shift, boundary, dim)` (dim 0-based) on local
/// buffers of DAD `dad`: along `dim`, `dst(i) = src(i + shift)` where
/// `i + shift` lies in the array, else `boundary` (collective).
pub fn eoshift_into<T: Element>(
    dad: &Dad,
    src: &[T],
    dst: &mut [T],
    shift: i64,
    boundary: T,
    dim: usize,
) -> HpfResult<()> {
    reduce::check_len("hpf_eoshift", dad, src, "ARRAY")?;
    reduce::check_len("hpf_eoshift", dad, dst, "the result")?;
    let s = schedule::eoshift(dad, dim, shift)?;
    s.execute(dad, src, dst)?;
    let n = dad.dims()[dim].spec.extent as i64;
    dad.for_each_owned(dad.grid().rank(), |g, off| {
        let j = g[dim] as i64 + shift;
        if !(0..n).contains(&j) {
            dst[off] = boundary;
        }
    });
    Ok(())
}

/// The local buffer of `mask` if it has the DAD `dad`.
fn aligned_mask<'a>(
    call: &str,
    dad: &Dad,
    mask: Option<&'a DArray<i32>>,
) -> HpfResult<Option<&'a [i32]>> {
    match mask {
        None => Ok(None),
        Some(m) if m.dad == *dad => Ok(Some(&m.data)),
        Some(_) => Err(HpfError::mismatch(
            call,
            "MASK has another DAD than ARRAY (remap it first)",
        )),
    }
}

impl DArray<i32> {
    /// `op(self, DIM=dim)` for COUNT, ALL and ANY of this LOGICAL array
    /// (non-zero true) into a new array with DAD `res`.
    pub fn logical_dim(
        &self,
        op: reduce_dim::LogicalOp,
        dim: usize,
        res: &Dad,
    ) -> HpfResult<DArray<i32>> {
        let mut out = DArray::new(res);
        reduce_dim::logical_dim(op, &self.dad, &self.data, dim, res, &mut out.data)?;
        Ok(out)
    }
}

/// The local buffer of `mask` if it has the DAD `on`; `HPF_EMISMATCH`
/// otherwise.
fn mask_on<'a>(on: &Dad, mask: Option<&'a DArray<i32>>) -> HpfResult<Option<&'a [i32]>> {
    match mask {
        Some(m) if m.dad() != on => Err(crate::error::HpfError::new(
            crate::error::HPF_EMISMATCH,
            "hpf_combine_scatter: MASK does not have B's DAD",
        )),
        Some(m) => Ok(Some(m.local())),
        None => Ok(None),
    }
}
