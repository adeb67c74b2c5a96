//! The Get-Maximum terminal written against the safe Rust runtime: the
//! same behaviour as `terminal.c`, so a composition can mix Rust and C
//! components without changing its script.

use ensemble::runtime::pvm::{done, Interface};
use shim_pvm::rust_api::{Message, Pvm};

/// Turns a PVM error into a message saying which step failed.
fn pvm_err(what: &'static str) -> impl Fn(shim_pvm::PvmError) -> String {
    move |e| format!("{what}: {}", shim_pvm::rust_api::error_text(e))
}

fn terminal(pvm: &Pvm) -> Result<(), String> {
    let ifc = Interface::receive(pvm, &["S"]).map_err(|e| e.to_string())?;
    let s = ifc.port("S", 1).ok_or("port S[1] is not connected")?;
    let arg = std::env::args().nth(1);
    let value = match &arg {
        Some(a) => a
            .trim()
            .parse::<i32>()
            .map_err(|_| format!("the value {a:?} is not an integer"))?,
        None => pvm.mytid().0,
    };
    let mut m = Message::new();
    m.pack(&[value]).map_err(pvm_err("packing"))?;
    pvm.send(s.peer, s.tag, &m).map_err(pvm_err("sending"))?;
    let mut r = pvm
        .recv(Some(s.peer), Some(s.tag))
        .map_err(pvm_err("receiving"))?;
    let max = r.unpack::<i32>(1).map_err(pvm_err("unpacking"))?[0];
    if arg.is_some() {
        println!("The maximum is {max}");
    } else {
        println!("The maximum tid is {max:x}");
    }
    Ok(())
}

fn main() {
    let pvm = match Pvm::enroll() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("terminal: cannot enrol in PVM (error {})", e.0);
            std::process::exit(1);
        }
    };
    let status = match terminal(&pvm) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("terminal {}: {e}", pvm.mytid());
            1
        }
    };
    done(pvm, status);
}
