//! The dispatcher's watch over creation requests. A request waits in the
//! queue until enough processes are free; it is served first come, first
//! served among those that fit. The program is deadlocked when requests
//! wait, none fits the free processes, and no process could ever free one:
//! every process is free, finished, or itself waiting for a request.

/// What the dispatcher knows of one process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcState {
    /// Has not reported to the dispatcher yet.
    Starting,
    /// Waiting to be hired.
    Free,
    /// Working in a network.
    Running,
    /// Has left a network and not offered itself again yet.
    Idle,
    /// Waiting for its creation request to be served.
    Waiting,
    /// Has ended.
    Finished,
    /// Not a computing process (the dispatcher itself).
    Absent,
}

/// A queued creation request: who asked and how many free processes the
/// network needs (its nodes but the parent).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub who: usize,
    pub needs: usize,
}

/// The first queued request (in arrival order) that `free` free processes
/// can serve.
pub fn next_servable(queue: &[Request], free: usize) -> Option<usize> {
    queue.iter().position(|r| r.needs <= free)
}

/// `Some(message)` when the queue can never move: it is not empty, no
/// request fits, and no process can free any.
pub fn deadlock(states: &[ProcState], queue: &[Request]) -> Option<String> {
    if queue.is_empty() {
        return None;
    }
    let free = states.iter().filter(|&&s| s == ProcState::Free).count();
    if next_servable(queue, free).is_some() {
        return None;
    }
    let may_change = states.iter().any(|&s| {
        matches!(
            s,
            ProcState::Starting | ProcState::Running | ProcState::Idle
        )
    });
    if may_change {
        return None;
    }
    let asks: Vec<String> = queue
        .iter()
        .map(|r| format!("process {} needs {} free processes", r.who, r.needs))
        .collect();
    Some(format!(
        "deadlock: no network creation request can ever be served ({}; {free} free, every other process waits or has ended)",
        asks.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::ProcState::*;
    use super::*;

    fn req(who: usize, needs: usize) -> Request {
        Request { who, needs }
    }

    #[test]
    fn two_creators_waiting_for_too_many_is_a_deadlock() {
        // Host and process 1 share a network; both ask for networks of 3
        // while only process 2 is free.
        let states = [Waiting, Waiting, Free, Absent];
        let m = deadlock(&states, &[req(0, 2), req(1, 2)]).expect("deadlock");
        assert!(
            m.contains("process 0 needs 2") && m.contains("1 free"),
            "{m}"
        );
    }

    #[test]
    fn a_running_process_may_still_free_processes() {
        let states = [Waiting, Running, Free];
        assert_eq!(deadlock(&states, &[req(0, 2)]), None);
        let states = [Waiting, Starting, Free];
        assert_eq!(deadlock(&states, &[req(0, 2)]), None);
        let states = [Waiting, Idle, Free];
        assert_eq!(deadlock(&states, &[req(0, 2)]), None);
    }

    #[test]
    fn a_request_that_fits_is_served_in_order() {
        let states = [Waiting, Waiting, Free, Free];
        assert_eq!(deadlock(&states, &[req(0, 3), req(1, 2)]), None);
        assert_eq!(next_servable(&[req(0, 3), req(1, 2)], 2), Some(1));
        assert_eq!(next_servable(&[req(0, 3)], 2), None);
    }

    #[test]
    fn a_network_larger_than_the_job_is_a_deadlock_once_all_reported() {
        let states = [Waiting, Free, Free, Finished];
        assert!(deadlock(&states, &[req(0, 4)]).is_some());
        assert_eq!(deadlock(&states, &[]), None);
    }
}
