//! How processes of one node find each other's inboxes: the static world
//! at start-up (collective), and the two ends of a spawn or connect/accept
//! link when the link is made. Both happen before any message of the
//! pair, so a pair's envelopes use one path from the first to the last.
//! The same exchange tells each process where every peer runs (node and
//! process id), with the channels on or off, so peer deaths on this node
//! can be seen whatever path the messages take.

use super::{host_key, wanted, Channels, Desc, DESC_LEN};
use crate::backoff::{count_cpus, CpuMask, CPU_MASK_WORDS};
use crate::engine::Engine;
use crate::error::CoreResult;
use crate::mpi::Comm;
use crate::procid::ProcId;

/// MPI tag of the link handshake (distinct from the envelope and payload tags).
const TAG_MEET: i32 = 3;

/// Says once per process why the same-node channels are not used.
fn warn_once(why: &str) {
    static SAID: std::sync::Once = std::sync::Once::new();
    tracing::warn!(target: "core", "same-node channels off ({why}): messages go through MPI");
    SAID.call_once(|| {
        eprintln!("mpbridge: same-node channels off ({why}); messages go through MPI");
    });
}

impl Engine {
    /// Opens the channels among the processes of the static world that
    /// share a node (collective over `world`).
    pub(crate) fn open_world_channels(&mut self, world: Comm) -> CoreResult<()> {
        let me = self.world_rank as usize;
        let want = wanted();
        let host = host_key();
        // Node, whether channels are wanted, and the CPUs the process may
        // use (the node's share of CPUs is the union of those).
        const MINE: usize = 9 + 8 * CPU_MASK_WORDS;
        let mut mine = [0u8; MINE];
        mine[..8].copy_from_slice(&host.to_le_bytes());
        mine[8] = want as u8;
        for (i, w) in crate::backoff::own_cpus().iter().enumerate() {
            mine[9 + 8 * i..17 + 8 * i].copy_from_slice(&w.to_le_bytes());
        }
        let all = world.allgather(&mine)?;
        let mut on_node = 0;
        let mut node_cpus: Option<CpuMask> = Some([0; CPU_MASK_WORDS]);
        for c in all.chunks(MINE).filter(|c| c[..8] == host.to_le_bytes()) {
            on_node += 1;
            let mut theirs = [0u64; CPU_MASK_WORDS];
            for (i, w) in theirs.iter_mut().enumerate() {
                let mut b = [0u8; 8];
                b.copy_from_slice(&c[9 + 8 * i..17 + 8 * i]);
                *w = u64::from_le_bytes(b);
            }
            // One process that could not tell makes the union unknown.
            node_cpus = node_cpus
                .filter(|_| count_cpus(&theirs) > 0)
                .map(|u| std::array::from_fn(|i| u[i] | theirs[i]));
        }
        crate::backoff::node_processes(on_node, node_cpus.map(|u| count_cpus(&u)));
        let mut ch = None;
        if want {
            match Channels::create(on_node.saturating_sub(1)) {
                Ok(c) => ch = Some(c),
                Err(e) => warn_once(&e),
            }
        }
        let desc = ch.as_ref().map_or_else(Desc::none, Channels::desc);
        let all = world.allgather(&desc.encode())?;
        for (r, d) in all.chunks(DESC_LEN).map(Desc::decode).enumerate() {
            if r != me {
                self.peer_procs.insert(self.world_ids[r], (d.host, d.pid));
            }
        }
        let mut ok = 1u32;
        if let Some(c) = ch.as_mut() {
            for (r, d) in all.chunks(DESC_LEN).map(Desc::decode).enumerate() {
                if r == me || !c.reachable(&d) {
                    continue;
                }
                match c.connect(self.me, self.world_ids[r], &d) {
                    Ok(()) => tracing::debug!(
                        target: "core",
                        peer = %self.world_ids[r],
                        "connection set up: same-node channel"
                    ),
                    Err(e) => {
                        warn_once(&e);
                        ok = 0;
                    }
                }
            }
        }
        // One pair that could not connect puts the whole world on MPI, so
        // both ends of every pair agree on its path.
        let (_, min) = world.allreduce_max_min_u32(&[ok])?;
        if min[0] == 0 {
            tracing::warn!(
                target: "core",
                "a pair of this node could not connect: the whole world uses MPI paths"
            );
            if let Some(c) = ch.as_mut() {
                c.close_all();
            }
        }
        let same_node = ch.as_ref().map_or(0, Channels::peers);
        tracing::debug!(
            target: "core",
            same_node,
            over_mpi = (self.world_ids.len() - 1).saturating_sub(same_node),
            "paths to the static world chosen"
        );
        self.shm = ch;
        Ok(())
    }

    /// Opens the channel with `peer` at the other end of the new link
    /// `comm` when both run on this node (both ends call it).
    pub(crate) fn open_link_channel(&mut self, comm: Comm, peer: ProcId) -> CoreResult<()> {
        let desc = self.shm.as_ref().map_or_else(Desc::none, Channels::desc);
        let mut theirs = [0u8; DESC_LEN];
        comm.sendrecv(&desc.encode(), &mut theirs, 0, TAG_MEET)?;
        let d = Desc::decode(&theirs);
        self.peer_procs.insert(peer, (d.host, d.pid));
        let mut ok = 0u8;
        if let Some(c) = self.shm.as_mut() {
            if c.reachable(&d) {
                match c.connect(self.me, peer, &d) {
                    Ok(()) => ok = 1,
                    Err(e) => warn_once(&e),
                }
            }
        }
        let mut their_ok = [0u8; 1];
        comm.sendrecv(&[ok], &mut their_ok, 0, TAG_MEET)?;
        if ok == 1 && their_ok[0] != 1 {
            if let Some(c) = self.shm.as_mut() {
                c.disconnect(peer);
            }
        }
        let path = if ok == 1 && their_ok[0] == 1 {
            "same-node channel"
        } else {
            "MPI"
        };
        tracing::debug!(target: "core", %peer, path, "link path chosen");
        Ok(())
    }
}
