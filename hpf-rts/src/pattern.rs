//! Owner patterns: the distribution of a dimension whose owning
//! coordinates repeat with a period, given by a table over one period.
//! This is what an alignment to a template leaves when no regular
//! distribution describes it (a CYCLIC(k) template with a stride that is
//! not 1, a negative stride, an offset that is not a multiple of `k*P`).
//!
//! With `L` the period, `owner[r]` the coordinate owning offset `r` of a
//! period and `n_c` the offsets of a period coordinate `c` owns, offset
//! `i` lives on `owner[i mod L]` at local index `(i / L) * n_c + rank[i
//! mod L]` (`rank[r]`: the offsets of the period before `r` with the same
//! owner). So each process keeps its elements in increasing order of the
//! array subscript, whatever the order of the template cells they align
//! with. A table as long as the extent describes any distribution.

/// An owner table over one period, for one extent and one number of
/// processes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OwnerPattern {
    extent: usize,
    nprocs: usize,
    /// Owning coordinate per offset of a period (the period is its length).
    owner: Vec<usize>,
    /// Per offset of a period: the earlier offsets of the period with the
    /// same owner.
    rank: Vec<usize>,
    /// Per coordinate: the offsets of a period it owns, increasing.
    offsets: Vec<Vec<usize>>,
    /// Per offset of a period: the end (exclusive, at most the period) of
    /// the run of consecutive offsets from it with the same owner.
    run_end: Vec<usize>,
    /// Whether every coordinate owns one consecutive run of the extent.
    one_run: bool,
}

impl OwnerPattern {
    /// The pattern of an extent `extent` over `nprocs` coordinates whose
    /// offset `i` is owned by `owner[i mod owner.len()]`. None if the
    /// table is empty or names a coordinate out of range.
    pub fn new(extent: usize, nprocs: usize, owner: Vec<usize>) -> Option<OwnerPattern> {
        if owner.is_empty() || owner.iter().any(|&c| c >= nprocs) {
            return None;
        }
        let period = owner.len();
        let mut offsets = vec![Vec::new(); nprocs];
        let rank = owner
            .iter()
            .enumerate()
            .map(|(r, &c)| {
                offsets[c].push(r);
                offsets[c].len() - 1
            })
            .collect();
        let mut run_end = vec![period; period];
        for r in (0..period.saturating_sub(1)).rev() {
            if owner[r] != owner[r + 1] {
                run_end[r] = r + 1;
            } else {
                run_end[r] = run_end[r + 1];
            }
        }
        let mut p = OwnerPattern {
            extent,
            nprocs,
            owner,
            rank,
            offsets,
            run_end,
            one_run: false,
        };
        // One run each: along the extent no coordinate comes back once
        // another took over.
        let mut seen = vec![false; nprocs];
        let mut prev = None;
        p.one_run = (0..extent).all(|i| {
            let c = p.owner(i);
            let fresh = prev == Some(c) || !std::mem::replace(&mut seen[c], true);
            prev = Some(c);
            fresh
        });
        Some(p)
    }

    /// The extent the pattern was made for.
    pub fn extent(&self) -> usize {
        self.extent
    }

    /// The number of coordinates.
    pub fn nprocs(&self) -> usize {
        self.nprocs
    }

    /// The period.
    pub fn period(&self) -> usize {
        self.owner.len()
    }

    /// Whether every coordinate owns one consecutive run (which an
    /// overlap area can continue).
    pub fn one_run(&self) -> bool {
        self.one_run
    }

    /// Owning coordinate of offset `i`.
    pub fn owner(&self, i: usize) -> usize {
        self.owner[i % self.period()]
    }

    /// Local index of offset `i` on its owner.
    pub fn local(&self, i: usize) -> usize {
        let r = i % self.period();
        (i / self.period()) * self.offsets[self.owner[r]].len() + self.rank[r]
    }

    /// Offset of local index `l` on coordinate `c` (which owns it; for a
    /// coordinate that owns nothing, `l` past the extent).
    pub fn global(&self, c: usize, l: usize) -> usize {
        let own = &self.offsets[c];
        if own.is_empty() {
            return self.extent + l;
        }
        (l / own.len()) * self.period() + own[l % own.len()]
    }

    /// Offsets coordinate `c` owns.
    pub fn count(&self, c: usize) -> usize {
        let (full, rest) = (self.extent / self.period(), self.extent % self.period());
        let own = &self.offsets[c];
        full * own.len() + own.partition_point(|&r| r < rest)
    }

    /// The end (exclusive) of the run of consecutive offsets from `i` that
    /// one coordinate owns with consecutive local indices.
    pub fn run_end(&self, i: usize) -> usize {
        let r = i % self.period();
        if self.offsets[self.owner[r]].len() == self.period() {
            return self.extent;
        }
        (i - r + self.run_end[r]).min(self.extent)
    }

    /// The shortest run of consecutive offsets one coordinate owns, a run
    /// cut short by the end of the extent aside (1 for an empty extent).
    pub fn min_run(&self) -> usize {
        let mut best = usize::MAX;
        let mut i = 0;
        while i < self.extent.min(self.period()) {
            let e = self.run_end(i);
            if e < self.extent {
                best = best.min(e - i);
            }
            i = e;
        }
        if best == usize::MAX {
            self.extent.max(1)
        } else {
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_round_trips_and_counts_add_up() {
        let tables: [&[usize]; 5] = [&[0], &[1, 0], &[0, 0, 1, 2, 1], &[2, 1, 1, 0], &[1, 1, 1]];
        for table in tables {
            for n in 0..23 {
                let p = OwnerPattern::new(n, 3, table.to_vec()).expect("pattern");
                let mut seen = [0usize; 3];
                for i in 0..n {
                    let c = p.owner(i);
                    assert_eq!(c, table[i % table.len()]);
                    assert_eq!(p.local(i), seen[c], "{table:?} n={n} i={i}");
                    assert_eq!(p.global(c, seen[c]), i);
                    seen[c] += 1;
                    let e = p.run_end(i);
                    assert!(e > i && e <= n);
                    assert!((i..e).all(|j| p.owner(j) == c));
                    assert!((i..e).all(|j| p.local(j) == p.local(i) + j - i));
                }
                for (c, &s) in seen.iter().enumerate() {
                    assert_eq!(p.count(c), s, "{table:?} n={n} c={c}");
                }
            }
        }
    }

    #[test]
    fn one_run_means_each_coordinate_owns_one_consecutive_run() {
        let p = |n, t: &[usize]| OwnerPattern::new(n, 3, t.to_vec()).expect("pattern");
        assert!(p(6, &[2, 2, 1, 1, 0, 0]).one_run());
        assert!(p(4, &[1, 1, 1, 1]).one_run());
        assert!(!p(6, &[0, 1, 0, 1, 2, 2]).one_run());
        assert!(p(2, &[1, 0]).one_run());
        assert!(!p(3, &[1, 0]).one_run());
        assert_eq!(p(7, &[2, 2, 1, 0, 0, 0, 1]).min_run(), 1);
        assert_eq!(p(6, &[2, 2, 1, 1, 1, 0]).min_run(), 2);
        assert!(OwnerPattern::new(3, 2, vec![0, 2]).is_none());
        assert!(OwnerPattern::new(3, 2, vec![]).is_none());
    }
}
