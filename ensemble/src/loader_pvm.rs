//! The PVM loader at run time: the published two-pass protocol over the
//! PVM layer's Rust API (its launch plan is `ensemble_lang::plan::pvm`).
//!
//! The loader is a PVM task (rank 0 of one MPMD launch in which every
//! process of the composition is pre-launched, in script order, on its
//! host). Pass 1 spawns each process (`pvm_spawn` claims its pre-launched
//! rank, or starts it dynamically when there is none), prints
//! `Spawn process N (component) tid= t...`, asks for its exit notice and
//! sends it its port counts. Pass 2 sends every process its bindings
//! (type, index, peer tid, tag). Then the loader waits until every
//! component has reported its status or exited; the run fails if any
//! component failed or ended without reporting.

use crate::runtime::pvm::{
    bindings_message, ports_message, TAG_BIND, TAG_DONE, TAG_EXIT, TAG_PORTS,
};
use ensemble_lang::model::Application;
use shim_pvm::rust_api::{error_text, Pvm, Tid};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

fn kill_all(pvm: &Pvm, tids: &[Tid]) {
    for &t in tids {
        let _ = pvm.kill(t);
    }
}

/// Runs the loader inside this (MPI) process; returns the exit status:
/// 0 when every component reported status 0, 1 otherwise.
pub fn run(app: &Application, exes: &[PathBuf]) -> i32 {
    let pvm = match Pvm::enroll() {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "ensemble: the loader cannot enrol in PVM: {}",
                error_text(e)
            );
            return 1;
        }
    };
    let status = load_and_wait(&pvm, app, exes);
    pvm.exit();
    status
}

fn load_and_wait(pvm: &Pvm, app: &Application, exes: &[PathBuf]) -> i32 {
    let mut tids: Vec<Tid> = Vec::with_capacity(app.processes.len());
    let stdout = std::io::stdout();
    // Pass 1: spawn, exit notice, port counts.
    for (i, p) in app.processes.iter().enumerate() {
        let exe = exes[i].to_string_lossy();
        let args: Vec<&str> = p.params.iter().map(String::as_str).collect();
        let tid = match pvm.spawn(&exe, &args, 1) {
            Ok(v) if !v.is_empty() => {
                shim_core::log::tracing::debug!(
                    target: "ensemble",
                    process = i + 1,
                    label = %p.label(),
                    %exe,
                    tid = ?v[0],
                    "loader spawned a component"
                );
                v[0]
            }
            Ok(_) => {
                eprintln!(
                    "ensemble: cannot spawn process {} ({}) from {exe}",
                    i + 1,
                    p.label()
                );
                kill_all(pvm, &tids);
                return 1;
            }
            Err(e) => {
                eprintln!(
                    "ensemble: cannot spawn process {} ({}) from {exe}: {}",
                    i + 1,
                    p.label(),
                    error_text(e)
                );
                kill_all(pvm, &tids);
                return 1;
            }
        };
        {
            let mut out = stdout.lock();
            let _ = writeln!(out, "Spawn process {} ({}) tid= {tid}", i + 1, p.component);
            let _ = out.flush();
        }
        if let Err(e) = pvm.notify_exit(&[tid], TAG_EXIT) {
            eprintln!("ensemble: pvm_notify for {}: {}", p.label(), error_text(e));
        }
        let counts: Vec<(String, u32)> = p
            .ports
            .iter()
            .map(|g| (g.port_type.clone(), g.count))
            .collect();
        let sent = ports_message(&counts).and_then(|m| pvm.send(tid, TAG_PORTS, &m));
        if let Err(e) = sent {
            eprintln!(
                "ensemble: sending port counts to {}: {}",
                p.label(),
                error_text(e)
            );
            tids.push(tid);
            kill_all(pvm, &tids);
            return 1;
        }
        tids.push(tid);
    }
    // Pass 2: bindings.
    for (i, p) in app.processes.iter().enumerate() {
        let b: Vec<(String, u32, Tid, i32)> = app
            .bindings(i)
            .into_iter()
            .map(|(ty, idx, peer, tag)| (ty, idx, tids[peer], tag))
            .collect();
        let sent = bindings_message(&b).and_then(|m| pvm.send(tids[i], TAG_BIND, &m));
        if let Err(e) = sent {
            eprintln!(
                "ensemble: sending bindings to {}: {}",
                p.label(),
                error_text(e)
            );
            kill_all(pvm, &tids);
            return 1;
        }
    }
    wait_for_components(pvm, app, &tids)
}

/// How long the loader waits for the remaining components to go once it
/// has killed them after a failure.
const AFTER_KILL: Duration = Duration::from_secs(10);

fn wait_for_components(pvm: &Pvm, app: &Application, tids: &[Tid]) -> i32 {
    let n = tids.len();
    let mut status: Vec<Option<i32>> = vec![None; n];
    let mut exited = vec![false; n];
    let mut killed = false;
    let index = |t: Tid| tids.iter().position(|&x| x == t);
    while (0..n).any(|i| status[i].is_none() && !exited[i]) {
        let got = if killed {
            pvm.recv_timeout(None, None, AFTER_KILL)
        } else {
            pvm.recv(None, None).map(Some)
        };
        let mut r = match got {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) => {
                eprintln!("ensemble: the loader's receive failed: {}", error_text(e));
                return 1;
            }
        };
        let value = r.unpack::<i32>(1).ok().map(|v| v[0]);
        let mut failed = false;
        match (r.tag, value) {
            (TAG_DONE, Some(s)) => match index(r.source) {
                Some(i) => {
                    status[i] = Some(s);
                    failed = s != 0;
                }
                None => eprintln!("ensemble: status {s} from unknown task {}", r.source),
            },
            (TAG_EXIT, Some(t)) => {
                if let Some(i) = index(Tid(t)) {
                    exited[i] = true;
                    if status[i].is_none() {
                        // The status may still be on its way (it travels
                        // apart from the exit notice).
                        if let Ok(Some(mut d)) =
                            pvm.recv_timeout(Some(tids[i]), Some(TAG_DONE), Duration::from_secs(2))
                        {
                            status[i] = d.unpack::<i32>(1).ok().map(|v| v[0]);
                        }
                        failed = status[i] != Some(0);
                    }
                }
            }
            _ => eprintln!(
                "ensemble: the loader ignores a message with tag {} from {}",
                r.tag, r.source
            ),
        }
        if failed && !killed {
            // The others may be waiting for the one that failed: end them.
            killed = true;
            let rest: Vec<Tid> = (0..n)
                .filter(|&i| status[i].is_none() && !exited[i])
                .map(|i| tids[i])
                .collect();
            kill_all(pvm, &rest);
        }
    }
    let mut rc = 0;
    for (i, p) in app.processes.iter().enumerate() {
        let what = match status[i] {
            Some(0) => continue,
            Some(s) => format!("failed with status {s}"),
            None if killed => "was ended after another component failed".to_string(),
            None => "exited without reporting its status".to_string(),
        };
        eprintln!(
            "ensemble: process {} ({}, {}) {what}",
            i + 1,
            p.label(),
            tids[i]
        );
        rc = 1;
    }
    rc
}
