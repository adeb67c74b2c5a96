//! The probes `mpbridge recon` starts on the hosts: the benchmark kernel
//! (a fixed floating-point loop run for a fixed wall time; its rate counts
//! what the host's CPU share allows), and a TCP ping-pong between two
//! hosts for latency and bandwidth. Each prints one line the measuring
//! side reads back from mpiexec's output.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// Rounds of the kernel's loop in one counted chunk.
const CHUNK: u32 = 20_000;
/// Round trips timed for the latency.
const ROUND_TRIPS: u32 = 400;
/// Bytes of one bandwidth transfer, and how many are timed.
const BULK: usize = 8 << 20;
const BULK_COUNT: u32 = 4;

/// This host's name (its UTS name, so a cluster host gives its own).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "localhost".to_string())
}

/// Runs the kernel for `seconds` of wall time; returns chunks per second.
pub fn kernel(seconds: f64) -> f64 {
    let start = Instant::now();
    let mut x = 1.0f64;
    let mut chunks = 0u64;
    loop {
        for _ in 0..CHUNK {
            x = x * 1.000_000_1 + 1e-9;
            if x > 2.0 {
                x -= 1.0;
            }
        }
        chunks += 1;
        let t = start.elapsed().as_secs_f64();
        if t >= seconds {
            std::hint::black_box(x);
            return chunks as f64 / t;
        }
    }
}

/// The kernel's report line.
pub fn kernel_line(seconds: f64) -> String {
    format!("recon-kernel {} {:.6e}", host_name(), kernel(seconds))
}

/// Reads a kernel report line: host and rate.
pub fn parse_kernel_line(line: &str) -> Option<(String, f64)> {
    let mut w = line.split_whitespace();
    (w.next()? == "recon-kernel").then_some(())?;
    let host = w.next()?.to_string();
    let rate = w.next()?.parse().ok()?;
    Some((host, rate))
}

fn frame(s: &mut TcpStream, payload: &[u8]) -> std::io::Result<()> {
    s.write_all(&(payload.len() as u64).to_le_bytes())?;
    s.write_all(payload)
}

/// Serves one ping-pong client on `port`: small frames are echoed, large
/// ones answered with one byte; an empty frame ends.
pub fn serve(port: u16) -> Result<(), String> {
    let l = TcpListener::bind(("0.0.0.0", port)).map_err(|e| format!("bind port {port}: {e}"))?;
    let (mut s, _) = l.accept().map_err(|e| format!("accept: {e}"))?;
    let _ = s.set_nodelay(true);
    let mut buf = vec![0u8; BULK];
    loop {
        let mut len = [0u8; 8];
        s.read_exact(&mut len).map_err(|e| format!("read: {e}"))?;
        let n = u64::from_le_bytes(len) as usize;
        if n == 0 {
            return Ok(());
        }
        if n > buf.len() {
            return Err(format!("frame of {n} bytes"));
        }
        s.read_exact(&mut buf[..n])
            .map_err(|e| format!("read: {e}"))?;
        let r = if n <= 64 {
            frame(&mut s, &buf[..n])
        } else {
            frame(&mut s, &[1])
        };
        r.map_err(|e| format!("write: {e}"))?;
    }
}

fn answer(s: &mut TcpStream, buf: &mut [u8]) -> std::io::Result<()> {
    let mut len = [0u8; 8];
    s.read_exact(&mut len)?;
    let n = (u64::from_le_bytes(len) as usize).min(buf.len());
    s.read_exact(&mut buf[..n])
}

/// Measures against the server on `host:port` (retrying the connection
/// for a few seconds while it starts); returns the report line.
pub fn ping(host: &str, port: u16) -> Result<String, String> {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut s = loop {
        match TcpStream::connect((host, port)) {
            Ok(s) => break s,
            Err(e) if Instant::now() > deadline => {
                return Err(format!("connect {host}:{port}: {e}"))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    let _ = s.set_nodelay(true);
    let io = |e: std::io::Error| format!("ping-pong with {host}: {e}");
    let mut buf = vec![0u8; 64];
    for _ in 0..10 {
        frame(&mut s, &[7]).map_err(io)?;
        answer(&mut s, &mut buf).map_err(io)?;
    }
    let t0 = Instant::now();
    for _ in 0..ROUND_TRIPS {
        frame(&mut s, &[7]).map_err(io)?;
        answer(&mut s, &mut buf).map_err(io)?;
    }
    let latency = t0.elapsed().as_secs_f64() / f64::from(ROUND_TRIPS) / 2.0;
    let bulk = vec![3u8; BULK];
    frame(&mut s, &bulk).map_err(io)?;
    answer(&mut s, &mut buf).map_err(io)?;
    let t0 = Instant::now();
    for _ in 0..BULK_COUNT {
        frame(&mut s, &bulk).map_err(io)?;
        answer(&mut s, &mut buf).map_err(io)?;
    }
    let t = t0.elapsed().as_secs_f64() - 2.0 * latency * f64::from(BULK_COUNT);
    let bandwidth = (BULK as f64 * f64::from(BULK_COUNT)) / t.max(1e-9);
    frame(&mut s, &[]).map_err(io)?;
    Ok(format!("recon-link {latency:.6e} {bandwidth:.6e}"))
}

/// Reads a link report line: latency and bandwidth.
pub fn parse_link_line(line: &str) -> Option<(f64, f64)> {
    let mut w = line.split_whitespace();
    (w.next()? == "recon-link").then_some(())?;
    Some((w.next()?.parse().ok()?, w.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_lines_round_trip() {
        let line = kernel_line(0.05);
        let (host, rate) = parse_kernel_line(&line).unwrap();
        assert_eq!(host, host_name());
        assert!(rate > 0.0);
        assert_eq!(parse_kernel_line("other 1 2"), None);
    }

    #[test]
    fn ping_pong_on_loopback_measures_something() {
        let port = 40_000 + (std::process::id() % 20_000) as u16;
        let server = std::thread::spawn(move || serve(port));
        let line = ping("127.0.0.1", port).unwrap();
        server.join().unwrap().unwrap();
        let (lat, bw) = parse_link_line(&line).unwrap();
        assert!(lat > 0.0 && lat < 0.1, "{line}");
        assert!(bw > 1e6, "{line}");
    }
}
