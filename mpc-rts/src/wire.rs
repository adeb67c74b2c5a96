//! The messages between processes and the dispatcher, on the run-time's
//! own core context. Requests go to the dispatcher with [`TAG_REQUEST`];
//! answers to a caller's request come back with [`TAG_REPLY`]; a free
//! process waiting to be hired hears with [`TAG_HIRE`].

use mpc_map::nettype::{Reader, Writer};
use mpc_map::NetType;

pub const TAG_REQUEST: i32 = 1;
pub const TAG_REPLY: i32 = 2;
pub const TAG_HIRE: i32 = 3;

/// What a process asks of the dispatcher.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// First word after start: its host, the host's processors, and (from
    /// the host process only) the virtual machine file's text.
    Hello {
        host: String,
        cpus: u32,
        vpm: String,
    },
    /// Ready to be hired; `once`: also tell me when a network is made
    /// without me.
    Offer { once: bool },
    /// Make a network of this type with me as its parent. `collective`:
    /// every process between networks takes part (HeteroMPI's group
    /// creation), so wait until each has offered itself or ended.
    Create { ty: NetType, collective: bool },
    /// I have left a network I was hired into.
    Left,
    /// Estimate a network of this type with me as parent; hire nobody.
    Estimate(NetType),
    /// How many processes there are, which are free, and their speeds.
    Status,
    /// The speed of each computing process's host (answered as soon as
    /// the machine is known: it does not wait for processes between
    /// networks, which may themselves wait for the asker).
    Speeds,
    /// The benchmark's rate measured on this process.
    Recon { rate: f64 },
    /// This process has ended.
    Finalize,
}

/// What the dispatcher answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A network was made: its id and the process of each node.
    Granted { net: u32, procs: Vec<usize> },
    /// Estimated seconds and the processes it would use.
    Estimate { time: f64, procs: Vec<usize> },
    /// Processes free now, and each computing process's host speed.
    Status { free: usize, speeds: Vec<f64> },
    /// Done (for requests without an answer of their own).
    Ack,
    /// The request cannot be served; why.
    Refused(String),
    /// Hired as node `node` of network `net` made of these processes.
    Hire {
        net: u32,
        procs: Vec<usize>,
        ty: NetType,
    },
    /// A network was made without this (once-offering) process.
    NotHired,
    /// The program is over.
    Done,
}

fn usizes(w: &mut Writer, v: &[usize]) {
    w.i64(v.len() as i64);
    v.iter().for_each(|&x| w.i64(x as i64));
}

fn read_usizes(r: &mut Reader) -> Result<Vec<usize>, String> {
    let n = r.usize()?;
    (0..n.min(1 << 20)).map(|_| r.usize()).collect()
}

impl Request {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            Request::Hello { host, cpus, vpm } => {
                w.i64(1);
                w.str(host);
                w.i64(i64::from(*cpus));
                w.str(vpm);
            }
            Request::Offer { once } => {
                w.i64(2);
                w.i64(i64::from(*once));
            }
            Request::Create { ty, collective } => {
                w.i64(3);
                w.i64(i64::from(*collective));
                w.0.extend(ty.encode());
            }
            Request::Left => w.i64(8),
            Request::Estimate(t) => {
                w.i64(4);
                w.0.extend(t.encode());
            }
            Request::Status => w.i64(5),
            Request::Speeds => w.i64(9),
            Request::Recon { rate } => {
                w.i64(6);
                w.f64(*rate);
            }
            Request::Finalize => w.i64(7),
        }
        w.0
    }

    pub fn decode(b: &[u8]) -> Result<Request, String> {
        let mut r = Reader(b);
        Ok(match r.i64()? {
            1 => Request::Hello {
                host: r.str()?,
                cpus: r.usize()?.clamp(1, u32::MAX as usize) as u32,
                vpm: r.str()?,
            },
            2 => Request::Offer {
                once: r.i64()? != 0,
            },
            3 => {
                let collective = r.i64()? != 0;
                Request::Create {
                    ty: NetType::decode(r.0)?.0,
                    collective,
                }
            }
            8 => Request::Left,
            4 => Request::Estimate(NetType::decode(r.0)?.0),
            5 => Request::Status,
            9 => Request::Speeds,
            6 => Request::Recon { rate: r.f64()? },
            7 => Request::Finalize,
            op => return Err(format!("unknown request {op}")),
        })
    }
}

impl Reply {
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            Reply::Granted { net, procs } => {
                w.i64(1);
                w.i64(i64::from(*net));
                usizes(&mut w, procs);
            }
            Reply::Estimate { time, procs } => {
                w.i64(2);
                w.f64(*time);
                usizes(&mut w, procs);
            }
            Reply::Status { free, speeds } => {
                w.i64(3);
                w.i64(*free as i64);
                w.i64(speeds.len() as i64);
                speeds.iter().for_each(|&s| w.f64(s));
            }
            Reply::Ack => w.i64(4),
            Reply::Refused(m) => {
                w.i64(5);
                w.str(m);
            }
            Reply::Hire { net, procs, ty } => {
                w.i64(6);
                w.i64(i64::from(*net));
                usizes(&mut w, procs);
                w.0.extend(ty.encode());
            }
            Reply::NotHired => w.i64(7),
            Reply::Done => w.i64(8),
        }
        w.0
    }

    pub fn decode(b: &[u8]) -> Result<Reply, String> {
        let mut r = Reader(b);
        let net = |r: &mut Reader| r.usize().map(|n| n as u32);
        Ok(match r.i64()? {
            1 => Reply::Granted {
                net: net(&mut r)?,
                procs: read_usizes(&mut r)?,
            },
            2 => Reply::Estimate {
                time: r.f64()?,
                procs: read_usizes(&mut r)?,
            },
            3 => {
                let free = r.usize()?;
                let n = r.usize()?;
                let speeds = (0..n.min(1 << 20))
                    .map(|_| r.f64())
                    .collect::<Result<_, _>>()?;
                Reply::Status { free, speeds }
            }
            4 => Reply::Ack,
            5 => Reply::Refused(r.str()?),
            6 => Reply::Hire {
                net: net(&mut r)?,
                procs: read_usizes(&mut r)?,
                ty: NetType::decode(r.0)?.0,
            },
            7 => Reply::NotHired,
            8 => Reply::Done,
            op => return Err(format!("unknown reply {op}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_round_trips() {
        let t = NetType::line(4, vec![1.0, 2.5], vec![]).unwrap();
        for q in [
            Request::Hello {
                host: "h".into(),
                cpus: 2,
                vpm: "host h\n".into(),
            },
            Request::Offer { once: true },
            Request::Create {
                ty: t.clone(),
                collective: true,
            },
            Request::Left,
            Request::Estimate(t.clone()),
            Request::Status,
            Request::Speeds,
            Request::Recon { rate: 2.5 },
            Request::Finalize,
        ] {
            assert_eq!(Request::decode(&q.encode()).unwrap(), q);
        }
        for a in [
            Reply::Granted {
                net: 3,
                procs: vec![0, 2],
            },
            Reply::Estimate {
                time: 1.5,
                procs: vec![1],
            },
            Reply::Status {
                free: 2,
                speeds: vec![1.0, 3.0],
            },
            Reply::Ack,
            Reply::Refused("no".into()),
            Reply::Hire {
                net: 1,
                procs: vec![0, 1],
                ty: t,
            },
            Reply::NotHired,
            Reply::Done,
        ] {
            assert_eq!(Reply::decode(&a.encode()).unwrap(), a);
        }
        assert!(Request::decode(&[9; 8]).is_err());
    }
}
