//! `libmpbridge_loopback.so`: preloaded (`LD_PRELOAD`) into the `mpiexec`
//! of a one-machine job by `mpbridge run` and `mpbridge ensemble run`.
//! Open MPI 4.1's launcher binds its out-of-band TCP listeners to the
//! wildcard address whatever `oob_tcp_if_include` says; this library turns
//! a stream socket's bind to the IPv4 or IPv6 wildcard address into a bind
//! to the loopback address, so the launcher is not reachable from the
//! network. At load time it takes itself out of `LD_PRELOAD`, so the
//! processes the launcher starts (the user's programs) never see it.
//!
//! The whole file is the FFI edge: it replaces a C library function.

use std::ffi::{c_int, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};

type BindFn = unsafe extern "C" fn(c_int, *const libc::sockaddr, libc::socklen_t) -> c_int;

/// The C library's `bind` (0 until looked up).
static REAL_BIND: AtomicUsize = AtomicUsize::new(0);

const LIB_NAME: &str = "libmpbridge_loopback.so";

fn real_bind() -> Option<BindFn> {
    let mut p = REAL_BIND.load(Ordering::Acquire);
    if p == 0 {
        let name: &CStr = c"bind";
        // SAFETY: dlsym with RTLD_NEXT and a NUL-terminated name.
        p = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) } as usize;
        REAL_BIND.store(p, Ordering::Release);
    }
    if p == 0 {
        None
    } else {
        // SAFETY: dlsym found the next `bind`, which has this signature.
        Some(unsafe { std::mem::transmute::<usize, BindFn>(p) })
    }
}

/// Whether `fd` is a stream (TCP) socket.
fn is_stream(fd: c_int) -> bool {
    let mut ty: c_int = 0;
    let mut len = std::mem::size_of::<c_int>() as libc::socklen_t;
    // SAFETY: out-pointers to a c_int and its length.
    let rc = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_TYPE,
            (&mut ty as *mut c_int).cast(),
            &mut len,
        )
    };
    rc == 0 && ty == libc::SOCK_STREAM
}

/// `bind(2)`, with the wildcard address of a stream socket replaced by
/// loopback. Returns what the C library's `bind` returns (0, or -1 with
/// `errno` set); -1 with `ENOSYS` if that cannot be found.
///
/// # Safety
/// As `bind(2)`: `addr` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn bind(
    fd: c_int,
    addr: *const libc::sockaddr,
    len: libc::socklen_t,
) -> c_int {
    let Some(real) = real_bind() else {
        // SAFETY: errno is this thread's.
        unsafe { *libc::__errno_location() = libc::ENOSYS };
        return -1;
    };
    let size = len as usize;
    if !addr.is_null() && is_stream(fd) {
        // SAFETY: the caller passes at least a sockaddr's family.
        let family = c_int::from(unsafe { (*addr).sa_family });
        if family == libc::AF_INET && size >= std::mem::size_of::<libc::sockaddr_in>() {
            // SAFETY: an AF_INET address of sockaddr_in's size.
            let mut a = unsafe { *(addr as *const libc::sockaddr_in) };
            if a.sin_addr.s_addr == libc::INADDR_ANY {
                a.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
                // SAFETY: a valid sockaddr_in of the given size.
                return unsafe { real(fd, (&a as *const libc::sockaddr_in).cast(), len) };
            }
        } else if family == libc::AF_INET6 && size >= std::mem::size_of::<libc::sockaddr_in6>() {
            // SAFETY: an AF_INET6 address of sockaddr_in6's size.
            let mut a = unsafe { *(addr as *const libc::sockaddr_in6) };
            if a.sin6_addr.s6_addr == [0u8; 16] {
                a.sin6_addr.s6_addr = std::net::Ipv6Addr::LOCALHOST.octets();
                // SAFETY: a valid sockaddr_in6 of the given size.
                return unsafe { real(fd, (&a as *const libc::sockaddr_in6).cast(), len) };
            }
        }
    }
    // SAFETY: the caller's arguments, unchanged.
    unsafe { real(fd, addr, len) }
}

/// `LD_PRELOAD` without this library's entries (space or colon separated).
pub fn without_me(preload: &str) -> String {
    preload
        .split([' ', ':'])
        .filter(|e| !e.is_empty() && !e.ends_with(LIB_NAME))
        .collect::<Vec<_>>()
        .join(":")
}

/// Runs at load: the launcher's children must not inherit the preload.
extern "C" fn forget_preload() {
    let Ok(v) = std::env::var("LD_PRELOAD") else {
        return;
    };
    let rest = without_me(&v);
    // Loading is single-threaded: nothing reads the environment meanwhile.
    if rest.is_empty() {
        std::env::remove_var("LD_PRELOAD");
    } else {
        std::env::set_var("LD_PRELOAD", rest);
    }
}

#[used]
#[link_section = ".init_array"]
static FORGET_PRELOAD: extern "C" fn() = forget_preload;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_library_leaves_the_preload_list() {
        assert_eq!(without_me("/opt/lib/libmpbridge_loopback.so"), "");
        assert_eq!(
            without_me("/a/libx.so /opt/lib/libmpbridge_loopback.so:/b/liby.so"),
            "/a/libx.so:/b/liby.so"
        );
    }

    #[test]
    fn wildcard_stream_binds_become_loopback() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&l);
        assert!(is_stream(fd));
        // SAFETY: a fresh socket; the address is a valid sockaddr_in.
        let s = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0) };
        assert!(s >= 0);
        // SAFETY: zeroed sockaddr_in is the wildcard address, port 0.
        let mut a: libc::sockaddr_in = unsafe { std::mem::zeroed() };
        a.sin_family = libc::AF_INET as libc::sa_family_t;
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        // SAFETY: valid address and length.
        assert_eq!(
            unsafe { bind(s, (&a as *const libc::sockaddr_in).cast(), len) },
            0
        );
        // SAFETY: an all-zero `sockaddr_in` is a valid value of this C struct.
        let mut got: libc::sockaddr_in = unsafe { std::mem::zeroed() };
        let mut glen = len;
        // SAFETY: out-pointers of the right size.
        unsafe { libc::getsockname(s, (&mut got as *mut libc::sockaddr_in).cast(), &mut glen) };
        assert_eq!(
            got.sin_addr.s_addr,
            u32::from(std::net::Ipv4Addr::LOCALHOST).to_be()
        );
        // SAFETY: s is open.
        unsafe { libc::close(s) };
    }
}
