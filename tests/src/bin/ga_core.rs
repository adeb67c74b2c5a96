//! Multi-rank checks of the GA client core and NXTVAL, run under mpiexec
//! beside one `ga-server` (`mpiexec -n N ga_core MODE : -n 1 ga-server`).
//! Prints `ga_core MODE OK` on rank 0 when every check passed; a failed check
//! ends the job through `GA_Error` with a message.

use ga_server::core::{self, Distribution, ElemType, GaResult, Handle};

fn fail(msg: String) -> ! {
    core::abort(&msg, 1)
}

fn check(cond: bool, what: impl FnOnce() -> String) {
    if !cond {
        fail(format!("check failed: {}", what()));
    }
}

fn ok<T>(r: GaResult<T>) -> T {
    r.unwrap_or_else(|e| fail(e.to_string()))
}

fn f64s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8)
        .map(|c| f64::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// The whole `r` x `c` double array `g`, row by row.
fn whole(g: Handle, r: usize, c: usize) -> Vec<f64> {
    let mut all = vec![0u8; r * c * 8];
    let hi = [r as i64 - 1, c as i64 - 1];
    ok(core::get(g, &[0, 0], &hi, &mut all, &[c as i64]));
    f64s(&all)
}

/// Put/get/acc on a 2-D double array with distribution `dist`.
fn patches(dist: &Distribution, tag: &str) {
    let me = core::nodeid() as usize;
    let np = core::nnodes() as usize;
    let (r, c) = (13usize, 11usize);
    let g = ok(core::create(
        "NGA_Create",
        ElemType::Double,
        &[r as i64, c as i64],
        tag,
        dist,
    ));
    // Every rank writes a band of rows (whole patch spans several owners).
    for i in (me..r).step_by(np) {
        let row: Vec<f64> = (0..c).map(|j| (i * 100 + j) as f64).collect();
        ok(core::put(
            g,
            &[i as i64, 0],
            &[i as i64, c as i64 - 1],
            &bytes(&row),
            &[c as i64],
        ));
    }
    ok(core::sync());
    let v = whole(g, r, c);
    for i in 0..r {
        for j in 0..c {
            check(v[i * c + j] == (i * 100 + j) as f64, || {
                format!("{tag}: a[{i}][{j}] = {}", v[i * c + j])
            });
        }
    }
    // A strided patch [2:9, 3:8] into a buffer with ld 10 (wider than 6).
    let ld = 10usize;
    let mut sub = vec![0u8; 8 * ld * 8];
    ok(core::get(g, &[2, 3], &[9, 8], &mut sub, &[ld as i64]));
    let s = f64s(&sub);
    for i in 0..8 {
        for j in 0..6 {
            check(s[i * ld + j] == ((i + 2) * 100 + j + 3) as f64, || {
                format!("{tag}: strided get ({i},{j})")
            });
        }
    }
    ok(core::sync());
    // Every rank accumulates 2·ones over a strided patch; then rank 0 checks.
    let ones = bytes(&vec![1.0; 8 * ld]);
    ok(core::acc(
        g,
        &[2, 3],
        &[9, 8],
        &ones,
        &[ld as i64],
        &2.0f64.to_ne_bytes(),
    ));
    ok(core::sync());
    let v = whole(g, r, c);
    for i in 0..r {
        for j in 0..c {
            let inside = (2..=9).contains(&i) && (3..=8).contains(&j);
            let want = (i * 100 + j) as f64 + if inside { 2.0 * np as f64 } else { 0.0 };
            check(v[i * c + j] == want, || {
                format!(
                    "{tag}: after acc a[{i}][{j}] = {} want {want}",
                    v[i * c + j]
                )
            });
        }
    }
    // Strided put from a buffer with ld 7, then read back.
    ok(core::sync());
    if me == np - 1 {
        let src: Vec<f64> = (0..3 * 7).map(|k| -(k as f64)).collect();
        ok(core::put(g, &[10, 1], &[12, 5], &bytes(&src), &[7]));
    }
    ok(core::sync());
    let mut back = vec![0u8; 3 * 5 * 8];
    ok(core::get(g, &[10, 1], &[12, 5], &mut back, &[5]));
    let b = f64s(&back);
    for i in 0..3 {
        for j in 0..5 {
            check(b[i * 5 + j] == -((i * 7 + j) as f64), || {
                format!("{tag}: strided put ({i},{j})")
            });
        }
    }
    // Distribution covers the array exactly once.
    let mut cells = 0;
    for p in 0..np as i32 {
        if let Some((lo, hi)) = ok(core::distribution(g, p)) {
            cells += (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
            check(ok(core::locate(g, &lo)) == p, || {
                format!("{tag}: locate of block {p}")
            });
        }
    }
    check(cells == (r * c) as i64, || {
        format!("{tag}: blocks cover {cells} cells")
    });
    ok(core::sync());
    ok(core::destroy(g));
}

/// Concurrent read_inc and acc from every rank lose no update.
fn atomics() {
    let np = core::nnodes() as i64;
    let iters = 2000i64;
    for ty in [ElemType::Long, ElemType::Int] {
        let g = ok(core::create(
            "NGA_Create",
            ty,
            &[4],
            "counter",
            &Distribution::Default,
        ));
        ok(core::sync());
        let mut seen_max = -1;
        for _ in 0..iters {
            let v = ok(core::read_inc(g, &[0], 1));
            check(v > seen_max, || {
                format!("read_inc went back: {v} after {seen_max}")
            });
            seen_max = v;
        }
        ok(core::sync());
        let got = ok(core::read_inc(g, &[0], 0));
        check(got == np * iters, || {
            format!("{ty:?} counter {got}, want {}", np * iters)
        });
        ok(core::sync());
        ok(core::destroy(g));
    }
    let g = ok(core::create(
        "NGA_Create",
        ElemType::Double,
        &[3],
        "sum",
        &Distribution::Default,
    ));
    ok(core::sync());
    let one = bytes(&[1.0, 1.0, 1.0]);
    for _ in 0..iters {
        ok(core::acc(g, &[0], &[2], &one, &[], &1.0f64.to_ne_bytes()));
    }
    ok(core::sync());
    let mut b = vec![0u8; 24];
    ok(core::get(g, &[0], &[2], &mut b, &[]));
    for x in f64s(&b) {
        check(x == (np * iters) as f64, || {
            format!("acc sum {x}, want {}", np * iters)
        });
    }
    ok(core::sync());
    ok(core::destroy(g));
}

/// NXTVAL hands out every value exactly once, then resets.
fn nxtval() {
    let np = core::nnodes() as i64;
    let n = 500i64;
    let seen = ok(core::create(
        "NGA_Create",
        ElemType::Long,
        &[n + np],
        "seen",
        &Distribution::Default,
    ));
    ok(core::sync());
    loop {
        let v = ok(ga_server::nxtval::nxtval(np));
        if v >= n {
            break;
        }
        ok(core::read_inc(seen, &[v], 1));
    }
    ok(ga_server::nxtval::nxtval(-np));
    let mut b = vec![0u8; (n * 8) as usize];
    ok(core::get(seen, &[0], &[n - 1], &mut b, &[]));
    for (i, c) in b.chunks_exact(8).enumerate() {
        let k = i64::from_ne_bytes(c.try_into().unwrap());
        check(k == 1, || format!("nxtval value {i} handed out {k} times"));
    }
    if core::nodeid() == 0 {
        let first = ok(ga_server::nxtval::nxtval(np));
        check(first == 0, || {
            format!("after the reset nxtval gave {first}")
        });
    }
    ok(ga_server::nxtval::nxtval(-np));
    ok(core::sync());
    ok(core::destroy(seen));
}

/// Mutexes, scatter/gather, irregular distributions, collectives.
fn misc() {
    let me = core::nodeid() as i64;
    let np = core::nnodes() as i64;
    let g = ok(core::create(
        "NGA_Create",
        ElemType::Long,
        &[1],
        "guarded",
        &Distribution::Default,
    ));
    ok(core::create_mutexes(2));
    for _ in 0..200 {
        ok(core::lock(1));
        let mut b = [0u8; 8];
        ok(core::get(g, &[0], &[0], &mut b, &[]));
        let v = i64::from_ne_bytes(b) + 1;
        ok(core::put(g, &[0], &[0], &v.to_ne_bytes(), &[]));
        ok(core::unlock(1));
    }
    ok(core::sync());
    let mut b = [0u8; 8];
    ok(core::get(g, &[0], &[0], &mut b, &[]));
    check(i64::from_ne_bytes(b) == 200 * np, || {
        format!("mutex-guarded count {}", i64::from_ne_bytes(b))
    });
    ok(core::destroy_mutexes());
    ok(core::destroy(g));

    let s = ok(core::create(
        "NGA_Create",
        ElemType::Int,
        &[6, 6],
        "sg",
        &Distribution::Default,
    ));
    let subs: Vec<Vec<i64>> = (0..6).map(|k| vec![k, (k + me) % 6]).collect();
    if me == 0 {
        let vals: Vec<u8> = (0..6i32).flat_map(|k| (10 + k).to_ne_bytes()).collect();
        ok(core::scatter(s, &vals, &subs));
    }
    ok(core::sync());
    let mut got = vec![0u8; 24];
    let zero: Vec<Vec<i64>> = (0..6).map(|k| vec![k, k % 6]).collect();
    ok(core::gather(s, &mut got, &zero));
    for k in 0..6 {
        let v = i32::from_ne_bytes(got[4 * k..4 * k + 4].try_into().unwrap());
        check(v == 10 + k as i32, || format!("gather {k}: {v}"));
    }
    ok(core::sync());
    ok(core::scatter_acc(
        s,
        &[1, 0, 0, 0],
        &[vec![5, 5]],
        &3i32.to_ne_bytes(),
    ));
    ok(core::sync());
    let mut one = [0u8; 4];
    ok(core::get(s, &[5, 5], &[5, 5], &mut one, &[1]));
    let want = 15 + 3 * np as i32;
    check(i32::from_ne_bytes(one) == want, || {
        format!("scatter_acc {} want {want}", i32::from_ne_bytes(one))
    });
    ok(core::sync());
    ok(core::destroy(s));

    let mut x = vec![me as f64 + 1.0, -(me as f64) - 1.0];
    ok(core::gop_f64(&mut x, "+"));
    check(x[0] == (np * (np + 1) / 2) as f64, || {
        format!("dgop + {}", x[0])
    });
    let mut y = vec![-(me + 1)];
    ok(core::gop_i64(&mut y, "absmax"));
    check(y[0] == np, || format!("lgop absmax {}", y[0]));
    let mut b = if me == 0 { *b"hello!!!" } else { [0u8; 8] };
    ok(core::brdcst(&mut b, 0));
    check(&b == b"hello!!!", || "brdcst".into());
}

/// Latency of 8-byte operations on another rank's block, and of the
/// counters (printed by rank 0; not a check).
fn perf() {
    let np = core::nnodes() as i64;
    let me = core::nodeid();
    let g = ok(core::create(
        "NGA_Create",
        ElemType::Double,
        &[np * 1024],
        "perf",
        &Distribution::Default,
    ));
    let c = ok(core::create(
        "NGA_Create",
        ElemType::Long,
        &[1],
        "ctr",
        &Distribution::Default,
    ));
    ok(core::sync());
    let iters = 20000;
    let target = (np - 1) * 1024;
    let mut b = [0u8; 8];
    let time = |f: &mut dyn FnMut()| {
        let t = core::wtime();
        for _ in 0..iters {
            f();
        }
        (core::wtime() - t) / iters as f64 * 1e6
    };
    if me == 0 {
        let get = time(&mut || ok(core::get(g, &[target], &[target], &mut b, &[])));
        let put = time(&mut || ok(core::put(g, &[target], &[target], &[0u8; 8], &[])));
        let acc = time(&mut || {
            ok(core::acc(
                g,
                &[target],
                &[target],
                &[0u8; 8],
                &[],
                &1.0f64.to_ne_bytes(),
            ))
        });
        println!("perf get_us={get:.3} put_us={put:.3} acc_us={acc:.3}");
    }
    ok(core::sync());
    let ri = time(&mut || {
        ok(core::read_inc(c, &[0], 1));
    });
    let nx = time(&mut || {
        ok(ga_server::nxtval::nxtval(np));
    });
    ok(ga_server::nxtval::nxtval(-np));
    if me == 0 {
        println!("perf read_inc_us={ri:.3} nxtval_us={nx:.3}");
    }
    ok(core::sync());
}

/// The block `[lo, hi]` of rank `p` of the 1-D array `g`.
fn block_1d(g: core::Handle, p: usize) -> (usize, usize) {
    let (lo, hi) = ok(core::distribution(g, p as i32))
        .unwrap_or_else(|| fail(format!("rank {p} owns nothing")));
    (lo[0] as usize, hi[0] as usize)
}

/// Large put, get and acc (beyond the eager size, several accumulate
/// chunks, contiguous and strided patches, unaligned user buffers) from every
/// rank at once, and bad large requests that get their error while the
/// other ranks keep being served.
fn big() {
    use ga_server::protocol::{Op, Req};
    let me = core::nodeid() as usize;
    let np = core::nnodes() as usize;

    // 1-D doubles: 70 001 per rank (several chunks, not a multiple of one).
    let per = 70_001usize;
    let n = per * np;
    let g = ok(core::create(
        "NGA_Create",
        ElemType::Double,
        &[n as i64],
        "big1",
        &Distribution::Default,
    ));
    let t = (me + 1) % np;
    let (lo, hi) = block_1d(g, t);
    let vals: Vec<f64> = (lo..=hi).map(|i| (me * 1_000_000 + i) as f64).collect();
    ok(core::put(g, &[lo as i64], &[hi as i64], &bytes(&vals), &[]));
    ok(core::sync());
    let mut back = vec![0u8; (hi - lo + 1) * 8];
    ok(core::get(g, &[lo as i64], &[hi as i64], &mut back, &[]));
    check(f64s(&back) == vals, || {
        format!("big1: get after put of block {t}")
    });
    ok(core::sync());
    // Every rank adds 2·i to every element i of the whole array, from a
    // buffer one byte off alignment.
    let src: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let mut odd = vec![0u8; n * 8 + 1];
    odd[1..].copy_from_slice(&bytes(&src));
    ok(core::acc(
        g,
        &[0],
        &[n as i64 - 1],
        &odd[1..],
        &[],
        &2.0f64.to_ne_bytes(),
    ));
    ok(core::sync());
    let mut all = vec![0u8; n * 8 + 1];
    ok(core::get(g, &[0], &[n as i64 - 1], &mut all[1..], &[]));
    let v = f64s(&all[1..]);
    for p in 0..np {
        let (plo, phi) = block_1d(g, p);
        let writer = (p + np - 1) % np;
        for (i, &x) in v.iter().enumerate().take(phi + 1).skip(plo) {
            let want = (writer * 1_000_000 + i) as f64 + 2.0 * (np * i) as f64;
            check(x == want, || {
                format!("big1: after acc a[{i}] = {x} want {want}")
            });
        }
    }
    ok(core::sync());

    // 2-D doubles, a strided patch over every owner: rank 0 puts, all add.
    let (r, c) = (600usize, 300usize);
    let g2 = ok(core::create(
        "NGA_Create",
        ElemType::Double,
        &[r as i64, c as i64],
        "big2",
        &Distribution::Default,
    ));
    let (c0, c1) = (7usize, 292usize);
    let w = c1 - c0 + 1;
    let ld = w + 5;
    let cell = |i: usize, j: usize| (i * 1000 + j) as f64;
    // The band of columns c0..=c1 over every row, through a buffer with ld.
    let (lo, hi, lds) = ([0, c0 as i64], [r as i64 - 1, c1 as i64], [ld as i64]);
    if me == 0 {
        let mut b = vec![0.0f64; r * ld];
        for i in 0..r {
            for j in 0..w {
                b[i * ld + j] = cell(i, j + c0);
            }
        }
        ok(core::put(g2, &lo, &hi, &bytes(&b), &lds));
    }
    ok(core::sync());
    let ones: Vec<f64> = (0..r * ld)
        .map(|k| ((k / ld + k % ld) % 10) as f64)
        .collect();
    let three = 3.0f64.to_ne_bytes();
    ok(core::acc(g2, &lo, &hi, &bytes(&ones), &lds, &three));
    ok(core::sync());
    let mut b2 = vec![0u8; r * ld * 8];
    ok(core::get(g2, &lo, &hi, &mut b2, &lds));
    let v2 = f64s(&b2);
    for i in 0..r {
        for j in 0..w {
            let want = cell(i, j + c0) + 3.0 * np as f64 * ((i + j) % 10) as f64;
            check(v2[i * ld + j] == want, || {
                format!("big2: a[{i}][{}] = {} want {want}", j + c0, v2[i * ld + j])
            });
        }
    }
    ok(core::sync());
    ok(core::destroy(g2));

    // Single-precision complex: every rank adds (1+2i)·y.
    let m = 50_000usize * np;
    let gc = ok(core::create(
        "NGA_Create",
        ElemType::SComplex,
        &[m as i64],
        "bigc",
        &Distribution::Default,
    ));
    if me == 0 {
        ok(core::put(gc, &[0], &[m as i64 - 1], &vec![0u8; m * 8], &[]));
    }
    ok(core::sync());
    let y: Vec<u8> = (0..m)
        .flat_map(|k| [(k % 7) as f32, (k % 5) as f32])
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    let alpha: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|x| x.to_ne_bytes()).collect();
    ok(core::acc(gc, &[0], &[m as i64 - 1], &y, &[], &alpha));
    ok(core::sync());
    let mut bc = vec![0u8; m * 8];
    ok(core::get(gc, &[0], &[m as i64 - 1], &mut bc, &[]));
    for k in 0..m {
        let f = |o: usize| f32::from_ne_bytes(bc[8 * k + o..8 * k + o + 4].try_into().unwrap());
        let (yr, yi) = ((k % 7) as f32, (k % 5) as f32);
        let npf = np as f32;
        let (wr, wi) = (npf * (yr - 2.0 * yi), npf * (yi + 2.0 * yr));
        check(f(0) == wr && f(4) == wi, || {
            format!("bigc: a[{k}] = ({}, {}) want ({wr}, {wi})", f(0), f(4))
        });
    }
    ok(core::sync());
    ok(core::destroy(gc));

    // Bad large requests from rank 0 to its server while the other ranks
    // put, get and add on their own blocks (through the same server in
    // remote mode).
    if me == 0 {
        let id = ok(core::server_array_id(g));
        let owner = (np > 1) as usize;
        let (blo, bhi) = block_1d(g, owner);
        let len = (bhi - blo + 1) * 8;
        let data = vec![7u8; len + 8];
        let base = |op: Op| {
            let mut q = Req::new(op);
            q.set_type(ElemType::Double);
            q.ndim = 1;
            q.array = id;
            q.owner = owner as i32;
            q.lo[0] = blo as i64;
            q.hi[0] = bhi as i64;
            q.alpha[..8].copy_from_slice(&1.0f64.to_ne_bytes());
            q.len = len as u64;
            q
        };
        let expect_err =
            |q: Req, payload: &[u8], what: &str, text: &str| match core::raw_request(&q, payload) {
                Ok(_) => fail(format!("{what}: the server accepted it")),
                Err(e) => check(e.message.contains(text), || {
                    format!("{what}: error '{}' does not say '{text}'", e.message)
                }),
            };
        for op in [Op::Put, Op::Acc] {
            let mut q = base(op);
            q.set_type(ElemType::Int);
            expect_err(
                q,
                &data[..len],
                &format!("{op:?} of the wrong type"),
                "element type",
            );
            let mut q = base(op);
            q.hi[0] = bhi as i64 + 1;
            q.len = len as u64 + 8;
            expect_err(
                q,
                &data[..len + 8],
                &format!("{op:?} beyond the block"),
                "outside the block",
            );
            let mut q = base(op);
            q.array = id + 1000;
            expect_err(
                q,
                &data[..len],
                &format!("{op:?} on no array"),
                "no array with id",
            );
            let mut q = base(op);
            q.len = len as u64 + 8;
            expect_err(
                q,
                &data[..len + 8],
                &format!("{op:?} with too much data"),
                "data bytes",
            );
        }
        // A put header that matches its patch, followed by more or less data.
        for extra in [8isize, -8] {
            let sent = (len as isize + extra) as usize;
            expect_err(
                base(Op::Put),
                &data[..sent],
                &format!("put with {sent} bytes for {len}"),
                "data bytes",
            );
        }
        // The server is still in step: a good large put and get.
        let (lo0, hi0) = block_1d(g, 0);
        let mine: Vec<f64> = (lo0..=hi0).map(|i| -(i as f64)).collect();
        ok(core::put(
            g,
            &[lo0 as i64],
            &[hi0 as i64],
            &bytes(&mine),
            &[],
        ));
        let mut b = vec![0u8; mine.len() * 8];
        ok(core::get(g, &[lo0 as i64], &[hi0 as i64], &mut b, &[]));
        check(f64s(&b) == mine, || "put/get after the bad requests".into());
    } else {
        let (plo, phi) = block_1d(g, me);
        for round in 0..20 {
            let mine: Vec<f64> = (plo..=phi).map(|i| (round * 1000 + i) as f64).collect();
            ok(core::put(
                g,
                &[plo as i64],
                &[phi as i64],
                &bytes(&mine),
                &[],
            ));
            ok(core::acc(
                g,
                &[plo as i64],
                &[phi as i64],
                &bytes(&mine),
                &[],
                &1.0f64.to_ne_bytes(),
            ));
            let mut b = vec![0u8; mine.len() * 8];
            ok(core::get(g, &[plo as i64], &[phi as i64], &mut b, &[]));
            let twice: Vec<f64> = mine.iter().map(|x| 2.0 * x).collect();
            check(f64s(&b) == twice, || {
                format!("rank {me}: round {round} beside the bad requests")
            });
        }
    }
    ok(core::sync());
    ok(core::destroy(g));
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    ok(core::initialize());
    let me = core::nodeid();
    let np = core::nnodes() as i64;
    match mode.as_str() {
        "all" => {
            patches(&Distribution::Default, "regular");
            let block = vec![np.min(2), (np / 2).max(1)];
            let mut map = vec![0];
            if block[0] == 2 {
                map.push(4);
            }
            map.push(0);
            if block[1] == 2 {
                map.push(2);
            }
            patches(&Distribution::Irregular { block, map }, "irregular");
            patches(&Distribution::Chunk(vec![-1, 11]), "chunked");
            atomics();
            nxtval();
            misc();
        }
        "bad" => {
            let g = ok(core::create(
                "NGA_Create",
                ElemType::Double,
                &[10, 10],
                "A",
                &Distribution::Default,
            ));
            if me == 0 {
                let buf = vec![0u8; 8 * 18 * 10];
                if let Err(e) = core::put(g, &[0, 3], &[9, 20], &buf, &[18]) {
                    core::abort(&e.to_string(), 3);
                }
                fail("a put outside the array succeeded".into());
            }
            ok(core::sync());
        }
        "idle" => {
            ok(core::sync());
            let pids = core::server_pids();
            if me == 0 {
                let cpu = |p: i32| -> f64 {
                    let s = std::fs::read_to_string(format!("/proc/{p}/stat")).unwrap_or_default();
                    let f: Vec<&str> = s
                        .rsplit(')')
                        .next()
                        .unwrap_or("")
                        .split_whitespace()
                        .collect();
                    let t = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
                    t(11) + t(12)
                };
                std::thread::sleep(std::time::Duration::from_millis(300));
                let before: f64 = pids.iter().map(|&p| cpu(p)).sum();
                std::thread::sleep(std::time::Duration::from_secs(3));
                let after: f64 = pids.iter().map(|&p| cpu(p)).sum();
                let ticks = after - before;
                println!("idle server used {ticks} clock ticks in 3 s");
                check(ticks <= 15.0, || {
                    format!("idle server used {ticks} ticks of CPU in 3 s")
                });
            }
            ok(core::sync());
        }
        "kill" => {
            let g = ok(core::create(
                "NGA_Create",
                ElemType::Double,
                &[100],
                "victim",
                &Distribution::Default,
            ));
            ok(core::sync());
            if me == 0 {
                for p in core::server_pids() {
                    println!("killing ga-server {p}");
                    let _ = std::process::Command::new("kill")
                        .arg("-9")
                        .arg(p.to_string())
                        .status();
                }
            }
            let mut b = vec![0u8; 800];
            for _ in 0..200 {
                let _ = core::get(g, &[0], &[99], &mut b, &[]);
                ok(core::sync());
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            fail("the job survived its ga-server".into());
        }
        "perf" => perf(),
        "big" => big(),
        m => fail(format!("unknown mode {m}")),
    }
    ok(core::terminate());
    if me == 0 {
        println!("ga_core {mode} OK");
    }
}
