//! PVM groups (libgpvm3): membership kept by the group service in the first
//! process, collective operations directly between members.

use crate::task::Task;
use crate::PvmResult;

/// Group state of one task (and, in the first process, of the service).
#[derive(Debug, Default)]
pub struct GroupState {}

/// Handles a system message of the group service (tags from
/// `sys_tag::GROUP_FIRST`).
pub fn on_system(_task: &mut Task, _from: i32, _tag: i32, _body: &[u8]) -> PvmResult<()> {
    Ok(())
}
