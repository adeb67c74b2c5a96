//! The PVM loader of `mpbridge ensemble run`: rank 0 of the job that
//! `mpbridge` starts for a script with `environment PVM3;`. It must be a
//! PVM task (it spawns the components and sends them their bindings), so it
//! lives in its own executable and the `mpbridge` command itself needs no
//! MPI library.
//!
//! Usage: mpbridge-ens-loader SCRIPT [-D NAME=VALUE]... [--exe COMPONENT=PATH]...

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

fn usage(msg: &str) -> ExitCode {
    eprintln!("mpbridge-ens-loader: {msg}");
    eprintln!(
        "usage: mpbridge-ens-loader SCRIPT [-D NAME=VALUE]... [--exe COMPONENT=PATH]... \
         (started by 'mpbridge ensemble run')"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut script = None;
    let mut params = BTreeMap::new();
    let mut exes: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let define = if a == "-D" {
            match args.next() {
                Some(v) => Some(v),
                None => return usage("-D needs NAME=VALUE"),
            }
        } else {
            a.strip_prefix("-D").map(str::to_string)
        };
        if let Some(d) = define {
            match ensemble_lang::parse_define(&d) {
                Ok((k, v)) => {
                    params.insert(k, v);
                }
                Err(e) => return usage(&e),
            }
        } else if a == "--exe" {
            let Some(v) = args.next() else {
                return usage("--exe needs COMPONENT=PATH");
            };
            let Some((c, p)) = v.split_once('=') else {
                return usage(&format!("--exe {v}: expected COMPONENT=PATH"));
            };
            exes.insert(c.to_string(), PathBuf::from(p));
        } else if a.starts_with('-') {
            return usage(&format!("unknown option '{a}'"));
        } else if script.replace(PathBuf::from(&a)).is_some() {
            return usage("one script at a time");
        }
    }
    let Some(script) = script else {
        return usage("no script given");
    };
    let app = match ensemble_lang::parse_file(&script, &params) {
        Ok(app) => app,
        Err(diags) => {
            for d in diags {
                eprintln!("{d}");
            }
            return ExitCode::from(1);
        }
    };
    let mut paths = Vec::with_capacity(app.processes.len());
    for p in &app.processes {
        match exes.get(&p.component) {
            Some(e) => paths.push(e.clone()),
            None => {
                eprintln!(
                    "mpbridge-ens-loader: no executable given for component {}",
                    p.component
                );
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::from(ensemble::loader_pvm::run(&app, &paths).clamp(0, 255) as u8)
}
