//! ARMCI's message calls beside the collectives (`ga/armci_msg.c`):
//! `ARMCI_Init_thread_comm`, a ring of `armci_msg_snd`/`armci_msg_rcv`,
//! `armci_msg_rcvany`, `armci_msg_sel*` and `armci_msg_bintree`. On 1, 2
//! and 4 compute ranks beside a `ga-server`, and on 3 with every operation
//! through the server (`MPBRIDGE_GA_REMOTE=1`), the program's lines must
//! be the ones Debian's ARMCI (ARMCI-MPI) prints for the same source.
//! Ours also runs the cluster calls (Debian declares but does not define
//! them) and, with the argument "reduce", `armci_msg_reduce*`, where
//! Debian's ARMCI-MPI stops with "unimplemented"; those runs are checked
//! by the program's own tally.

use tests::ga_compare::{armci_like_debian, assert_tally, run, Ga};

const SRC: &str = "ga/armci_msg.c";
const NAME: &str = "armci_msg";

#[test]
fn armci_msg_matches_debian_armci() {
    // The cluster calls add 9 checks a rank to ours.
    let ours = armci_like_debian(SRC, NAME, (10, 19), 6);
    for np in [1, 4] {
        let got = run(&ours, Ga::Ours, np, &["reduce"], &[]);
        assert_tally(
            &got,
            NAME,
            &format!("{NAME} with reduce on {np} ranks"),
            21 * np,
        );
        let line = got.stdout_line("reduce", "the reduce line");
        let sum = (np * (np + 1) / 2) as f64;
        let want: Vec<String> = (0..np)
            .flat_map(|_| [sum, 2.0 * np as f64, (np + 2) as f64])
            .map(|v| format!("{v:.1}"))
            .collect();
        assert_eq!(
            line,
            format!("reduce {}", want.join(" ")),
            "every rank holds the reduction"
        );
    }
}
