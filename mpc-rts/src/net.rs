//! Networks and their region descriptors: a network made by the dispatcher
//! (`MPC_Net_create` on the parent, `MPC_Offer` on the processes it
//! hires), a subnetwork cut out of one by its members, and what a member
//! knows of it: the communicator, its own coordinates and the type's
//! topological data.

use crate::error::{MpcError, MpcResult, MPC_ERR_HANDLE, MPC_ERR_MAP, MPC_ERR_SYSTEM};
use crate::runtime::{self, Runtime};
use crate::wire::{Reply, Request};
use mpc_map::nettype::Link;
use mpc_map::NetType;
use shim_core::collective::Group;
use shim_core::mpi::Comm;

/// A region descriptor.
#[derive(Debug)]
pub struct Net {
    /// The dispatcher's number of the network (0 for a subnetwork).
    pub id: u32,
    /// The type with its parameters.
    pub ty: NetType,
    /// The world rank of the process of each node, by linear number.
    pub procs: Vec<usize>,
    /// This process's node, if it is a member.
    pub me: Option<usize>,
    group: Option<Group>,
}

/// What a free process hears from the dispatcher.
#[derive(Debug)]
pub enum Offered {
    /// Hired into a network.
    Hired(Net),
    /// A network was made without this process (once-offers only).
    NotHired,
    /// The program is over.
    Done,
}

fn comm_of(rt: &Runtime, call: &str, procs: &[usize]) -> MpcResult<Group> {
    let base = rt.world(call)?;
    let ranks: Vec<i32> = procs.iter().map(|&p| p as i32).collect();
    Group::create(base, &ranks).map_err(|e| MpcError::core(call, e))
}

impl Net {
    fn joined(rt: &Runtime, call: &str, id: u32, ty: NetType, procs: Vec<usize>) -> MpcResult<Net> {
        let me = procs.iter().position(|&p| p == rt.rank);
        let group = comm_of(rt, call, &procs)?;
        Ok(Net {
            id,
            ty,
            procs,
            me,
            group: Some(group),
        })
    }

    /// Whether this process is a member.
    pub fn is_member(&self) -> bool {
        self.me.is_some()
    }

    /// The members' communicator (ranks are linear node numbers).
    pub fn comm(&self) -> Option<Comm> {
        self.group.as_ref().map(Group::comm)
    }

    /// The members' collectives.
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// This process's coordinates.
    pub fn my_coords(&self) -> Option<Vec<usize>> {
        self.me.and_then(|i| self.ty.coords(i))
    }

    fn member(&self, call: &str) -> MpcResult<&Group> {
        self.group.as_ref().ok_or_else(|| {
            MpcError::new(
                MPC_ERR_HANDLE,
                format!("{call}: not a member of the network"),
            )
        })
    }
}

/// Asks the dispatcher for a network of type `ty` with this process as
/// its parent node; returns when the network exists.
/// `collective`: as HeteroMPI's group creation, wait until every process
/// between networks has offered itself.
pub fn create(ty: NetType, collective: bool) -> MpcResult<Net> {
    let call = if collective {
        "HMPI_Group_create"
    } else {
        "MPC_Net_create"
    };
    let req = Request::Create {
        ty: ty.clone(),
        collective,
    };
    runtime::with(call, |rt| match rt.ask(call, &req)? {
        Reply::Granted { net, procs } => Net::joined(rt, call, net, ty, procs),
        Reply::Refused(why) => Err(MpcError::new(MPC_ERR_MAP, format!("{call}: {why}"))),
        other => Err(MpcError::new(
            MPC_ERR_SYSTEM,
            format!("{call}: unexpected answer {other:?}"),
        )),
    })
}

/// Offers this process to the dispatcher and waits. `once`: also return
/// when a network is made without it.
pub fn offer(once: bool) -> MpcResult<Offered> {
    let call = if once { "MPC_Offer_once" } else { "MPC_Offer" };
    runtime::with(call, |rt| {
        if rt.is_host() {
            return Err(MpcError::new(
                crate::error::MPC_ERR_ROLE,
                format!("{call}: the host process is never free"),
            ));
        }
        rt.notify(call, &Request::Offer { once })?;
        match rt.wait_hire(call)? {
            Reply::Hire { net, procs, ty } => {
                Net::joined(rt, call, net, ty, procs).map(Offered::Hired)
            }
            Reply::NotHired => Ok(Offered::NotHired),
            Reply::Done => Ok(Offered::Done),
            other => Err(MpcError::new(
                MPC_ERR_SYSTEM,
                format!("{call}: unexpected answer {other:?}"),
            )),
        }
    })
}

/// Frees a network (collective over its members). A hired member tells
/// the dispatcher it is between networks before the members' barrier, so
/// that word is on its way before the parent can ask for the next network
/// (a collective creation then waits for it to offer itself again).
pub fn free(net: Net, call: &str) -> MpcResult<()> {
    let hired = net.id != 0 && net.me.is_some_and(|m| m != net.ty.parent());
    if hired {
        runtime::with(call, |rt| rt.notify(call, &Request::Left))?;
    }
    if let Some(g) = &net.group {
        g.barrier().map_err(|e| MpcError::core(call, e))?;
    }
    drop(net);
    Ok(())
}

/// Cuts the members with `inside` out of `net` (collective over its
/// members). The subnetwork is one-dimensional, its nodes in the order of
/// their linear numbers in `net`, with their performances and the links
/// between them; its parent is `net`'s parent if inside, else its first
/// node. A member with `inside` false gets a descriptor it is no member of.
pub fn subnet(net: &Net, inside: bool) -> MpcResult<Net> {
    let call = "MPC_Subnet_create";
    let g = net.member(call)?;
    let (flags, _) = g
        .allgatherv(&[u8::from(inside)])
        .map_err(|e| MpcError::core(call, e))?;
    let nodes: Vec<usize> = (0..net.procs.len())
        .filter(|&i| flags.get(i) == Some(&1))
        .collect();
    if nodes.is_empty() {
        return Err(MpcError::arg(
            call,
            "no member of the network is inside the subnetwork",
        ));
    }
    let pos = |old: usize| nodes.iter().position(|&n| n == old);
    let power: Vec<f64> = nodes.iter().map(|&i| net.ty.powers()[i]).collect();
    let links = net
        .ty
        .links()
        .iter()
        .filter_map(|l| {
            Some(Link {
                from: pos(l.from)?,
                to: pos(l.to)?,
                len: l.len,
            })
        })
        .collect();
    let parent = pos(net.ty.parent()).unwrap_or(0);
    let ty = NetType::new(net.ty.kind, vec![nodes.len()], power, links, parent)
        .map_err(|e| MpcError::arg(call, e))?;
    let procs: Vec<usize> = nodes.iter().map(|&i| net.procs[i]).collect();
    runtime::with(call, |rt| {
        if inside {
            Net::joined(rt, call, 0, ty, procs)
        } else {
            Ok(Net {
                id: 0,
                ty,
                procs,
                me: None,
                group: None,
            })
        }
    })
}
