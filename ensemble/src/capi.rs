//! The C ABI of `ensemble.h`: the PVM interface (`Interface`, `MakePorts`,
//! `SetInterface`, `ENSDone`) and the MPI envelope (`SetEnvArgs` and the
//! functions behind the `ENVPort`, `ENVRoot`, `ENVComm` macros). No panic
//! crosses into C.

#![allow(
    clippy::not_unsafe_ptr_arg_deref,
    non_snake_case,
    non_upper_case_globals
)]

use crate::ptr;
use crate::runtime::mpi::Envelope;
use crate::runtime::pvm::{self as rpvm, Interface as RustInterface};
use ensemble_lang::envargs::{BEGIN, END};
use shim_core::ffi_guard::guard;
use shim_core::mpi::{Comm, RawComm};
use shim_core::Lock;
use shim_pvm::rust_api::Pvm;
use std::ffi::{c_char, c_int, CString};

/// One port as C sees it (`Interface[type].port[p]`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EnsPort {
    /// Peer task id (0 when the port is not connected).
    pub tid: c_int,
    /// Message tag of the channel (-1 when not connected).
    pub tag: c_int,
}

/// The ports of one type as C sees them; `port[1..=nports]` are the
/// ports (`port[0]` is unused, so indices match the script's).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct EnsPortType {
    pub name: *const c_char,
    pub nports: c_int,
    pub port: *mut EnsPort,
}

/// The interface of this component, one entry per port type in the order
/// given to `MakePorts`; NULL before `MakePorts`.
#[no_mangle]
pub static mut Interface: *mut EnsPortType = std::ptr::null_mut();

static RUST_INTERFACE: Lock<Option<RustInterface>> = Lock::new(None);

/// Builds (and leaks: C keeps pointers into it) the C view of `ifc`.
fn publish(ifc: &RustInterface) {
    let types: Vec<EnsPortType> = ifc
        .types
        .iter()
        .map(|t| {
            let mut ports = vec![EnsPort { tid: 0, tag: -1 }];
            ports.extend(t.ports.iter().map(|p| match p {
                Some(p) => EnsPort {
                    tid: p.peer.0,
                    tag: p.tag,
                },
                None => EnsPort { tid: 0, tag: -1 },
            }));
            let name = CString::new(t.name.as_str()).unwrap_or_default();
            EnsPortType {
                name: name.into_raw(),
                nports: t.ports.len() as c_int,
                port: Box::leak(ports.into_boxed_slice()).as_mut_ptr(),
            }
        })
        .collect();
    let p = Box::leak(types.into_boxed_slice()).as_mut_ptr();
    ptr::publish(std::ptr::addr_of_mut!(Interface), p);
}

fn enrolled(what: &str) -> Option<Pvm> {
    match Pvm::enroll() {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!(
                "ensemble: {what}: cannot enrol in PVM: {}",
                shim_pvm::rust_api::error_text(e)
            );
            None
        }
    }
}

/// `MakePorts(ntypes, names)`: receives the port counts from the loader
/// and builds `Interface` with one entry per name (in this order). Returns
/// 0, or -1 after printing why (bad arguments, not started by a loader, or
/// the script gives a port type the component does not have).
#[no_mangle]
pub extern "C" fn MakePorts(ntypes: c_int, names: *const *const c_char) -> c_int {
    guard("MakePorts", -1, || {
        let Some(names) = ptr::c_str_array(names, ntypes) else {
            eprintln!("ensemble: MakePorts: argument 2 must hold {ntypes} port type names");
            return -1;
        };
        let Some(pvm) = enrolled("MakePorts") else {
            return -1;
        };
        match RustInterface::make_ports(&pvm, &names) {
            Ok(ifc) => {
                publish(&ifc);
                *RUST_INTERFACE.lock() = Some(ifc);
                0
            }
            Err(e) => {
                eprintln!("ensemble: {e}");
                -1
            }
        }
    })
}

/// `SetInterface()`: receives the bindings from the loader and fills in
/// every port of `Interface`. Returns 0, or -1 after printing why
/// (`MakePorts` not called, or a binding for a port it did not create).
#[no_mangle]
pub extern "C" fn SetInterface() -> c_int {
    guard("SetInterface", -1, || {
        let Some(pvm) = enrolled("SetInterface") else {
            return -1;
        };
        let mut slot = RUST_INTERFACE.lock();
        let Some(ifc) = slot.as_mut() else {
            eprintln!("ensemble: SetInterface: call MakePorts first");
            return -1;
        };
        match ifc.set_interface(&pvm) {
            Ok(()) => {
                publish(ifc);
                0
            }
            Err(e) => {
                eprintln!("ensemble: {e}");
                -1
            }
        }
    })
}

/// `ENSDone(status)`: tells the loader this component finished with
/// `status` and leaves PVM (`pvm_exit`). Returns `status`, so a component
/// can end with `return ENSDone(rc);`.
#[no_mangle]
pub extern "C" fn ENSDone(status: c_int) -> c_int {
    guard("ENSDone", status, || {
        if let Ok(pvm) = Pvm::enroll() {
            rpvm::report(&pvm, status);
            pvm.leave_job();
        }
        status
    })
}

// ---- MPI -------------------------------------------------------------------

static ENVELOPE: Lock<Option<Envelope>> = Lock::new(None);

/// Prints `msg` and ends the whole job: a component whose envelope is
/// wrong would otherwise leave the others waiting in collectives.
fn fatal(msg: &str) -> ! {
    eprintln!("ensemble: {msg}");
    shim_core::mpi::abort(Comm::world(), 1)
}

fn with_env<R>(what: &str, f: impl FnOnce(&Envelope) -> Option<R>) -> R {
    let g = ENVELOPE.lock();
    let Some(env) = g.as_ref() else {
        drop(g);
        fatal(&format!("{what}: call SetEnvArgs(&argc, &argv) first"));
    };
    let name = env.name().to_string();
    match f(env) {
        Some(r) => r,
        None => {
            drop(g);
            fatal(&format!("{name}: {what}: not in this process's envelope"))
        }
    }
}

/// Runs `f` behind the panic boundary; a panic ends the job with a message
/// (these calls have no error value to return).
fn or_abort<R>(name: &str, f: impl FnOnce() -> R) -> R {
    guard(name, None, || Some(f())).unwrap_or_else(|| fatal(&format!("{name}: internal error")))
}

fn name_arg(p: *const c_char, call: &str, which: &str) -> String {
    match ptr::c_str(p) {
        Some(s) => s.to_string(),
        None => fatal(&format!("{call}: argument {which} is not a valid name")),
    }
}

/// `SetEnvArgs(&argc, &argv)`: reads this process's envelope from the
/// command line, builds its communicators (collective over
/// `MPI_COMM_WORLD`: every process of the composition calls it once, after
/// `MPI_Init`) and removes the envelope from `argc`/`argv`, leaving the
/// program name and the application arguments. Returns 0; on a missing or
/// malformed envelope it prints why and aborts the job.
#[no_mangle]
pub extern "C" fn SetEnvArgs(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    guard("SetEnvArgs", 1, || {
        let Some(args) = ptr::read_args(argc, argv) else {
            fatal("SetEnvArgs: pass &argc and &argv of main");
        };
        let (env, _rest) = match Envelope::from_args(&args) {
            Ok(v) => v,
            Err(e) => fatal(&e.0),
        };
        if let (Some(b), Some(e)) = (
            args.iter().position(|a| a == BEGIN),
            args.iter().position(|a| a == END),
        ) {
            ptr::remove_args(argc, argv, b, e);
        }
        *ENVELOPE.lock() = Some(env);
        0
    })
}

/// The communicator of context `ctx` (`ENVComm(ctx)`). Aborts the job with
/// a message if this process has no such context.
#[no_mangle]
pub extern "C" fn ENS_comm(ctx: *const c_char) -> RawComm {
    or_abort("ENVComm", || {
        let ctx = name_arg(ctx, "ENVComm", "1");
        with_env(&format!("context {ctx}"), |e| e.comm(&ctx)).raw()
    })
}

/// Rank of root `root` in context `ctx` (first half of `ENVRoot`). Aborts
/// the job with a message if the envelope has no such root.
#[no_mangle]
pub extern "C" fn ENS_root_rank(root: *const c_char, ctx: *const c_char) -> c_int {
    or_abort("ENVRoot", || {
        let root = name_arg(root, "ENVRoot", "1");
        let ctx = name_arg(ctx, "ENVRoot", "2");
        with_env(&format!("root {root} in context {ctx}"), |e| {
            e.root(&root, &ctx)
        })
        .rank
    })
}

/// Peer rank of port `index` of multiport `mp` in context `ctx` (first
/// part of `ENVPort`). Aborts the job with a message if it is not bound.
#[no_mangle]
pub extern "C" fn ENS_port_rank(mp: *const c_char, index: c_int, ctx: *const c_char) -> c_int {
    or_abort("ENVPort", || port(mp, index, ctx).rank)
}

/// Tag of port `index` of multiport `mp` in context `ctx` (second part of
/// `ENVPort`). Aborts the job with a message if it is not bound.
#[no_mangle]
pub extern "C" fn ENS_port_tag(mp: *const c_char, index: c_int, ctx: *const c_char) -> c_int {
    or_abort("ENVPort", || port(mp, index, ctx).tag)
}

fn port(mp: *const c_char, index: c_int, ctx: *const c_char) -> crate::runtime::mpi::PortAddr {
    let mp = name_arg(mp, "ENVPort", "1");
    let ctx = name_arg(ctx, "ENVPort", "3");
    with_env(&format!("port {mp}[{index}] in context {ctx}"), |e| {
        u32::try_from(index).ok().and_then(|i| e.port(&mp, i, &ctx))
    })
}

/// Number of bound ports of multiport `mp` (`ENVNPorts`); 0 if none.
#[no_mangle]
pub extern "C" fn ENS_nports(mp: *const c_char) -> c_int {
    or_abort("ENVNPorts", || {
        let mp = name_arg(mp, "ENVNPorts", "1");
        with_env("ENVNPorts", |e| Some(e.port_count(&mp) as c_int))
    })
}

/// Integer topology argument `name` (`ENVArg`), or `dflt` if the envelope
/// has none. Aborts the job with a message if its value is not an integer.
#[no_mangle]
pub extern "C" fn ENS_arg_int(name: *const c_char, dflt: c_int) -> c_int {
    or_abort("ENVArg", || {
        let name = name_arg(name, "ENVArg", "1");
        let v = with_env("ENVArg", |e| Some(e.arg(&name).map(str::to_string)));
        match v {
            None => dflt,
            Some(s) => match s.trim().parse() {
                Ok(n) => n,
                Err(_) => fatal(&format!(
                    "topology argument {name} = {s:?} is not an integer"
                )),
            },
        }
    })
}

/// This process's id in the composition (its rank in `MPI_COMM_WORLD`),
/// or -1 before `SetEnvArgs`.
#[no_mangle]
pub extern "C" fn ENS_id() -> c_int {
    guard("ENS_id", -1, || {
        ENVELOPE.lock().as_ref().map_or(-1, |e| e.id())
    })
}
