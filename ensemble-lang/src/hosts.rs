//! Host maps: the host names a script's allocation uses, mapped to real
//! hosts of this installation (the published names mean nothing here).

use std::collections::BTreeMap;
use std::path::Path;

use crate::diag::Diagnostic;
use crate::model::Span;

/// Published host name to real host name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostMap {
    names: BTreeMap<String, String>,
    /// `* HOST`: where every name not listed goes.
    wildcard: Option<String>,
}

/// This machine's host name, if it can be read.
fn own_hostname() -> Option<String> {
    for file in ["/proc/sys/kernel/hostname", "/etc/hostname"] {
        if let Ok(text) = std::fs::read_to_string(file) {
            let name = text.trim();
            if !name.is_empty() {
                return Some(name.to_string());
            }
        }
    }
    std::env::var("HOSTNAME").ok().filter(|h| !h.is_empty())
}

impl HostMap {
    /// A map that knows `localhost` and this machine's own host name
    /// (both mapped to themselves), and nothing else.
    pub fn local() -> HostMap {
        let mut map = HostMap::default();
        map.insert("localhost", "localhost");
        if let Some(h) = own_hostname() {
            map.insert(&h, &h);
            if let Some(short) = h.split('.').next() {
                if short != h {
                    map.insert(short, &h);
                }
            }
        }
        map
    }

    /// Reads a host map file: one entry a line, `NAME HOST` or
    /// `NAME = HOST`; `* HOST` maps every name not listed; `#` starts a
    /// comment. The result holds only what the text says (start from
    /// [`HostMap::local`] and [`HostMap::merge`] to keep the local names).
    pub fn parse(text: &str, file: &Path) -> Result<HostMap, Vec<Diagnostic>> {
        let mut map = HostMap::default();
        let mut errors = Vec::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let words: Vec<&str> = match line.split_once('=') {
                Some((name, host)) => {
                    let host: Vec<&str> = host.split_whitespace().collect();
                    let name = name.trim();
                    if host.len() == 1 && !name.contains(char::is_whitespace) {
                        vec![name, host[0]]
                    } else {
                        vec![name, ""]
                    }
                }
                None => line.split_whitespace().collect(),
            };
            if words.is_empty() {
                continue;
            }
            let col = raw.len() - raw.trim_start().len() + 1;
            let span = Span {
                line: (n + 1) as u32,
                col: col as u32,
            };
            if words.len() != 2 || words[0].is_empty() || words[1].is_empty() {
                errors.push(Diagnostic::error(
                    file,
                    span,
                    format!(
                        "expected `NAME HOST` or `NAME = HOST`, found `{}`",
                        line.trim()
                    ),
                ));
                continue;
            }
            map.insert(words[0], words[1]);
        }
        if errors.is_empty() {
            Ok(map)
        } else {
            Err(errors)
        }
    }

    /// Maps `name` to `host` (`*` sets the host of every unlisted name).
    pub fn insert(&mut self, name: &str, host: &str) {
        if name == "*" {
            self.wildcard = Some(host.to_string());
        } else {
            self.names.insert(name.to_string(), host.to_string());
        }
    }

    /// Adds every entry of `other` (its entries win).
    pub fn merge(&mut self, other: &HostMap) {
        for (k, v) in &other.names {
            self.names.insert(k.clone(), v.clone());
        }
        if other.wildcard.is_some() {
            self.wildcard = other.wildcard.clone();
        }
    }

    /// The real host for a host name of a script, if the map knows it.
    pub fn resolve(&self, name: &str) -> Option<String> {
        self.names
            .get(name)
            .cloned()
            .or_else(|| self.wildcard.clone())
    }
}
