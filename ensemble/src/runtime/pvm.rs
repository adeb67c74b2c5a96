//! The PVM component runtime: a component receives its interface from the
//! loader in two messages and then talks only through its ports.
//!
//! Protocol (all messages from the loader, the component's PVM parent):
//! 1. [`TAG_PORTS`]: `int ntypes`, then per port type `string name, int count`
//!    (the published "number of ports of each type"; names are added so a
//!    component does not depend on the order the script lists its types).
//! 2. [`TAG_BIND`]: `int nbindings`, then per connected port
//!    `string type, int index, int peer_tid, int tag`.
//! 3. At the end the component sends [`TAG_DONE`] with `int status` to the
//!    loader, which makes the exit status of the whole run reflect it.
//!
//! ```no_run
//! use ensemble::runtime::pvm::{Interface, done};
//! use shim_pvm::rust_api::{Message, Pvm};
//! let pvm = Pvm::enroll().unwrap();
//! let ifc = Interface::receive(&pvm, &["S"]).unwrap();
//! let s1 = ifc.port("S", 1).unwrap();
//! let mut m = Message::new();
//! m.pack(&[7i32]).unwrap();
//! pvm.send(s1.peer, s1.tag, &m).unwrap();
//! done(pvm, 0);
//! ```

use shim_pvm::rust_api::{error_text, Message, Pvm, Received, Tid};
use shim_pvm::PvmError;

/// Tag of the port-count message.
pub const TAG_PORTS: i32 = 0x454e_5001;
/// Tag of the bindings message.
pub const TAG_BIND: i32 = 0x454e_5002;
/// Tag of a component's final status, sent to the loader.
pub const TAG_DONE: i32 = 0x454e_5003;
/// Tag the loader asks task-exit notices to carry.
pub const TAG_EXIT: i32 = 0x454e_5004;

/// One bound port: where messages go and with which tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port {
    pub peer: Tid,
    pub tag: i32,
}

/// The ports of one type; `ports[0]` is port 1. An unconnected port is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortType {
    pub name: String,
    pub ports: Vec<Option<Port>>,
}

/// A component's interface: its port types, in the order the component
/// itself declared them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    pub types: Vec<PortType>,
}

pub use super::RuntimeError;

fn pvm_err(what: &str, e: PvmError) -> RuntimeError {
    RuntimeError(format!("{what}: {}", error_text(e)))
}

fn loader(pvm: &Pvm) -> Result<Tid, RuntimeError> {
    pvm.parent().ok_or_else(|| {
        RuntimeError(
            "this component was not started by an Ensemble loader (it has no PVM parent); \
             run its composition with `mpbridge ensemble run`"
                .into(),
        )
    })
}

fn int(r: &mut Received, what: &str) -> Result<i32, RuntimeError> {
    r.unpack::<i32>(1)
        .map(|v| v[0])
        .map_err(|e| pvm_err(what, e))
}

fn text(r: &mut Received, what: &str) -> Result<String, RuntimeError> {
    r.unpack_str().map_err(|e| pvm_err(what, e))
}

/// The port-count message for a process with these (type, count) pairs.
pub fn ports_message(types: &[(String, u32)]) -> Result<Message, PvmError> {
    let mut m = Message::new();
    m.pack(&[types.len() as i32])?;
    for (name, count) in types {
        m.pack_str(name)?.pack(&[*count as i32])?;
    }
    Ok(m)
}

/// The bindings message: (type, index, peer tid, tag) per connected port.
pub fn bindings_message(bindings: &[(String, u32, Tid, i32)]) -> Result<Message, PvmError> {
    let mut m = Message::new();
    m.pack(&[bindings.len() as i32])?;
    for (ty, index, peer, tag) in bindings {
        m.pack_str(ty)?.pack(&[*index as i32, peer.0, *tag])?;
    }
    Ok(m)
}

impl Interface {
    /// `MakePorts`: waits for the port counts and builds an interface with
    /// the component's port types `known` (a type the script does not give
    /// it has no ports). A type the script gives but `known` lacks is an
    /// error: the script and the component disagree.
    pub fn make_ports(pvm: &Pvm, known: &[&str]) -> Result<Interface, RuntimeError> {
        let from = loader(pvm)?;
        let mut r = pvm
            .recv(Some(from), Some(TAG_PORTS))
            .map_err(|e| pvm_err("MakePorts: receiving the port counts", e))?;
        let mut ifc = Interface {
            types: known
                .iter()
                .map(|n| PortType {
                    name: n.to_string(),
                    ports: Vec::new(),
                })
                .collect(),
        };
        let n = int(&mut r, "MakePorts: port count message")?;
        for _ in 0..n.max(0) {
            let name = text(&mut r, "MakePorts: port type name")?;
            let count = int(&mut r, "MakePorts: port count")?;
            let Some(t) = ifc.types.iter_mut().find(|t| t.name == name) else {
                return Err(RuntimeError(format!(
                    "MakePorts: the script gives this process {count} port(s) of type {name}, \
                     but the component has only the port types {}",
                    if known.is_empty() {
                        "(none)".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            t.ports = vec![None; count.max(0) as usize];
        }
        Ok(ifc)
    }

    /// `SetInterface`: waits for the bindings and fills in the ports.
    pub fn set_interface(&mut self, pvm: &Pvm) -> Result<(), RuntimeError> {
        let from = loader(pvm)?;
        let mut r = pvm
            .recv(Some(from), Some(TAG_BIND))
            .map_err(|e| pvm_err("SetInterface: receiving the bindings", e))?;
        let n = int(&mut r, "SetInterface: bindings message")?;
        for _ in 0..n.max(0) {
            let ty = text(&mut r, "SetInterface: port type")?;
            let index = int(&mut r, "SetInterface: port index")?;
            let peer = int(&mut r, "SetInterface: peer tid")?;
            let tag = int(&mut r, "SetInterface: tag")?;
            let slot = self
                .types
                .iter_mut()
                .find(|t| t.name == ty)
                .and_then(|t| {
                    usize::try_from(index - 1)
                        .ok()
                        .and_then(|i| t.ports.get_mut(i))
                })
                .ok_or_else(|| {
                    RuntimeError(format!(
                        "SetInterface: binding for port {ty}[{index}], which MakePorts did not create"
                    ))
                })?;
            *slot = Some(Port {
                peer: Tid(peer),
                tag,
            });
            shim_core::log::tracing::debug!(
                target: "ensemble",
                "port {ty}[{index}] bound to task {peer:#x}, tag {tag}"
            );
        }
        Ok(())
    }

    /// Both steps: `MakePorts` then `SetInterface`.
    pub fn receive(pvm: &Pvm, known: &[&str]) -> Result<Interface, RuntimeError> {
        let mut ifc = Interface::make_ports(pvm, known)?;
        ifc.set_interface(pvm)?;
        Ok(ifc)
    }

    /// The ports of type `ty` (empty if it has none).
    pub fn ports(&self, ty: &str) -> &[Option<Port>] {
        self.types
            .iter()
            .find(|t| t.name == ty)
            .map_or(&[], |t| t.ports.as_slice())
    }

    /// Port `p` (1-based) of type `ty`, if it exists and is connected.
    pub fn port(&self, ty: &str, p: u32) -> Option<Port> {
        let i = usize::try_from(p).ok()?.checked_sub(1)?;
        self.ports(ty).get(i).copied().flatten()
    }
}

/// Tells the loader this component finished with `status`, then leaves PVM.
pub fn done(pvm: Pvm, status: i32) {
    report(&pvm, status);
    pvm.exit();
}

/// Sends the final status to the loader (if there is one).
pub fn report(pvm: &Pvm, status: i32) {
    if let Some(l) = pvm.parent() {
        let mut m = Message::new();
        if m.pack(&[status]).is_ok() {
            let _ = pvm.send(l, TAG_DONE, &m);
        }
    }
}
