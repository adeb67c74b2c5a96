//! `GA_Print`, `GA_Print_distribution`, `GA_Summarize` and
//! `GA_Compare_distr`. The printed layout follows GA's: arrays are shown
//! as GA shows them, in Fortran order (dimensions reversed, 1-based
//! indices), six columns to a block; distributions in the C API's own
//! 0-based row-major terms. Process 0 prints; the calls are collective.

use super::elem::{type_name, Num};
use super::patch::{check_patch, for_each_index, full, get_rect, inquire, relabel};
use crate::core::{self, fmt_patch, ElemType, GaResult, Handle};
use std::fmt::Write as _;
use std::io::Write as _;

/// Writes `text` to standard output after whatever the C program printed
/// with stdio, so the two stay in order.
fn emit(text: &str) {
    crate::capi_ptr::flush_c_stdio();
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Widths GA uses for one type: first column header, other column
/// headers, dashes under each column.
fn widths(t: ElemType) -> (usize, usize, usize) {
    match t {
        ElemType::Double | ElemType::LongDouble => (13, 12, 11),
        ElemType::SComplex | ElemType::DComplex | ElemType::LDComplex => (22, 24, 23),
        _ => (12, 9, 8),
    }
}

/// An x87 80-bit extended value (C `long double`) as a double.
fn long_double(b: &[u8]) -> f64 {
    let mant = u64::from_le_bytes(b[0..8].try_into().unwrap_or([0; 8]));
    let se = u16::from_le_bytes([b[8], b[9]]);
    let sign = if se & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (se & 0x7fff) as i32;
    if exp == 0 && mant == 0 {
        return 0.0 * sign;
    }
    sign * (mant as f64) * 2f64.powi(exp - 16383 - 63)
}

/// One element as GA prints it.
fn value(t: ElemType, b: &[u8]) -> String {
    element(
        t,
        b,
        |i| format!("{i:9}"),
        |x| format!("{x:12.5}"),
        |re, im| format!("{re:12.5},{im:11.5}"),
    )
}

/// One element as GA's dense (not pretty) patch listing prints it.
fn dense_value(t: ElemType, b: &[u8]) -> String {
    element(
        t,
        b,
        |i| i.to_string(),
        |x| format!("{x:.6}"),
        |re, im| format!("({re:.6},{im:.6})"),
    )
}

/// One element of `t` read from `b`, written by `int` (integers), `real`
/// (real numbers) or `complex` (real and imaginary parts). Reals are
/// widened to f64, which keeps their value exactly.
fn element(
    t: ElemType,
    b: &[u8],
    int: impl Fn(i64) -> String,
    real: impl Fn(f64) -> String,
    complex: impl Fn(f64, f64) -> String,
) -> String {
    match t {
        ElemType::Char => int(b[0] as i8 as i64),
        ElemType::Int => int(i32::load(b) as i64),
        ElemType::Long | ElemType::LongLong => int(i64::load(b)),
        ElemType::Float => real(f32::load(b) as f64),
        ElemType::Double => real(f64::load(b)),
        ElemType::LongDouble => real(long_double(b)),
        ElemType::SComplex => complex(f32::load(&b[0..4]) as f64, f32::load(&b[4..8]) as f64),
        ElemType::DComplex => complex(f64::load(&b[0..8]), f64::load(&b[8..16])),
        ElemType::LDComplex => complex(long_double(&b[0..16]), long_double(&b[16..32])),
        // Refused before printing (GA prints no registered type).
        ElemType::User { .. } => String::new(),
    }
}

/// Prints a 2-D section: `rows`×`cols`, element (r, c) at element offset
/// `at(r, c)` of `data`; rows and columns are labelled from `row0 + 1`
/// and `col0 + 1` (the array's own 1-based indices).
#[allow(clippy::too_many_arguments)]
fn print_2d(
    out: &mut String,
    t: ElemType,
    row0: i64,
    rows: i64,
    col0: i64,
    cols: i64,
    data: &[u8],
    at: impl Fn(i64, i64) -> usize,
) {
    let es = t.size();
    let (first_w, w, dash) = widths(t);
    let mut c0 = 0;
    while c0 < cols {
        let c1 = (c0 + 6).min(cols);
        out.push('\n');
        for c in c0..c1 {
            let width = if c == c0 { first_w } else { w };
            let _ = write!(out, "{:>width$}", col0 + c + 1);
        }
        out.push_str("  \n      ");
        for _ in c0..c1 {
            out.push(' ');
            out.push_str(&"-".repeat(dash));
        }
        out.push('\n');
        for r in 0..rows {
            let _ = write!(out, "{:4}  ", row0 + r + 1);
            for c in c0..c1 {
                let off = at(r, c) * es;
                out.push_str(&value(t, &data[off..off + es]));
            }
            out.push('\n');
        }
        c0 = c1;
    }
}

/// The whole array as text, in GA's layout.
pub fn render(g: Handle, name: &str, t: ElemType, dims: &[i64], data: &[u8]) -> String {
    let lo = vec![0; dims.len()];
    let hi: Vec<i64> = dims.iter().map(|d| d - 1).collect();
    render_patch(g, name, t, &lo, &hi, data, true)
}

/// The patch `lo..=hi` (C order, 0-based) as text in GA's layout; `data`
/// holds the patch contiguously in C order. `pretty`: labelled columns
/// of six as `GA_Print` shows arrays; otherwise one `name(i,j) = value`
/// line per element, Fortran indices, the first varying fastest.
pub fn render_patch(
    g: Handle,
    name: &str,
    t: ElemType,
    lo: &[i64],
    hi: &[i64],
    data: &[u8],
    pretty: bool,
) -> String {
    let n = lo.len();
    let ext: Vec<i64> = lo.iter().zip(hi).map(|(l, h)| h - l + 1).collect();
    // Fortran view: dimension k is C dimension n-1-k.
    let flo: Vec<i64> = lo.iter().rev().copied().collect();
    let fext: Vec<i64> = ext.iter().rev().copied().collect();
    // Element offset of a patch-relative Fortran index f: C index d is f[n-1-d].
    let mut cstride = vec![1usize; n];
    for d in (0..n.saturating_sub(1)).rev() {
        cstride[d] = cstride[d + 1] * ext[d + 1] as usize;
    }
    let offset = |f: &[i64]| -> usize { (0..n).map(|k| f[k] as usize * cstride[n - 1 - k]).sum() };
    let range = |k: usize| format!("{}:{}", flo[k] + 1, flo[k] + fext[k]);
    let ranges: Vec<String> = (0..n).map(range).collect();
    let mut out = format!(
        "\n global array: {name}[{}],  handle: {g} \n",
        ranges.join(",")
    );
    let es = t.size();
    if !pretty {
        // C row-major order over the patch is Fortran order with the first
        // index varying fastest.
        for_each_index(&ext, |ci| {
            let off = ci
                .iter()
                .zip(&cstride)
                .map(|(i, s)| *i as usize * s)
                .sum::<usize>()
                * es;
            let f: Vec<String> = ci
                .iter()
                .zip(lo)
                .rev()
                .map(|(i, l)| (i + l + 1).to_string())
                .collect();
            let _ = writeln!(
                out,
                "{name}({}) = {}",
                f.join(","),
                dense_value(t, &data[off..off + es])
            );
        });
        return out;
    }
    match n {
        0 => {}
        1 => {
            for r in 0..fext[0] {
                let off = offset(&[r]) * es;
                let _ = writeln!(
                    out,
                    "{:4}  {}",
                    flo[0] + r + 1,
                    value(t, &data[off..off + es])
                );
            }
        }
        _ => {
            // Every 2-D slice over the first two Fortran dimensions, the
            // others varying first-fastest as Fortran orders them (a 2-D
            // array is its one slice, printed without a slice header).
            let rest: Vec<i64> = fext[2..].iter().rev().copied().collect();
            for_each_index(&rest, |ri| {
                let tail: Vec<i64> = ri.iter().rev().copied().collect();
                let labels: Vec<String> = tail
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (flo[k + 2] + v + 1).to_string())
                    .collect();
                if !tail.is_empty() {
                    let _ = writeln!(
                        out,
                        "\n -- patch: {name}[{},{},{}]",
                        range(0),
                        range(1),
                        labels.join(",")
                    );
                }
                print_2d(
                    &mut out,
                    t,
                    flo[0],
                    fext[0],
                    flo[1],
                    fext[1],
                    data,
                    |r, c| {
                        let mut f = vec![r, c];
                        f.extend_from_slice(&tail);
                        offset(&f)
                    },
                );
            });
        }
    }
    out
}

/// `GA_Print`: process 0 prints the whole array (collective).
pub fn print(call: &'static str, g: Handle) -> GaResult<()> {
    print_to(call, g, |text| {
        emit(text);
        Ok(())
    })
}

/// `GA_Print_file`: process 0 hands the whole array, laid out as
/// `GA_Print` shows it, to `out` (collective); an error from `out` is
/// returned on process 0.
pub fn print_to(
    call: &'static str,
    g: Handle,
    out: impl FnOnce(&str) -> GaResult<()>,
) -> GaResult<()> {
    let (_, dims) = inquire(call, g)?;
    let (lo, hi) = full(&dims);
    patch_to(call, g, &lo, &hi, true, out)
}

/// `NGA_Print_patch`: process 0 prints the patch `lo..=hi` (collective).
pub fn print_patch(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    pretty: bool,
) -> GaResult<()> {
    patch_to(call, g, lo, hi, pretty, |text| {
        emit(text);
        Ok(())
    })
}

/// Process 0 renders the patch `lo..=hi` and hands the text to `out`
/// (collective, synchronised before and after).
fn patch_to(
    call: &'static str,
    g: Handle,
    lo: &[i64],
    hi: &[i64],
    pretty: bool,
    out: impl FnOnce(&str) -> GaResult<()>,
) -> GaResult<()> {
    let (t, _) = inquire(call, g)?;
    if t.is_user() {
        return Err(super::elem::unsupported(call, t));
    }
    check_patch(call, g, lo, hi)?;
    core::sync_array(g).map_err(|e| relabel(call, e))?;
    let mut written = Ok(());
    if core::array_rank(g).map_err(|e| relabel(call, e))? == 0 {
        let data = get_rect(call, g, t.size(), lo, hi)?;
        let name = core::name(g).map_err(|e| relabel(call, e))?;
        written = out(&render_patch(g, &name, t, lo, hi, &data, pretty));
    }
    core::sync_array(g).map_err(|e| relabel(call, e))?;
    written
}

/// The lo/hi GA reports for a process that owns nothing: -1 and -2.
fn block_of(g: Handle, p: i32, ndim: usize) -> GaResult<(Vec<i64>, Vec<i64>)> {
    Ok(core::distribution(g, p)?.unwrap_or((vec![-1; ndim], vec![-2; ndim])))
}

/// `GA_Print_distribution`: process 0 prints who owns which block.
pub fn print_distribution(call: &'static str, g: Handle) -> GaResult<()> {
    let (t, dims) = inquire(call, g)?;
    core::sync_array(g).map_err(|e| relabel(call, e))?;
    if core::array_rank(g).map_err(|e| relabel(call, e))? == 0 {
        let name = core::name(g).map_err(|e| relabel(call, e))?;
        let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        let mut out = format!(
            "Array Handle={g} Name:'{name}' Data Type:{}\nArray Dimensions:{}\n",
            type_name(t),
            ds.join("x")
        );
        for p in 0..core::array_nprocs(g).map_err(|e| relabel(call, e))? {
            let (lo, hi) = block_of(g, p, dims.len()).map_err(|e| relabel(call, e))?;
            let _ = writeln!(
                out,
                "Process={p}\t owns array section: {} ",
                fmt_patch(&lo, &hi)
            );
        }
        emit(&out);
    }
    core::sync_array(g).map_err(|e| relabel(call, e))
}

/// The type names GA's summary uses.
fn fortran_type(t: ElemType) -> &'static str {
    match t {
        ElemType::Double => "double precision",
        other => type_name(other),
    }
}

/// Fortran-order 1-based ranges of a C block.
fn fortran_ranges(lo: &[i64], hi: &[i64]) -> String {
    let r: Vec<String> = lo
        .iter()
        .zip(hi)
        .rev()
        .map(|(l, h)| format!("{}:{}", l + 1, h + 1))
        .collect();
    r.join(",")
}

/// `GA_Summarize`: process 0 lists the live arrays (with `verbose`, their
/// blocks and owners).
pub fn summarize(call: &'static str, verbose: bool) -> GaResult<()> {
    core::sync().map_err(|e| relabel(call, e))?;
    if core::nodeid() == 0 {
        let mut out = String::from(
            " Summary of allocated global arrays\n-----------------------------------\n",
        );
        let mut any = false;
        for (index, g) in (-1000..-1000 + 32768).enumerate() {
            if !core::valid(g) {
                continue;
            }
            any = true;
            let (t, dims) = inquire(call, g)?;
            let name = core::name(g).unwrap_or_default();
            let fd: Vec<String> = dims.iter().rev().map(|d| d.to_string()).collect();
            let _ = writeln!(
                out,
                "  array {index} => {} {name}({}),  handle: {g} ",
                fortran_type(t),
                fd.join(",")
            );
            if verbose {
                for p in 0..core::array_nprocs(g).unwrap_or(0) {
                    if let Some((lo, hi)) =
                        core::distribution(g, p).map_err(|e| relabel(call, e))?
                    {
                        let _ = writeln!(out, "    ({}) -> {p} ", fortran_ranges(&lo, &hi));
                    }
                }
            }
        }
        if !any {
            out.push_str("  No active global arrays\n");
        }
        out.push_str("\n\n");
        emit(&out);
    }
    Ok(())
}

/// `GA_Compare_distr`: whether two arrays have the same shape and every
/// process owns the same block of both.
pub fn same_distribution(call: &'static str, a: Handle, b: Handle) -> GaResult<bool> {
    let (_, da) = inquire(call, a)?;
    let (_, db) = inquire(call, b)?;
    if da != db {
        return Ok(false);
    }
    if core::array_group(a).map(|(grp, _, _)| grp) != core::array_group(b).map(|(grp, _, _)| grp) {
        return Ok(false);
    }
    for p in 0..core::array_nprocs(a).map_err(|e| relabel(call, e))? {
        let x = core::distribution(a, p).map_err(|e| relabel(call, e))?;
        let y = core::distribution(b, p).map_err(|e| relabel(call, e))?;
        if x != y {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::elem::encode;

    #[test]
    fn layout_matches_ga() {
        // C dims {2,3}: GA shows it as [1:3,1:2].
        let data = encode(&[0.5f64, 1.5, 2.5, 3.5, 4.5, 5.5]);
        let s = render(-1000, "A", ElemType::Double, &[2, 3], &data);
        let want = "\n global array: A[1:3,1:2],  handle: -1000 \n\n            1           2  \n       ----------- -----------\n   1       0.50000     3.50000\n   2       1.50000     4.50000\n   3       2.50000     5.50000\n";
        assert_eq!(s, want);
        let v = encode(&[7i32, -8]);
        let s = render(-999, "V", ElemType::Int, &[2], &v);
        assert_eq!(
            s,
            "\n global array: V[1:2],  handle: -999 \n   1          7\n   2         -8\n"
        );
    }

    #[test]
    fn patches_are_labelled_with_the_arrays_indices() {
        // Rows 1..=2, columns 2..=3 of a C int array holding 10*i+j.
        let data = encode(&[12i32, 13, 22, 23]);
        let s = render_patch(-1000, "ints", ElemType::Int, &[1, 2], &[2, 3], &data, true);
        let want = "\n global array: ints[3:4,2:3],  handle: -1000 \n\n           2        3  \n       -------- --------\n   3         12       22\n   4         13       23\n";
        assert_eq!(s, want);
        let s = render_patch(-1000, "ints", ElemType::Int, &[1, 2], &[2, 3], &data, false);
        let want = "\n global array: ints[3:4,2:3],  handle: -1000 \nints(3,2) = 12\nints(4,2) = 13\nints(3,3) = 22\nints(4,3) = 23\n";
        assert_eq!(s, want);
        let z = encode(&[0.0f64, 0.5]);
        let s = render_patch(-996, "z", ElemType::DComplex, &[0], &[0], &z, false);
        assert_eq!(
            s,
            "\n global array: z[1:1],  handle: -996 \nz(1) = (0.000000,0.500000)\n"
        );
        // 3-D: one labelled slice per index of the last Fortran dimension.
        let s = render_patch(
            -997,
            "three",
            ElemType::Int,
            &[0, 1, 1],
            &[1, 2, 2],
            &encode(&[5i32, 6, 9, 10, 17, 18, 21, 22]),
            true,
        );
        assert!(s.starts_with("\n global array: three[2:3,2:3,1:2],  handle: -997 \n\n -- patch: three[2:3,2:3,1]\n"), "{s}");
        assert!(
            s.contains("\n -- patch: three[2:3,2:3,2]\n\n           2        3  \n"),
            "{s}"
        );
        assert!(
            s.ends_with("   2         17       21\n   3         18       22\n"),
            "{s}"
        );
    }
}
