//! Wildcard matching of names: `*` stands for any run of characters
//! (possibly empty), every other character for itself. A crate of its own
//! so that the `mpbridge` command (which links no MPI) and PVM's mailbox
//! share one matcher.

/// Does `name` match `pattern`? An empty pattern matches only the empty
/// name.
pub fn matches(pattern: &str, name: &str) -> bool {
    let p = pattern.as_bytes();
    let n = name.as_bytes();
    let (mut pi, mut ni) = (0, 0);
    // Position of the last `*` seen and the name position it was tried at.
    let mut backtrack: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] == b'*' {
            backtrack = Some((pi, ni));
            pi += 1;
        } else if pi < p.len() && p[pi] == n[ni] {
            pi += 1;
            ni += 1;
        } else if let Some((star, at)) = backtrack {
            // Let the last `*` swallow one more character and retry.
            pi = star + 1;
            ni = at + 1;
            backtrack = Some((star, at + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn stars_take_any_run_of_characters() {
        assert!(matches("libclang*.so*", "libclang-14.so.1"));
        assert!(matches("libclang*.so*", "libclang.so"));
        assert!(matches("llvm-*", "llvm-14"));
        assert!(matches("*", ""));
        assert!(matches("*", "abc"));
        assert!(matches("a*", "abc"));
        assert!(matches("*c", "abc"));
        assert!(matches("a*b*c", "aXXbYYc"));
        assert!(matches("a*c", "abcbc"));
        assert!(matches("**", "x"));
    }

    #[test]
    fn other_characters_stand_for_themselves() {
        assert!(matches("abc", "abc"));
        assert!(matches("", ""));
        assert!(!matches("libclang*.so*", "libclang-cpp.a"));
        assert!(!matches("llvm-*", "llvm"));
        assert!(!matches("abc", "abcd"));
        assert!(!matches("ab", "abc"));
        assert!(!matches("b*", "abc"));
        assert!(!matches("", "a"));
    }
}
