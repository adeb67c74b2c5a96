//! Request counters of a `ga-server`: how many requests it served from
//! compute ranks on its own node and from ranks on other nodes. With
//! `MPBRIDGE_GA_SERVER_STATS=1` the server prints them when it ends, one
//! line on stderr, so a run can show that every server really did work for
//! other hosts.

/// The switch that makes a server report its counters.
pub const STATS_ENV: &str = "MPBRIDGE_GA_SERVER_STATS";

/// Requests served, by where they came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestCounts {
    /// From compute ranks on the server's own node.
    pub local: u64,
    /// From compute ranks on other nodes.
    pub remote: u64,
}

impl RequestCounts {
    /// Counts one request; `remote` when its sender is on another node.
    pub fn count(&mut self, remote: bool) {
        if remote {
            self.remote += 1;
        } else {
            self.local += 1;
        }
    }

    /// The report line of the server on `host`.
    pub fn report(&self, host: &str) -> String {
        format!(
            "ga-server on {host}: {} requests, {} from other hosts, {} from this host",
            self.local + self.remote,
            self.remote,
            self.local
        )
    }
}

/// Whether the environment asks for the report.
pub fn wanted(setting: Option<&str>) -> bool {
    setting.is_some_and(|v| v.trim() == "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_counted_by_origin_and_reported() {
        let mut c = RequestCounts::default();
        c.count(true);
        c.count(true);
        c.count(false);
        assert_eq!(
            c,
            RequestCounts {
                local: 1,
                remote: 2
            }
        );
        assert_eq!(
            c.report("host2"),
            "ga-server on host2: 3 requests, 2 from other hosts, 1 from this host"
        );
    }

    #[test]
    fn only_1_asks_for_the_report() {
        assert!(wanted(Some("1")));
        assert!(!wanted(Some("0")));
        assert!(!wanted(None));
    }
}
