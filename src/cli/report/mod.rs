//! What only the command needs: the bench ladder and its reports, the verification
//! against the published totals, and facts about the machine.

pub(crate) mod bench;
pub(crate) mod machine;
pub(crate) mod published;
pub(crate) mod verify;
