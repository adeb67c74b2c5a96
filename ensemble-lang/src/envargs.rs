//! The command-line form of one process's MPI envelope: what the MPI loader
//! writes before a component's own arguments and what `SetEnvArgs` reads
//! and removes.
//!
//! ```text
//! PROGRAM -ens:begin
//!         -ens:id      ID                    this process (its rank in MPI_COMM_WORLD)
//!         -ens:name    LABEL                 e.g. T[3], for messages
//!         -ens:groups  G1,G2,...             every group of the composition, in split order
//!         -ens:context CONTEXT=GROUP         one per context of the process
//!         -ens:root    ROOT@CONTEXT=ID       root ROOT of CONTEXT is process ID
//!         -ens:port    TYPE[I]@CONTEXT=ID/TAG  port I of multiport TYPE: peer ID, tag TAG
//!         -ens:arg     NAME=VALUE            topology argument
//!         -ens:end
//!         APPLICATION ARGUMENTS...
//! ```
//!
//! Every process of the composition receives the same `-ens:groups` list and
//! calls `MPI_Comm_split` once per group, in that order, with colour 0 if one
//! of its contexts is bound to the group and `MPI_UNDEFINED` otherwise, so
//! every split is collective over `MPI_COMM_WORLD`. Ids become ranks in each
//! new communicator through an all-gather of the members' ids.
//!
//! Context, root, port and argument names are script identifiers (letters,
//! digits, `_`, `-`, `.`), so none of the separators `= @ / [ ] ,` occurs
//! inside one; group names may also be indexed (`TG[3]`, made by a rule)
//! and only exclude `,`, `=` and white space.

use std::fmt;

/// First and last marker of the envelope.
pub const BEGIN: &str = "-ens:begin";
/// Last marker of the envelope.
pub const END: &str = "-ens:end";

/// A root binding: root `name` of context `context` is process `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootBinding {
    pub name: String,
    pub context: String,
    pub id: i32,
}

/// A port binding: port `index` (1-based) of multiport `port_type` lives in
/// `context` and talks to process `peer` with tag `tag`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortBinding {
    pub port_type: String,
    pub index: u32,
    pub context: String,
    pub peer: i32,
    pub tag: i32,
}

/// One process's envelope.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvSpec {
    pub id: i32,
    pub name: String,
    pub groups: Vec<String>,
    /// (context, group).
    pub contexts: Vec<(String, String)>,
    pub roots: Vec<RootBinding>,
    pub ports: Vec<PortBinding>,
    /// (name, value).
    pub args: Vec<(String, String)>,
}

/// What is wrong with an envelope on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvArgsError(pub String);

impl fmt::Display for EnvArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EnvArgsError {}

/// Group names may be indexed (`TG[3]`, from a rule).
fn valid_group(s: &str) -> bool {
    !s.is_empty()
        && !s
            .chars()
            .any(|c| c == ',' || c == '=' || c.is_whitespace() || c.is_control())
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
}

impl EnvSpec {
    /// The group `context` is bound to.
    pub fn group_of(&self, context: &str) -> Option<&str> {
        self.contexts
            .iter()
            .find(|(c, _)| c == context)
            .map(|(_, g)| g.as_str())
    }

    /// The arguments, markers included.
    pub fn to_args(&self) -> Vec<String> {
        let mut a = vec![BEGIN.to_string()];
        let mut put = |k: &str, v: String| {
            a.push(k.to_string());
            a.push(v);
        };
        put("-ens:id", self.id.to_string());
        put("-ens:name", self.name.clone());
        put("-ens:groups", self.groups.join(","));
        for (c, g) in &self.contexts {
            put("-ens:context", format!("{c}={g}"));
        }
        for r in &self.roots {
            put("-ens:root", format!("{}@{}={}", r.name, r.context, r.id));
        }
        for p in &self.ports {
            put(
                "-ens:port",
                format!(
                    "{}[{}]@{}={}/{}",
                    p.port_type, p.index, p.context, p.peer, p.tag
                ),
            );
        }
        for (n, v) in &self.args {
            put("-ens:arg", format!("{n}={v}"));
        }
        a.push(END.to_string());
        a
    }

    /// Finds the envelope in `args` (a whole argv, program name first) and
    /// returns it with the remaining arguments. `Ok(None)` when there is no
    /// envelope at all.
    pub fn extract(args: &[String]) -> Result<Option<(EnvSpec, Vec<String>)>, EnvArgsError> {
        let Some(begin) = args.iter().position(|a| a == BEGIN) else {
            return Ok(None);
        };
        let end = args[begin..]
            .iter()
            .position(|a| a == END)
            .map(|e| begin + e)
            .ok_or_else(|| EnvArgsError(format!("{BEGIN} without {END}")))?;
        let spec = EnvSpec::parse(&args[begin + 1..end])?;
        let mut rest: Vec<String> = args[..begin].to_vec();
        rest.extend_from_slice(&args[end + 1..]);
        Ok(Some((spec, rest)))
    }

    /// Parses the words between the markers.
    pub fn parse(words: &[String]) -> Result<EnvSpec, EnvArgsError> {
        let mut spec = EnvSpec {
            id: -1,
            ..EnvSpec::default()
        };
        let bad = |k: &str, v: &str, why: &str| EnvArgsError(format!("{k} {v:?}: {why}"));
        let mut it = words.iter();
        while let Some(key) = it.next() {
            let value = it
                .next()
                .ok_or_else(|| EnvArgsError(format!("{key} without a value")))?;
            let v = value.as_str();
            match key.as_str() {
                "-ens:id" => {
                    spec.id = v
                        .parse()
                        .ok()
                        .filter(|&i: &i32| i >= 0)
                        .ok_or_else(|| bad(key, v, "expected a process id >= 0"))?
                }
                "-ens:name" => spec.name = v.to_string(),
                "-ens:groups" => {
                    spec.groups = v
                        .split(',')
                        .filter(|g| !g.is_empty())
                        .map(str::to_string)
                        .collect();
                    if let Some(g) = spec.groups.iter().find(|g| !valid_group(g)) {
                        return Err(bad(key, v, &format!("bad group name {g:?}")));
                    }
                }
                "-ens:context" => {
                    let (c, g) = v
                        .split_once('=')
                        .filter(|(c, g)| valid_name(c) && valid_group(g))
                        .ok_or_else(|| bad(key, v, "expected CONTEXT=GROUP"))?;
                    spec.contexts.push((c.to_string(), g.to_string()));
                }
                "-ens:root" => {
                    let parsed = v.split_once('=').and_then(|(l, id)| {
                        let (n, c) = l.split_once('@')?;
                        let id: i32 = id.parse().ok().filter(|&i| i >= 0)?;
                        (valid_name(n) && valid_name(c)).then(|| RootBinding {
                            name: n.to_string(),
                            context: c.to_string(),
                            id,
                        })
                    });
                    spec.roots
                        .push(parsed.ok_or_else(|| bad(key, v, "expected ROOT@CONTEXT=ID"))?);
                }
                "-ens:port" => {
                    let parsed = v.split_once('=').and_then(|(l, r)| {
                        let (p, c) = l.split_once('@')?;
                        let (t, i) = p.strip_suffix(']')?.split_once('[')?;
                        let (peer, tag) = r.split_once('/')?;
                        let index: u32 = i.parse().ok().filter(|&i| i >= 1)?;
                        let peer: i32 = peer.parse().ok().filter(|&i| i >= 0)?;
                        let tag: i32 = tag.parse().ok().filter(|&i| i >= 0)?;
                        (valid_name(t) && valid_name(c)).then(|| PortBinding {
                            port_type: t.to_string(),
                            index,
                            context: c.to_string(),
                            peer,
                            tag,
                        })
                    });
                    spec.ports.push(
                        parsed.ok_or_else(|| bad(key, v, "expected TYPE[I]@CONTEXT=ID/TAG"))?,
                    );
                }
                "-ens:arg" => {
                    let (n, val) = v
                        .split_once('=')
                        .filter(|(n, _)| valid_name(n))
                        .ok_or_else(|| bad(key, v, "expected NAME=VALUE"))?;
                    spec.args.push((n.to_string(), val.to_string()));
                }
                other => return Err(EnvArgsError(format!("unknown envelope option {other:?}"))),
            }
        }
        if spec.id < 0 {
            return Err(EnvArgsError("the envelope has no -ens:id".into()));
        }
        for (c, g) in &spec.contexts {
            if !spec.groups.contains(g) {
                return Err(EnvArgsError(format!(
                    "context {c} is bound to group {g}, which -ens:groups does not list"
                )));
            }
        }
        for r in &spec.roots {
            if spec.group_of(&r.context).is_none() {
                return Err(EnvArgsError(format!(
                    "root {} is in context {}, which this process does not have",
                    r.name, r.context
                )));
            }
        }
        for p in &spec.ports {
            if spec.group_of(&p.context).is_none() {
                return Err(EnvArgsError(format!(
                    "port {}[{}] is in context {}, which this process does not have",
                    p.port_type, p.index, p.context
                )));
            }
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> EnvSpec {
        EnvSpec {
            id: 2,
            name: "S[2]".into(),
            groups: vec!["Servers".into(), "TG[1]".into(), "TG[2]".into()],
            contexts: vec![
                ("TerminalGroup".into(), "TG[2]".into()),
                ("ServerGroup".into(), "Servers".into()),
            ],
            roots: vec![RootBinding {
                name: "CalcRoot".into(),
                context: "TerminalGroup".into(),
                id: 2,
            }],
            ports: vec![PortBinding {
                port_type: "Out".into(),
                index: 1,
                context: "ServerGroup".into(),
                peer: 3,
                tag: 12,
            }],
            args: vec![("RingSize".into(), "3".into())],
        }
    }

    #[test]
    fn round_trip_and_application_arguments_kept() {
        let s = sample();
        let mut argv = vec!["server".to_string()];
        argv.extend(s.to_args());
        argv.push("42".into());
        let (back, rest) = EnvSpec::extract(&argv).unwrap().unwrap();
        assert_eq!(back, s);
        assert_eq!(rest, vec!["server".to_string(), "42".to_string()]);
    }

    #[test]
    fn no_envelope_is_not_an_error() {
        let argv = vec!["prog".to_string(), "1".to_string()];
        assert_eq!(EnvSpec::extract(&argv).unwrap(), None);
    }

    #[test]
    fn malformed_envelopes_are_reported() {
        let w = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let cases: Vec<(Vec<String>, &str)> = vec![
            (w(&["p", BEGIN, "-ens:id", "1"]), "without -ens:end"),
            (w(&["p", BEGIN, END]), "no -ens:id"),
            (w(&["p", BEGIN, "-ens:id", "x", END]), "process id"),
            (
                w(&["p", BEGIN, "-ens:id", "1", "-ens:bogus", "1", END]),
                "unknown",
            ),
            (
                w(&["p", BEGIN, "-ens:id", "1", "-ens:context", "A=G", END]),
                "does not list",
            ),
            (
                w(&["p", BEGIN, "-ens:id", "1", "-ens:root", "R@C=1", END]),
                "does not have",
            ),
            (
                w(&["p", BEGIN, "-ens:id", "1", "-ens:port", "Out@C=1/2", END]),
                "TYPE[I]",
            ),
            (w(&["p", BEGIN, "-ens:id", END]), "without a value"),
        ];
        for (argv, want) in cases {
            let e = EnvSpec::extract(&argv).unwrap_err();
            assert!(e.0.contains(want), "{argv:?}: {e}");
        }
    }
}
