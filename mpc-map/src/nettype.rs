//! Network types as data: what an mpC `nettype` declaration compiles to.
//! A type has coordinates (extents, nodes numbered row-major), a parent
//! node, a relative performance (volume of computation) per node and link
//! lengths (bytes sent from one node to another). The six topological
//! functions an mpC compiler generates for a type are the methods
//! [`NetType::node_count`], [`NetType::linear`], [`NetType::coords`],
//! [`NetType::parent`], [`NetType::power`] and [`NetType::link_length`].

/// A link of a network type: `len` bytes from node `from` to node `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub len: f64,
}

/// A network type with its parameters bound.
#[derive(Clone, Debug, PartialEq)]
pub struct NetType {
    /// The program's number for the type (tells hired processes what to run).
    pub kind: i32,
    dims: Vec<usize>,
    power: Vec<f64>,
    links: Vec<Link>,
    parent: usize,
}

impl NetType {
    /// Checks and builds a type. `power` holds one relative volume per node
    /// (empty: every node 1); `parent` is a linear node number.
    pub fn new(
        kind: i32,
        dims: Vec<usize>,
        power: Vec<f64>,
        links: Vec<Link>,
        parent: usize,
    ) -> Result<NetType, String> {
        if dims.is_empty() {
            return Err("a network type needs at least one coordinate".into());
        }
        if let Some(d) = dims.iter().position(|&e| e == 0) {
            return Err(format!("coordinate {d} has extent 0"));
        }
        let n = dims
            .iter()
            .try_fold(1usize, |a, &e| a.checked_mul(e))
            .filter(|&n| n <= 1 << 20)
            .ok_or("the network has more than 1048576 nodes")?;
        let power = if power.is_empty() {
            vec![1.0; n]
        } else {
            power
        };
        if power.len() != n {
            return Err(format!(
                "{} performances given for a network of {n} nodes",
                power.len()
            ));
        }
        if let Some(i) = power.iter().position(|p| !(p.is_finite() && *p >= 0.0)) {
            return Err(format!(
                "node {i} has performance {}, not a finite value >= 0",
                power[i]
            ));
        }
        for l in &links {
            if l.from >= n || l.to >= n {
                return Err(format!(
                    "link {} -> {} names a node outside 0..{n}",
                    l.from, l.to
                ));
            }
            if !(l.len.is_finite() && l.len >= 0.0) {
                return Err(format!("link {} -> {} has length {}", l.from, l.to, l.len));
            }
        }
        if parent >= n {
            return Err(format!("parent {parent} is outside 0..{n}"));
        }
        Ok(NetType {
            kind,
            dims,
            power,
            links,
            parent,
        })
    }

    /// A one-dimensional type of `power.len()` nodes with parent 0.
    pub fn line(kind: i32, power: Vec<f64>, links: Vec<Link>) -> Result<NetType, String> {
        NetType::new(kind, vec![power.len()], power, links, 0)
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.power.len()
    }

    /// The coordinate extents.
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    /// The linear number of the node at `coords` (row-major).
    pub fn linear(&self, coords: &[usize]) -> Option<usize> {
        if coords.len() != self.dims.len() {
            return None;
        }
        let mut n = 0;
        for (&c, &e) in coords.iter().zip(&self.dims) {
            if c >= e {
                return None;
            }
            n = n * e + c;
        }
        Some(n)
    }

    /// The coordinates of node `linear`.
    pub fn coords(&self, linear: usize) -> Option<Vec<usize>> {
        if linear >= self.node_count() {
            return None;
        }
        let mut rest = linear;
        let mut out = vec![0; self.dims.len()];
        for (o, &e) in out.iter_mut().zip(&self.dims).rev() {
            *o = rest % e;
            rest /= e;
        }
        Some(out)
    }

    /// The parent node's linear number.
    pub fn parent(&self) -> usize {
        self.parent
    }

    /// The relative performance (volume of computation) of node `i`.
    pub fn power(&self, i: usize) -> Option<f64> {
        self.power.get(i).copied()
    }

    /// All performances by linear number.
    pub fn powers(&self) -> &[f64] {
        &self.power
    }

    /// Bytes node `from` sends to node `to` (the sum of the declared links).
    pub fn link_length(&self, from: usize, to: usize) -> f64 {
        self.links
            .iter()
            .filter(|l| l.from == from && l.to == to)
            .map(|l| l.len)
            .sum()
    }

    /// The declared links.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The type as bytes (for the dispatcher's messages).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.i64(self.kind as i64);
        w.i64(self.parent as i64);
        w.i64(self.dims.len() as i64);
        self.dims.iter().for_each(|&d| w.i64(d as i64));
        self.power.iter().for_each(|&p| w.f64(p));
        w.i64(self.links.len() as i64);
        for l in &self.links {
            w.i64(l.from as i64);
            w.i64(l.to as i64);
            w.f64(l.len);
        }
        w.0
    }

    /// Reads a type written by [`encode`](Self::encode); also returns the
    /// bytes that follow it.
    pub fn decode(bytes: &[u8]) -> Result<(NetType, &[u8]), String> {
        let mut r = Reader(bytes);
        let kind = r.i64()? as i32;
        let parent = r.usize()?;
        let nd = r.usize()?;
        let dims = (0..nd.min(64))
            .map(|_| r.usize())
            .collect::<Result<Vec<_>, _>>()?;
        let n: usize = dims.iter().product();
        if n > 1 << 20 {
            return Err("network too large".into());
        }
        let power = (0..n).map(|_| r.f64()).collect::<Result<Vec<_>, _>>()?;
        let nl = r.usize()?;
        let mut links = Vec::new();
        for _ in 0..nl.min(1 << 24) {
            links.push(Link {
                from: r.usize()?,
                to: r.usize()?,
                len: r.f64()?,
            });
        }
        let t = NetType::new(kind, dims, power, links, parent)?;
        Ok((t, r.0))
    }
}

/// Little-endian writer of the wire format.
#[derive(Default)]
pub struct Writer(pub Vec<u8>);

impl Writer {
    pub fn i64(&mut self, v: i64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn str(&mut self, s: &str) {
        self.i64(s.len() as i64);
        self.0.extend_from_slice(s.as_bytes());
    }
}

/// Reader of what [`Writer`] wrote.
pub struct Reader<'a>(pub &'a [u8]);

impl Reader<'_> {
    fn take8(&mut self) -> Result<[u8; 8], String> {
        if self.0.len() < 8 {
            return Err("message too short".into());
        }
        let (a, b) = self.0.split_at(8);
        self.0 = b;
        Ok(a.try_into().expect("8 bytes"))
    }
    pub fn i64(&mut self) -> Result<i64, String> {
        self.take8().map(i64::from_le_bytes)
    }
    pub fn usize(&mut self) -> Result<usize, String> {
        usize::try_from(self.i64()?).map_err(|_| "negative count".to_string())
    }
    pub fn f64(&mut self) -> Result<f64, String> {
        self.take8().map(f64::from_le_bytes)
    }
    pub fn str(&mut self) -> Result<String, String> {
        let n = self.usize()?;
        if n > self.0.len() {
            return Err("message too short".into());
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        String::from_utf8(a.to_vec()).map_err(|_| "name is not UTF-8".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip_row_major() {
        let t = NetType::new(0, vec![2, 3], vec![], vec![], 4).unwrap();
        assert_eq!(t.node_count(), 6);
        assert_eq!(t.linear(&[1, 2]), Some(5));
        assert_eq!(t.coords(4), Some(vec![1, 1]));
        for i in 0..6 {
            assert_eq!(t.linear(&t.coords(i).unwrap()), Some(i));
        }
        assert_eq!(t.linear(&[2, 0]), None);
        assert_eq!(t.coords(6), None);
        assert_eq!(t.parent(), 4);
    }

    #[test]
    fn bad_types_are_refused_with_reason() {
        assert!(NetType::new(0, vec![3], vec![1.0], vec![], 0)
            .unwrap_err()
            .contains("1 performances"));
        assert!(NetType::new(0, vec![2], vec![], vec![], 2)
            .unwrap_err()
            .contains("parent"));
        let l = Link {
            from: 0,
            to: 5,
            len: 1.0,
        };
        assert!(NetType::new(0, vec![2], vec![], vec![l], 0)
            .unwrap_err()
            .contains("link"));
        assert!(NetType::new(0, vec![2, 0], vec![], vec![], 0).is_err());
    }

    #[test]
    fn encoding_round_trips_and_sums_links() {
        let links = vec![
            Link {
                from: 0,
                to: 1,
                len: 10.0,
            },
            Link {
                from: 0,
                to: 1,
                len: 5.0,
            },
        ];
        let t = NetType::new(7, vec![3], vec![1.0, 2.0, 3.0], links, 1).unwrap();
        assert_eq!(t.link_length(0, 1), 15.0);
        assert_eq!(t.link_length(1, 0), 0.0);
        let mut bytes = t.encode();
        bytes.push(42);
        let (back, rest) = NetType::decode(&bytes).unwrap();
        assert_eq!(back, t);
        assert_eq!(rest, &[42]);
        assert!(NetType::decode(&bytes[..10]).is_err());
    }
}
